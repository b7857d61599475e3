import type { AnyChunk, SourcedChunk } from './protocol'
import type { PackedRowType, SessionEvent } from './session'

/**
 * Session events and stream chunks as columns, the way they cross from the loading worker to the page: typed
 * arrays (transferred, not copied) and one string table per batch, instead of structured clone of millions of small
 * objects (measured in Chromium: ~0.65 µs per object deserialised on the main thread; rebuilding them from columns
 * is a plain object literal each). Only records of the exact shapes the readers build go into columns, keys in
 * the same order; anything else travels as the object it is, so decoding gives back equal records, key order
 * included (what JSON.stringify and the views show).
 */
export type Columns = {
  readonly length: number
  /** Per row: 0 = the record travels whole in `objects`; else a ROW code. */
  readonly rows: Uint8Array
  /** Integer columns take the narrowest array every value of the batch fits (most fit 1 to 4 bytes a value). */
  readonly seqs: NumberColumn
  /**
   * Per block of {@link BLOCK} rows, the base its `seqs` (`lines`, `indexes`, `times`) are offsets from, when the batch's values
   * fit so in 1 or 2 bytes each (they mostly climb by small steps); empty when the column holds the values
   * themselves. For times, a blocked offset of 0xFFFF is a null time.
   */
  readonly seqBases: Float64Array
  readonly lineBases: Float64Array
  readonly indexBases: Float64Array
  readonly timeBases: Float64Array
  /**
   * A time is `timeBase + times[i]`, null where `times[i]` is NaN (a Float64Array, `timeBase` 0) or −1 (an
   * Int32Array of offsets from the batch's earliest time, when every time is an integer within 2³¹ ms of it; an
   * empty one when no row has a time).
   */
  readonly times: Float64Array | Int32Array | Uint16Array | Uint8Array
  readonly timeBase: number
  /** Events only (empty for a batch of chunks): line, turn, step. */
  readonly lines: NumberColumn
  readonly turns: NumberColumn
  readonly steps: NumberColumn
  /** Per row: 0 = the chunk travels whole in `objects`; else a CHUNK code. */
  readonly chunks: Uint8Array
  readonly indexes: NumberColumn
  /**
   * Into `strings`: the text, arguments delta or block type, in the narrowest array the batch's string count
   * allows (as `tools` with its pairs).
   */
  readonly texts: IndexColumn
  /**
   * Tool-call rows only: into `toolPairs`, whose entries 2p and 2p + 1 are the call's id and name in `strings`
   * (name −1: the delta has none). A block's deltas repeat one pair, so a batch holds a few.
   */
  readonly tools: IndexColumn
  readonly toolPairs: Int32Array
  readonly strings: readonly string[]
  /** Whole records (row code 0) and whole chunks (chunk code 0), in row order: at most one per row. */
  readonly objects: readonly unknown[]
}

export type NumberColumn = Float64Array | Int32Array | Uint16Array | Uint8Array

/** Rows per block of a blocked column (`seqBases`, …): 1 << BLOCK_SHIFT. */
export const BLOCK_SHIFT = 8
export const BLOCK = 1 << BLOCK_SHIFT
export const NULL_TIME = 0xffff
export type IndexColumn = Int32Array | Uint16Array | Uint8Array

export const ROW = {
  sourced: 1,
  event: 2,
  'text-chunks': 3,
  'reasoning-chunks': 4,
  'tool-call-chunks': 5,
} as const
const PACKED: readonly (PackedRowType | undefined)[] = [
  undefined,
  undefined,
  undefined,
  'text-chunks',
  'reasoning-chunks',
  'tool-call-chunks',
]
export const CHUNK = { text: 1, reasoning: 2, tool: 3, toolNoName: 4, start: 5 } as const

/** Strings up to this length are stored once per batch (tokens, ids and names repeat); longer ones as they come. */
export const INTERN_MAX = 64

