import type { SourcedChunk } from '../../core/protocol'
import type { SessionEvent } from '../../core/session'
import type { LoadedSource } from '../../formats/types'
import {
  decodeChunks,
  decodeEvents,
  encodeChunks,
  encodeEvents,
  transferables,
  type Columns,
} from './columns'

/**
 * Moving a loaded source from the worker to the page without freezing it. Structured clone of a million small
 * objects costs seconds of main-thread deserialisation in ONE task (measured: ~4.8 s for 1M chunks), so the
 * worker sends a shell (the source with events and chunks taken out) and then the events and chunks in batches
 * of BATCH, each as columns (columns.ts: typed arrays transferred, one string table) in its own message and so
 * its own short task. An attempt's chunks are usually the very objects its `assistant/chunk` events carry: those
 * travel once, as events, and the attempt gets back their indexes; the page rebuilds them as the events arrive.
 */
export const BATCH = 50_000

export type TransferPlan = {
  readonly sessions: readonly {
    readonly events: number
    /** Per stream: the event index of each chunk (when all are chunk events of this session), or null. */
    readonly streams: readonly (Int32Array | null)[]
  }[]
}

export type TransferPart =
  | { readonly type: 'events'; readonly session: number; readonly events: Columns }
  | {
      readonly type: 'chunks'
      readonly session: number
      readonly stream: number
      readonly chunks: Columns
    }

/** The buffers a part's message can transfer rather than copy. */
export function partTransferables(part: TransferPart): ArrayBuffer[] {
  return transferables(part.type === 'events' ? part.events : part.chunks)
}

/**
 * Worker side: empties `source` in place into a shell, a plan and the parts to post after it. Each part is encoded
 * when it is asked for, so the worker posts the shell at once and encodes the next batch while the page decodes one.
 */
export function splitSource(
  source: LoadedSource,
  batch = BATCH,
): {
  shell: LoadedSource
  plan: TransferPlan
  parts: (() => TransferPart)[]
} {
  const parts: (() => TransferPart)[] = []
  const sessions = source.sessions.map((session, sessionIndex) => {
    const { events } = session
    const streams = chunkEventIndexes(events, session.streams)
    session.streams.forEach((attempt, stream) => {
      const { chunks } = attempt
      if (streams[stream] === null) {
        for (let from = 0; from < chunks.length; from += batch) {
          const some = chunks.slice(from, from + batch)
          parts.push(() => ({ type: 'chunks', session: sessionIndex, stream, chunks: encodeChunks(some) }))
        }
      }
      attempt.chunks = []
    })
    for (let from = 0; from < events.length; from += batch) {
      const some = events.slice(from, from + batch)
      parts.push(() => ({ type: 'events', session: sessionIndex, events: encodeEvents(some) }))
    }
    session.events = []
    return { events: events.length, streams }
  })
  return { shell: source, plan: { sessions }, parts }
}

/**
 * Per stream, the index of the `assistant/chunk` event carrying each of its chunks (the same object, the same
 * seq), or null when not every chunk is one. The session builder takes a stream's chunks from its events in order
 * (core/session.ts), so one walk over the events matches them, trying the stream the previous chunk went to first.
 */
function chunkEventIndexes(
  events: readonly SessionEvent[],
  streams: readonly { readonly chunks: readonly SourcedChunk[] }[],
): (Int32Array | null)[] {
  const indexes = streams.map((attempt) => new Int32Array(attempt.chunks.length))
  const matched = new Int32Array(streams.length)
  const takes = (stream: number, event: SessionEvent, chunk: unknown): boolean => {
    const next = streams[stream]!.chunks[matched[stream]!]
    return next !== undefined && next.chunk === chunk && next.seq === event.seq
  }
  let last = 0
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!
    const chunk = (event.data as { chunk?: unknown } | null)?.chunk
    if (event.type !== 'assistant/chunk' || chunk === undefined) continue
    let stream = streams.length > 0 && takes(last, event, chunk) ? last : -1
    for (let other = 0; stream === -1 && other < streams.length; other++)
      if (takes(other, event, chunk)) stream = other
    if (stream === -1) continue
    indexes[stream]![matched[stream]!] = i
    matched[stream]! += 1
    last = stream
  }
  return indexes.map((found, stream) => (matched[stream] === found.length ? found : null))
}

/** Page side: puts the parts back into the shell, giving the same source the worker had. */
export class SourceAssembler {
  /** Per session and stream: how many of the stream's chunks are rebuilt from the events received so far. */
  private readonly rebuilt: number[][]

  constructor(
    private readonly shell: LoadedSource,
    private readonly plan: TransferPlan,
  ) {
    this.rebuilt = plan.sessions.map((session) => session.streams.map(() => 0))
  }

  add(part: TransferPart): void {
    const session = this.shell.sessions[part.session]
    if (session === undefined) return
    if (part.type === 'events') {
      for (const event of decodeEvents(part.events)) session.events.push(event)
      this.rebuildChunks(part.session)
    } else {
      const attempt = session.streams[part.stream]
      if (attempt !== undefined) for (const chunk of decodeChunks(part.chunks)) attempt.chunks.push(chunk)
    }
  }

  /** The chunks whose events have arrived, in each stream sent as event indexes (spread over the parts). */
  private rebuildChunks(sessionIndex: number): void {
    const session = this.shell.sessions[sessionIndex]!
    const received = session.events.length
    this.plan.sessions[sessionIndex]?.streams.forEach((indexes, streamIndex) => {
      const attempt = session.streams[streamIndex]
      const done = this.rebuilt[sessionIndex]![streamIndex]!
      if (attempt === undefined || indexes === null) return
      let at = done
      for (; at < indexes.length && indexes[at]! < received; at++) {
        const event = session.events[indexes[at]!]!
        const chunk = (event.data as { chunk: SourcedChunk['chunk'] }).chunk
        attempt.chunks.push({ seq: event.seq, time: event.time, chunk })
      }
      this.rebuilt[sessionIndex]![streamIndex] = at
    })
  }

  finish(): LoadedSource {
    this.plan.sessions.forEach((_, sessionIndex) => this.rebuildChunks(sessionIndex))
    return this.shell
  }
}
