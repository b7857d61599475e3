import { chunksOf, holdChunks, holdEvents, releaseChunks, type ChunkList } from './chunkList'
import type { AnyChunk, SourcedChunk } from './protocol'
import type { Session, SessionEvent } from './sessionTypes'
import { ColumnRows, type Columns } from './columns'

/**
 * How the page holds a loaded source's chunks: as the column batches the worker sent (columns.ts), read by position
 * through a {@link ChunkList}, instead of one object per event and per chunk (about 190 bytes a chunk for a session
 * log, ten times the file; as columns, tens of bytes). docs/ARCHITECTURE.md, "How chunks are held". The readers of
 * session logs and chunk NDJSON write the same batches while they parse (formats/columnSource.ts), so the loading
 * worker sends what the reader made, and a source held so reads the same in the worker, the page and Node.
 */

/** Rows of one kind (a session's events, or one stream's sourced chunks) in the batches they arrived in. */
export class RowBatches {
  readonly batches: ColumnRows[] = []
  /** Rows per batch: every batch but the last has exactly this many (transfer.ts cuts them so). */
  private size = 0
  length = 0

  add(columns: Columns): void {
    const last = this.batches.at(-1)
    if (last !== undefined && last.length !== this.size)
      throw new Error(`chunk store: a batch of ${columns.length} rows followed a short one of ${last.length}`)
    if (this.batches.length === 0) this.size = columns.length
    this.batches.push(new ColumnRows(columns))
    this.length += columns.length
  }

  batch(row: number): ColumnRows {
    return this.batches[this.size === 0 ? 0 : Math.floor(row / this.size)]!
  }

  /** The row's place within its batch. */
  within(row: number): number {
    return this.size === 0 ? row : row % this.size
  }

  /** Every record, in order, each built from its numbers (the whole ones as they travelled). */
  records<T>(read: (rows: ColumnRows, i: number) => T): T[] {
    const out: T[] = []
    for (const rows of this.batches) for (let i = 0; i < rows.length; i++) out.push(read(rows, i))
    return out
  }
}

/**
 * Which row holds each position of a stream whose chunks are some of the rows: runs of consecutive rows (a stream's
 * chunk events mostly follow each other, so a few runs stand for millions of positions), or one row per position
 * when the stream is too interleaved for runs to be smaller.
 */
export class RowMap {
  readonly length: number
  private readonly runPos: Int32Array | null
  private readonly runRow: Int32Array | null
  private readonly rows: Int32Array | null
  /** The run the last lookup landed in: the engine's pass and steps read positions in order. */
  private last = 0

  /**
   * `runs`: the rows' runs when the caller kept them as it wrote the rows (formats/columnSource.ts): `runs.pos[r]`
   * is the position run r starts at (`runs.pos[count]` the rows' length), `runs.row[r]` its first row, each run
   * ending where the next one's rows stop following on. They are not scanned for again then.
   */
  constructor(rows: Int32Array, runs?: RowRunList) {
    this.length = rows.length
    let count = runs?.count ?? 0
    if (runs === undefined)
      for (let pos = 0; pos < rows.length; pos++)
        if (pos === 0 || rows[pos] !== rows[pos - 1]! + 1) count += 1
    if (count * 2 >= rows.length) {
      this.rows = rows
      this.runPos = this.runRow = null
      return
    }
    this.rows = null
    if (runs !== undefined) {
      this.runPos = runs.pos.slice(0, count + 1)
      this.runRow = runs.row.slice(0, count)
      return
    }
    const runPos = new Int32Array(count + 1)
    const runRow = new Int32Array(count)
    let run = 0
    for (let pos = 0; pos < rows.length; pos++)
      if (pos === 0 || rows[pos] !== rows[pos - 1]! + 1) {
        runPos[run] = pos
        runRow[run] = rows[pos]!
        run += 1
      }
    runPos[count] = rows.length
    this.runPos = runPos
    this.runRow = runRow
  }

  row(pos: number): number {
    if (this.rows !== null) return this.rows[pos]!
    const runPos = this.runPos!
    let run = this.last
    if (!(runPos[run]! <= pos && pos < runPos[run + 1]!)) {
      let low = 0
      let high = runPos.length - 2
      while (low < high) {
        const mid = (low + high + 1) >>> 1
        if (runPos[mid]! <= pos) low = mid
        else high = mid - 1
      }
      run = this.last = low
    }
    return this.runRow![run]! + (pos - runPos[run]!)
  }

