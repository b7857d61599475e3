import type { SourcedChunk } from '../../core/protocol'
import type { SessionEvent } from '../../core/session'
import type { LoadedSource } from '../../formats/types'

/**
 * Moving a loaded source from the worker to the page without freezing it. Structured clone of a million small
 * objects costs seconds of main-thread deserialisation in ONE task (measured: ~4.8 s for 1M chunks), so the
 * worker sends a shell (the source with events and chunks taken out) and then the events and chunks in batches
 * of BATCH, each its own message and so its own short task. An attempt's chunks are usually the very objects its
 * `assistant/chunk` events carry: those travel once, as events, and the attempt gets back their indexes.
 */
export const BATCH = 5000

export type TransferPlan = {
  readonly sessions: readonly {
    readonly events: number
    /** Per stream: the event index of each chunk (when all are chunk events of this session), or null. */
    readonly streams: readonly (Int32Array | null)[]
  }[]
}

export type TransferPart =
  | { readonly type: 'events'; readonly session: number; readonly events: SessionEvent[] }
  | {
      readonly type: 'chunks'
      readonly session: number
      readonly stream: number
      readonly chunks: SourcedChunk[]
    }

/** Worker side: empties `source` in place into a shell, a plan and the parts to post after it. */
export function splitSource(source: LoadedSource): {
  shell: LoadedSource
  plan: TransferPlan
  parts: TransferPart[]
} {
  const parts: TransferPart[] = []
  const sessions = source.sessions.map((session, sessionIndex) => {
    const indexOfChunk = new Map<unknown, number>()
    session.events.forEach((event, index) => {
      const chunk = (event.data as { chunk?: unknown } | null)?.chunk
      if (event.type === 'assistant/chunk' && chunk !== undefined) indexOfChunk.set(chunk, index)
    })
    const streams = session.streams.map((attempt, streamIndex) => {
      const indexes = new Int32Array(attempt.chunks.length)
      let all = true
      attempt.chunks.forEach((sourced, i) => {
        const index = indexOfChunk.get(sourced.chunk)
        if (index === undefined || session.events[index]!.seq !== sourced.seq) all = false
        else indexes[i] = index
      })
      if (!all) {
        for (let from = 0; from < attempt.chunks.length; from += BATCH) {
          parts.push({
            type: 'chunks',
            session: sessionIndex,
            stream: streamIndex,
            chunks: attempt.chunks.slice(from, from + BATCH),
          })
        }
      }
      attempt.chunks = []
      return all ? indexes : null
    })
    for (let from = 0; from < session.events.length; from += BATCH) {
      parts.push({ type: 'events', session: sessionIndex, events: session.events.slice(from, from + BATCH) })
    }
    const events = session.events.length
    session.events = []
    return { events, streams }
  })
  return { shell: source, plan: { sessions }, parts }
}

/** Page side: puts the parts back into the shell, giving the same source the worker had. */
export class SourceAssembler {
  constructor(
    private readonly shell: LoadedSource,
    private readonly plan: TransferPlan,
  ) {}

  add(part: TransferPart): void {
    const session = this.shell.sessions[part.session]
    if (session === undefined) return
    if (part.type === 'events') {
      for (const event of part.events) session.events.push(event)
    } else {
      const attempt = session.streams[part.stream]
      if (attempt !== undefined) for (const chunk of part.chunks) attempt.chunks.push(chunk)
    }
  }

  finish(): LoadedSource {
    this.plan.sessions.forEach((planned, sessionIndex) => {
      const session = this.shell.sessions[sessionIndex]
      if (session === undefined) return
      planned.streams.forEach((indexes, streamIndex) => {
        const attempt = session.streams[streamIndex]
        if (attempt === undefined || indexes === null) return
        attempt.chunks = Array.from(indexes, (index) => {
          const event = session.events[index]!
          return {
            seq: event.seq,
            time: event.time,
            chunk: (event.data as { chunk: SourcedChunk['chunk'] }).chunk,
          }
        })
      })
    })
    return this.shell
  }
}
