import type { FeedCapture } from '../../formats/live/feedProtocol'
import type { HubCapture } from '../../app/live/liveHub'

export type CaptureRow = {
  readonly id: string
  readonly kind: FeedCapture['kind']
  readonly title: string
  /** What the row's dot says: `interrupted` is a browser capture that was streaming when the page went away. */
  readonly state: FeedCapture['state'] | 'interrupted'
  readonly detail: string
  readonly where: string
  readonly sessionIndex: number
  /** A browser capture running in this page: it can be stopped. */
  readonly stoppable: boolean
  /** The failure's message when the capture ended in an error (the endpoint's own words, or the CORS hint). */
  readonly problem: string | null
}

/** The Live panel's rows, newest first. `running`: ids of the browser captures this page is streaming now. */
export function buildCaptureRows(
  captures: readonly HubCapture[],
  running: ReadonlySet<string>,
): CaptureRow[] {
  return captures
    .map(({ capture, origin, sessionIndex }): CaptureRow => {
      const live = running.has(capture.id)
      const state: CaptureRow['state'] =
        capture.kind === 'browser' && capture.state === 'streaming' && !live ? 'interrupted' : capture.state
      const finish =
        capture.finish === null
          ? ''
          : capture.finish.kind === 'error' || capture.finish.kind === 'aborted'
            ? ` · ${capture.finish.kind} ${capture.finish.failure?.code ?? ''}`.trimEnd()
            : ` · ${capture.finish.kind}`
      return {
        id: capture.id,
        kind: capture.kind,
        title: capture.title || capture.id,
        state,
        detail: `${capture.chunks} chunk${capture.chunks === 1 ? '' : 's'}${finish}`,
        where: origin.via === 'page' ? 'this page' : origin.url,
        sessionIndex,
        stoppable: live && capture.state === 'streaming',
        problem: capture.finish?.kind === 'error' ? capture.finish.failure.message : null,
      }
    })
    .reverse()
}