  /** How many positions from `pos` on hold the rows that follow on from its row (at least 1). */
  following(pos: number): number {
    if (this.rows !== null) {
      let end = pos + 1
      while (end < this.length && this.rows[end] === this.rows[end - 1]! + 1) end += 1
      return end - pos
    }
    this.row(pos)
    return this.runPos![this.last + 1]! - pos
  }
}

/** The runs of consecutive rows a {@link RowMap} is made of, as a writer of the rows kept them (see its constructor). */
export type RowRunList = { readonly pos: Int32Array; readonly row: Int32Array; readonly count: number }

/**
 * A stream's chunks over rows held as columns: every row of a batch of sourced chunks (`positions` null), or the
 * session events at `positions` (a stream's chunks are the chunk events the session builder took, in order).
 */
export class ColumnChunkList implements ChunkList {
  readonly length: number

  constructor(
    /** The batches its rows are in (read a row with `rows.batch(row)` at `rows.within(row)`). */
    readonly rows: RowBatches,
    private readonly positions: RowMap | null,
  ) {
    this.length = positions === null ? rows.length : positions.length
  }

  /** The row of `rows` that holds position `pos`. */
  row(pos: number): number {
    return this.positions === null ? pos : this.positions.row(pos)
  }

  /**
   * How many positions from `pos` on are the rows that follow its row in its batch (at least 1): a loop over a long
   * stream reads them from the batch's columns directly (`rows.batch(row).columns` at `rows.within(row)` on),
   * without a lookup per position.
   */
  span(pos: number): number {
    const row = this.row(pos)
    const inBatch = this.rows.batch(row).length - this.rows.within(row)
    return Math.min(inBatch, this.positions === null ? this.length - pos : this.positions.following(pos))
  }

  at(pos: number): SourcedChunk | undefined {
    if (!(pos >= 0 && pos < this.length)) return undefined
    const row = this.row(pos)
    const batch = this.rows.batch(row)
    const i = this.rows.within(row)
    if (this.positions === null) return batch.sourced(i)
    // What the session builder makes of a chunk event (core/session.ts): its seq and time, its data.chunk.
    return { seq: batch.seq(i), time: batch.time(i), chunk: batch.chunk(i) }
  }

  chunkAt(pos: number): AnyChunk {
    const row = this.row(pos)
    return this.rows.batch(row).chunk(this.rows.within(row))
  }

  seqAt(pos: number): number {
    const row = this.row(pos)
    return this.rows.batch(row).seq(this.rows.within(row))
  }

  timeAt(pos: number): number | null {
    const row = this.row(pos)
    return this.rows.batch(row).time(this.rows.within(row))
  }

  typeAt(pos: number): string {
    const row = this.row(pos)
    return this.rows.batch(row).type(this.rows.within(row))
  }

  indexAt(pos: number): number | undefined {
    const row = this.row(pos)
    return this.rows.batch(row).index(this.rows.within(row))
  }

  slice(from = 0, to = this.length): SourcedChunk[] {
    const out: SourcedChunk[] = []
    const end = Math.min(this.length, to < 0 ? this.length + to : to)
    for (let pos = Math.max(0, from < 0 ? this.length + from : from); pos < end; pos++)
      out.push(this.at(pos)!)
    return out
  }

  *[Symbol.iterator](): Iterator<SourcedChunk> {
    for (let pos = 0; pos < this.length; pos++) yield this.at(pos)!
  }
}

/**
 * Makes `target[key]` a property built on first read: the columns stay the source of truth until some code asks
 * for the array itself (an export, a share link, a what-if edit). Assigning it replaces it for good (`onSet`: the
 * held list no longer describes it).
 */
export function defineLazy<T extends object, K extends keyof T>(
  target: T,
  key: K,
  build: () => T[K],
  onSet: () => void = () => {},
): void {
  let built: { value: T[K] } | null = null
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (built ??= { value: build() }).value,
    set(value: T[K]) {
      onSet()
      Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
    },
  })
}

/** The events of a session, built from its batches (the whole ones as they travelled). */
export function eventsOf(rows: RowBatches): SessionEvent[] {
  return rows.records((batch, i) => batch.event(i))
}

