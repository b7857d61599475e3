import type { SourcedChunk } from '../../core/protocol'
import type { SessionEvent } from '../../core/session'
import type { LoadedSource } from '../../formats/types'
import { chunksOf } from '../../core/chunkList'
import { heldSessionOf, holdSession, RowBatches, wholeEvents, type HeldSession } from '../../core/chunkStore'
import { transferables, type Columns } from '../../core/columns'
import { COLUMN_BATCH, encodeChunks, encodeEvents } from '../../core/columnWriter'
import type { Session } from '../../core/session'
import { markFitted } from './budget'

/**
 * Moving a loaded source from the worker to the page without freezing it. Structured clone of a million small
 * objects costs seconds of main-thread deserialisation in ONE task (measured: ~4.8 s for 1M chunks), so the
 * worker sends a shell (the source with events and chunks taken out) and then the events and chunks in batches
 * of BATCH, each as columns (core/columns.ts: typed arrays transferred, one string table) in its own message and so
 * its own short task. An attempt's chunks are usually the very objects its `assistant/chunk` events carry: those
 * travel once, as events, and the attempt gets back their indexes; the page reads them from the events' columns.
 * A source the reader already wrote as columns (formats/columnSource.ts) is sent as the batches it holds.
 */
export const BATCH = COLUMN_BATCH

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
 * `sent`: batches the worker posted while reading (formats/columnSource.ts `BatchSink`, in the order the reader
 * filled them); they are left out when the source holds every one of them, and `early` says how many the page keeps
 * (0: it drops them and gets every part here).
 */
export function splitSource(
  source: LoadedSource,
  batch = BATCH,
  sent: ReadonlySet<Columns> = new Set(),
): {
  shell: LoadedSource
  plan: TransferPlan
  parts: (() => TransferPart)[]
  early: number
} {
  const skip = sent.size > 0 && holdsAll(source, sent) ? sent : new Set<Columns>()
  const parts: (() => TransferPart)[] = []
  const sessions = source.sessions.map((session, sessionIndex) => {
    const held = heldSessionOf(session)
    if (held !== undefined) return splitHeld(session, sessionIndex, held, parts, batch, skip)
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
  return { shell: source, plan: { sessions }, parts, early: skip.size }
}

/**
 * Whether every batch in `sent` goes to the page as it is ({@link splitHeld}): a reader that fell back to objects
 * holds none, and a stream cut to the browser limits is encoded again from its array.
 */
function holdsAll(source: LoadedSource, sent: ReadonlySet<Columns>): boolean {
  let found = 0
  for (const session of source.sessions) {
    const held = heldSessionOf(session)
    if (held === undefined) continue
    for (const rows of held.events.batches) if (sent.has(rows.columns)) found += 1
    session.streams.forEach((attempt, stream) => {
      const kept = held.streams[stream]
      if (!(kept instanceof RowBatches) || chunksOf(attempt) !== held.lists[stream]) return
      for (const rows of kept.batches) if (sent.has(rows.columns)) found += 1
    })
  }
  return found === sent.size
}

/**
 * {@link splitSource} of a session held as columns: its batches go as they are (their buffers are transferred), and
 * so do the batches of each stream still held; a stream whose chunks were replaced (cut to the browser limits) is
 * encoded from its array. Nothing here builds `session.events`.
 */
function splitHeld(
  session: Session,
  sessionIndex: number,
  held: HeldSession,
  parts: (() => TransferPart)[],
  batch: number,
  sent: ReadonlySet<Columns>,
): TransferPlan['sessions'][number] {
  const streams = session.streams.map((attempt, stream) => {
    const kept = held.streams[stream]
    const still = kept !== undefined && chunksOf(attempt) === held.lists[stream]
    if (still && kept instanceof Int32Array) {
      attempt.chunks = []
      return kept
    }
    if (still && kept instanceof RowBatches) {
      for (const rows of kept.batches)
        if (!sent.has(rows.columns))
          parts.push(() => ({ type: 'chunks', session: sessionIndex, stream, chunks: rows.columns }))
    } else {
      const { chunks } = attempt
      for (let from = 0; from < chunks.length; from += batch) {
        const some = chunks.slice(from, from + batch)
        parts.push(() => ({ type: 'chunks', session: sessionIndex, stream, chunks: encodeChunks(some) }))
      }
    }
    attempt.chunks = []
    return null
  })
  for (const rows of held.events.batches)
    if (!sent.has(rows.columns))
      parts.push(() => ({ type: 'events', session: sessionIndex, events: rows.columns }))
  session.events = []
  return { events: held.events.length, streams }
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

/**
 * Page side: puts the parts back into the shell, giving a source equal to the worker's. The parts stay columns
 * (chunkStore.ts): each attempt's chunks are held as a {@link ColumnChunkList} (read them with `chunksOf`), and
 * `session.events` and `attempt.chunks` become arrays only when some code reads them. Parts may come before the
 * shell (the batches the worker posts while it reads): they are kept by session and stream until {@link finish}.
 */
export class SourceAssembler {
  private readonly events: RowBatches[] = []
  /** Per session: the events that travelled whole, collected as their batches arrive. */
  private readonly whole: SessionEvent[][] = []
  /** Per session and stream: the chunks sent as chunk parts (streams sent as event indexes have none). */
  private readonly chunks: RowBatches[][] = []

  add(part: TransferPart): void {
    if (part.type === 'events') {
      const events = this.eventRows(part.session)
      events.add(part.events)
      wholeEvents(events.batches.at(-1)!, (this.whole[part.session] ??= []))
    } else this.chunkRows(part.session, part.stream).add(part.chunks)
  }

  /** A session's event batches so far (the very object the finished source holds). */
  eventRows(session: number): RowBatches {
    return (this.events[session] ??= new RowBatches())
  }

  /** A stream's chunk batches so far (the very object the finished source holds, if it came as chunk parts). */
  chunkRows(session: number, stream: number): RowBatches {
    return ((this.chunks[session] ??= [])[stream] ??= new RowBatches())
  }

  finish(shell: LoadedSource, plan: TransferPlan): LoadedSource {
    shell.sessions.forEach((session, sessionIndex) => {
      const planned = plan.sessions[sessionIndex]
      if (planned === undefined) return
      const streams = planned.streams.map(
        (indexes, stream) => indexes ?? this.chunkRows(sessionIndex, stream),
      )
      holdSession(session, this.eventRows(sessionIndex), this.whole[sessionIndex] ?? [], streams)
    })
    // The worker fitted it to the browser limits before sending it (readInput.ts).
    return markFitted(shell)
  }
}
