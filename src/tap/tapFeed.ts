// A live feed for taps: the same endpoints as `chunkscope proxy` and `attach` (src/cli/feedServer.ts), so the
// workbench (`chunkscope open --feed URL`, or Live → feed) shows each tapped call while the test or script runs.
import { startFeedServer } from '../cli/feedServer'
import type { FeedCapture, FeedRecord } from '../formats/live/feedProtocol'

export type TapFeed = {
  /** `http://127.0.0.1:PORT`: give it to `chunkscope open --feed`. */
  readonly url: string
  /** For `tap(stream, { feed })`: a capture's summary whenever it changes. */
  readonly capture: (summary: FeedCapture) => void
  /** For `tap(stream, { feed })`: one record of a capture, once it is durable. */
  readonly record: (captureId: string, record: FeedRecord) => void
  readonly close: () => Promise<void>
}

/**
 * Serves every tapped call of this process on a loopback feed (port 0: a free one). Records are kept in memory for
 * the backfill a page does when it connects after a call began.
 *
 * @example
 * const feed = await startTapFeed({ port: 8790 }) // then: npx chunkscope open --feed http://127.0.0.1:8790
 * for await (const chunk of tap(adapter.stream(request), { feed })) handle(chunk)
 */
export async function startTapFeed(options: { readonly port?: number } = {}): Promise<TapFeed> {
  const captures = new Map<string, { summary: FeedCapture; lines: string[] }>()
  const server = await startFeedServer({
    port: options.port ?? 0,
    source: {
      captures: () => [...captures.values()].map((capture) => capture.summary),
      log: async (id) => {
        const capture = captures.get(id)
        return capture === undefined ? null : capture.lines.join('')
      },
    },
  })
  return {
    url: server.url,
    capture: (summary) => {
      const known = captures.get(summary.id)
      if (known === undefined) captures.set(summary.id, { summary, lines: [] })
      else known.summary = summary
      server.feed.publish({ type: 'capture', capture: summary })
    },
    record: (captureId, record) => {
      captures.get(captureId)?.lines.push(JSON.stringify(record) + '\n')
      server.feed.publish({ type: 'record', captureId, record })
    },
    close: () => server.close(),
  }
}