/** Appends the events of one batch that travelled whole (every one but the `assistant/chunk`s of the readers' shape). */
export function wholeEvents(batch: ColumnRows, out: SessionEvent[]): void {
  for (let i = 0; i < batch.length; i++) if (!batch.columnar(i)) out.push(batch.event(i))
}

/**
 * Where a stream's chunks are held: rows of its session's event batches (its chunk events, in order), or batches of
 * its own (a bare chunk file, or a stream whose chunks are not its events' own).
 */
export type HeldStream = Int32Array | RowBatches

/** What a session held as columns is made of: the worker sends these batches as they are (app/workers/transfer.ts). */
export type HeldSession = {
  readonly events: RowBatches
  readonly streams: readonly HeldStream[]
  /** Per stream, the list {@link holdSession} held for it (a stream whose `chunks` were replaced holds another). */
  readonly lists: readonly ChunkList[]
}

const heldSessions = new WeakMap<object, HeldSession>()

/** The columns a session is held as, if it is. */
export function heldSessionOf(session: Session): HeldSession | undefined {
  return heldSessions.get(session)
}

/**
 * Holds a session as columns: `events` are all its events in file order (`whole`: those that travelled whole, in
 * order), `streams[k]` where stream k's chunks are. `session.events` and each `attempt.chunks` become arrays built
 * on first read, equal to what the object readers make: an attempt's chunk objects are then its events'
 * `data.chunk`, as the session builder leaves them (core/session.ts). Assigning `attempt.chunks` drops its held list.
 */
export function holdSession(
  session: Session,
  events: RowBatches,
  whole: readonly SessionEvent[],
  streams: readonly HeldStream[],
  /** Per stream held as rows, those rows' runs when the caller kept them (RowMap's constructor). */
  runs: readonly (RowRunList | undefined)[] = [],
): void {
  if (events.length > 0) {
    holdEvents(session, { count: events.length, whole })
    defineLazy(session, 'events', () => eventsOf(events))
  }
  const lists = session.streams.map((attempt, index) =>
    holdStream(session, attempt, events, streams[index]!, runs[index]),
  )
  heldSessions.set(session, { events, streams, lists })
}

/** Holds one stream of a session held as columns (see {@link holdSession}) and gives the list it reads through. */
function holdStream(
  session: Session,
  attempt: Session['streams'][number],
  events: RowBatches,
  held: HeldStream,
  runs?: RowRunList,
): ChunkList {
  const rows = held instanceof Int32Array ? held : null
  const list = new ColumnChunkList(
    rows === null ? (held as RowBatches) : events,
    rows && new RowMap(rows, runs),
  )
  holdChunks(attempt, list)
  const build =
    rows === null
      ? () => (held as RowBatches).records((batch, i) => batch.sourced(i))
      : () => Array.from({ length: list.length }, (_, pos) => chunkOfEvent(session.events[list.row(pos)]!))
  defineLazy(attempt, 'chunks', build, () => releaseChunks(attempt))
  return list
}

/**
 * Cuts stream `index` of a held session to its first `count` chunks and keeps it held: what assigning
 * `chunksOf(attempt).slice(0, count)` to its `chunks` gives, without one object per chunk, for a stream held as
 * rows of the session's events (its chunks still travel once, as the events). False, and nothing changed, for any
 * other stream: the caller assigns the slice then.
 */
export function cutHeldStream(session: Session, index: number, count: number): boolean {
  const held = heldSessions.get(session)
  const attempt = session.streams[index]
  const rows = held?.streams[index]
  if (held === undefined || attempt === undefined || !(rows instanceof Int32Array)) return false
  if (chunksOf(attempt) !== held.lists[index]) return false
  // A copy, not a view: the worker posts the plan, and a view would carry its whole buffer with it.
  const cut = rows.slice(0, count)
  const streams = held.streams.map((stream, at) => (at === index ? cut : stream))
  const lists = held.lists.map((list, at) =>
    at === index ? holdStream(session, attempt, held.events, cut) : list,
  )
  heldSessions.set(session, { events: held.events, streams, lists })
  return true
}

function chunkOfEvent(event: SessionEvent): SourcedChunk {
  return { seq: event.seq, time: event.time, chunk: (event.data as { chunk: SourcedChunk['chunk'] }).chunk }
}