/** The column arrays' buffers, for postMessage's transfer list. */
export function transferables(columns: Columns): ArrayBuffer[] {
  const { rows, seqs, times, lines, turns, steps, chunks, indexes, texts, tools, toolPairs } = columns
  const { seqBases, lineBases, indexBases, timeBases } = columns
  const arrays = [rows, seqs, times, lines, turns, steps, chunks, indexes, texts, tools, toolPairs]
  return [...arrays, seqBases, lineBases, indexBases, timeBases].map((array) => array.buffer as ArrayBuffer)
}

export function decodeEvents(columns: Columns): SessionEvent[] {
  const rows = new ColumnRows(columns)
  const out: SessionEvent[] = []
  for (let i = 0; i < columns.length; i++) out.push(rows.event(i))
  return out
}

export function decodeChunks(columns: Columns): SourcedChunk[] {
  const rows = new ColumnRows(columns)
  const out: SourcedChunk[] = []
  for (let i = 0; i < columns.length; i++) out.push(rows.sourced(i))
  return out
}

const CHUNK_TYPE: readonly string[] = [
  '',
  'text-delta',
  'reasoning-delta',
  'tool-call-delta',
  'tool-call-delta',
  'block-start',
]

/**
 * Reads one batch of columns by row, without decoding the rest: the page keeps the batches as they arrive and reads
 * them through this (chunkStore.ts). A record or chunk that travelled whole is found by binary search over the rows
 * that carry one (few: the columns take every record of the readers' shapes).
 */
export class ColumnRows {
  /** A batch of events (their whole records hold the chunk at `data.chunk`), not of sourced chunks. */
  private readonly events: boolean

  constructor(readonly columns: Columns) {
    this.events = columns.lines.length > 0
  }

  private found: Int32Array | null = null

  /**
   * The rows that carry an object, ascending: `objects[k]` belongs to row `objectRows[k]`. Found on the first read
   * of an object, not when the batch arrives: a loader holds every batch of a log, a view reads a few.
   */
  private get objectRows(): Int32Array {
    if (this.found !== null) return this.found
    const { rows, chunks, objects } = this.columns
    const found = new Int32Array(objects.length)
    let k = 0
    for (let i = 0; i < this.columns.length; i++) if (rows[i] === 0 || chunks[i] === 0) found[k++] = i
    return (this.found = found)
  }

  get length(): number {
    return this.columns.length
  }

  /** Whether the row is an `assistant/chunk` event (or a sourced chunk) held as numbers. */
  columnar(i: number): boolean {
    return this.columns.rows[i] !== 0
  }

  /** The object row `i` carries: the whole record (row code 0) or its whole chunk (chunk code 0). */
  object(i: number): unknown {
    const rows = this.objectRows
    let low = 0
    let high = rows.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (rows[mid]! < i) low = mid + 1
      else high = mid
    }
    return this.columns.objects[low]
  }

  seq(i: number): number {
    return this.columns.rows[i] === 0 ? (this.object(i) as { seq: number }).seq : this.columnSeq(i)
  }

  time(i: number): number | null {
    if (this.columns.rows[i] === 0) return (this.object(i) as { time: number | null }).time
    return this.columnTime(i)
  }

  private columnSeq(i: number): number {
    const { seqs, seqBases } = this.columns
    return seqBases.length === 0 ? seqs[i]! : seqBases[i >> BLOCK_SHIFT]! + seqs[i]!
  }

  private columnIndex(i: number): number {
    const { indexes, indexBases } = this.columns
    return indexBases.length === 0 ? indexes[i]! : indexBases[i >> BLOCK_SHIFT]! + indexes[i]!
  }

  private columnLine(i: number): number {
    const { lines, lineBases } = this.columns
    return lineBases.length === 0 ? lines[i]! : lineBases[i >> BLOCK_SHIFT]! + lines[i]!
  }

  private columnTime(i: number): number | null {
    const { times, timeBase, timeBases } = this.columns
    if (timeBases.length > 0) {
      const offset = times[i]!
      return offset === NULL_TIME ? null : timeBases[i >> BLOCK_SHIFT]! + offset
    }
    if (times instanceof Int32Array) {
      const value = times.length === 0 ? -1 : times[i]!
      return value === -1 ? null : timeBase + value
    }
    const value = times[i]!
    return Number.isNaN(value) ? null : value
  }

  /** The chunk's `type`, read from its code when it is held as numbers. */
  type(i: number): string {
    const code = this.columns.rows[i] === 0 ? 0 : this.columns.chunks[i]!
    return code === 0 ? this.chunk(i).type : CHUNK_TYPE[code]!
  }

  index(i: number): number | undefined {
    if (this.columns.rows[i] !== 0 && this.columns.chunks[i] !== 0) return this.columnIndex(i)
    const index = (this.chunk(i) as { index?: unknown }).index
    return typeof index === 'number' ? index : undefined
  }

  event(i: number): SessionEvent {
    const { rows, turns, steps } = this.columns
    const row = rows[i]!
    if (row === 0) return this.object(i) as SessionEvent
    const type = 'assistant/chunk'
    const seq = this.columnSeq(i)
    const time = this.columnTime(i)
    const data = { turn: turns[i]!, step: steps[i]!, chunk: this.chunk(i) }
    const line = this.columnLine(i)
    const packed = PACKED[row]
    // Literals in the readers' key order (sessionJsonl.ts builds members and plain events so).
    return packed === undefined ? { type, seq, time, data, line } : { type, seq, time, data, line, packed }
  }

  sourced(i: number): SourcedChunk {
    if (this.columns.rows[i] === 0) return this.object(i) as SourcedChunk
    return { seq: this.columnSeq(i), time: this.columnTime(i), chunk: this.chunk(i) }
  }

  /**
   * The summed length of the strings of a chunk held as numbers (its text, block type, or id, name and arguments
   * delta), without building it; −1 when the chunk is held as an object. What the browser limits count
   * (app/workers/budget.ts) for a million chunks in a few milliseconds.
   */
  stringsLength(i: number): number {
    const { rows, chunks, texts, tools, toolPairs, strings } = this.columns
    const code = rows[i] === 0 ? 0 : chunks[i]!
    if (code === 0) return -1
    const text = strings[texts[i]!]!.length
    if (code !== CHUNK.tool && code !== CHUNK.toolNoName) return text
    const id = strings[toolPairs[2 * tools[i]!]!]!.length
    return code === CHUNK.tool ? text + id + strings[toolPairs[2 * tools[i]! + 1]!]!.length : text + id
  }

  /**
   * The row's chunk: built from its numbers, else the object it travelled as (for a whole event, the `data.chunk`
   * of the event; only events carrying one are a stream's chunks).
   */
  chunk(i: number): AnyChunk {
    const { rows, chunks, texts, tools, toolPairs, strings } = this.columns
    if (rows[i] === 0) {
      const record = this.object(i)
      return this.events
        ? (record as { data: { chunk: AnyChunk } }).data.chunk
        : (record as SourcedChunk).chunk
    }
    const code = chunks[i]
    if (code === 0) return this.object(i) as AnyChunk
    const index = this.columnIndex(i)
    const text = strings[texts[i]!]!
    switch (code) {
      case CHUNK.text:
        return { type: 'text-delta', index, text }
      case CHUNK.reasoning:
        return { type: 'reasoning-delta', index, text }
      case CHUNK.start:
        return { type: 'block-start', index, blockType: text }
      case CHUNK.tool:
        return {
          type: 'tool-call-delta',
          index,
          id: strings[toolPairs[2 * tools[i]!]!]!,
          name: strings[toolPairs[2 * tools[i]! + 1]!]!,
          argumentsDelta: text,
        }
      default:
        return {
          type: 'tool-call-delta',
          index,
          id: strings[toolPairs[2 * tools[i]!]!]!,
          argumentsDelta: text,
        }
    }
  }
}
