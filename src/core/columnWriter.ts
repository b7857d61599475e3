import type { AnyChunk, SourcedChunk } from './protocol'
import type { PackedRowType, SessionEvent } from './session'
import {
  BLOCK,
  BLOCK_SHIFT,
  CHUNK,
  INTERN_MAX,
  NULL_TIME,
  ROW,
  type Columns,
  type IndexColumn,
  type NumberColumn,
} from './columns'

/**
 * Writing column batches (columns.ts): from the records the object readers build ({@link encodeEvents},
 * {@link encodeChunks}: what the loading worker sends of a source read as objects), or row by row while a reader
 * parses ({@link ColumnWriter}, formats/columnSource.ts). Both narrow each batch's columns the same way.
 */

/** Encodes session events (an `assistant/chunk` of the readers' shape becomes one row of numbers). */
export function encodeEvents(events: readonly SessionEvent[]): Columns {
  const encoder = new Encoder(events.length, true)
  for (const event of events) encoder.event(event)
  return encoder.finish()
}

/** Encodes a stream's chunks. */
export function encodeChunks(chunks: readonly SourcedChunk[]): Columns {
  const encoder = new Encoder(chunks.length, false)
  for (const sourced of chunks) encoder.sourced(sourced)
  return encoder.finish()
}

/** Whether an object's own keys are exactly `keys`, in that order. */
function hasKeys(value: object, keys: readonly string[]): boolean {
  let at = 0
  for (const key in value) {
    if (key !== keys[at]) return false
    at += 1
  }
  return at === keys.length
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const EVENT_KEYS = ['type', 'seq', 'time', 'data', 'line']
const PACKED_EVENT_KEYS = [...EVENT_KEYS, 'packed']
const DATA_KEYS = ['turn', 'step', 'chunk']
const SOURCED_KEYS = ['seq', 'time', 'chunk']
const TEXT_KEYS = ['type', 'index', 'text']
const TOOL_KEYS = ['type', 'index', 'id', 'name', 'argumentsDelta']
const TOOL_NO_NAME_KEYS = ['type', 'index', 'id', 'argumentsDelta']
const START_KEYS = ['type', 'index', 'blockType']

type Writable = { -readonly [K in keyof Columns]: Columns[K] }

/** What a checked packed row (docs/protocol.md §7, formats/packedRow.ts) is made of: member k's seq is seq0 + k. */
export type PackedRun = {
  readonly seq0: number
  readonly time0: number
  readonly dt: readonly number[]
  readonly turn: unknown
  readonly step: unknown
  readonly index: unknown
  /** The texts, or for tool calls the argument deltas: one member each. */
  readonly payload: readonly string[]
  readonly isToolCall: boolean
  readonly hasName: boolean
  readonly id: unknown
  readonly name: unknown
}

/** Rows per batch: the worker posts each batch in its own message (transfer.ts), the page keeps them as they are. */
export const COLUMN_BATCH = 50_000

/**
 * Writes rows into column batches of `batch` rows while a reader parses (formats/columnSource.ts): each chunk goes
 * straight into the typed arrays, so a loaded source never holds one object per event and per chunk. The rows are
 * the ones {@link encodeEvents} and {@link encodeChunks} make of the records the object readers build, value for
 * value.
 */
export class ColumnWriter {
  readonly batches: Columns[] = []
  /** The events that travel whole (every one but the rows of numbers), in order: what `wholeEvents` finds. */
  readonly whole: SessionEvent[] = []
  /** Rows written so far. */
  length = 0
  private encoder: Encoder

  constructor(
    private readonly events: boolean,
    private readonly batch = COLUMN_BATCH,
    /** Told of each batch once it is full, while the rest is read (the loading worker posts it at once). */
    private readonly onBatch?: (columns: Columns) => void,
  ) {
    this.encoder = this.next()
  }

  private seal(): void {
    const columns = this.encoder.finish()
    this.batches.push(columns)
    this.onBatch?.(columns)
    this.encoder = this.next()
  }

  private next(): Encoder {
    const encoder = new Encoder(this.batch, this.events)
    if (this.events) encoder.whole = this.whole
    return encoder
  }

  private room(): Encoder {
    if (this.encoder.full) this.seal()
    this.length += 1
    return this.encoder
  }

  /** A session event, as {@link encodeEvents} takes it. */
  event(event: SessionEvent): void {
    this.room().event(event)
  }

  /**
   * A packed row's member (docs/protocol.md §7) by its fields: the row of the event
   * `{ type: 'assistant/chunk', seq, time, data: { turn, step, chunk }, line, packed }`, which is built only when it
   * must travel whole (a turn or step that is no number).
   */
  member(
    seq: number,
    time: number,
    line: number,
    packed: PackedRowType,
    turn: unknown,
    step: unknown,
    chunk: AnyChunk,
  ): void {
    this.room().member(seq, time, line, packed, turn, step, chunk)
  }

  /**
   * Every member of a packed row (docs/protocol.md §7) at once: the rows {@link member} would write for each, the
   * chunks built (`chunkOf`) only for members that must travel whole (an index that is no number).
   */
  members(run: PackedRun, line: number, packed: PackedRowType, chunkOf: (k: number) => AnyChunk): void {
    const count = run.payload.length
    let time = run.time0
    for (let from = 0; from < count;) {
      if (this.encoder.full) this.seal()
      const to = Math.min(count, from + this.batch - this.encoder.count)
      // `time` is member from − 1's when the row goes on in a new batch: member k's is member k − 1's + dt[k − 1].
      const start = from === 0 ? time : time + run.dt[from - 1]!
      time = this.encoder.members(run, from, to, start, line, packed, chunkOf)
      this.length += to - from
      from = to
    }
  }

  /** A stream's chunk `{ seq, time, chunk }` by its fields. */
  sourced(seq: number, time: number | null, chunk: AnyChunk): void {
    this.room().sourcedFields(seq, time, chunk)
  }

  /** The batches, the last one cut to its rows. The writer is done after this. */
  finish(): Columns[] {
    if (this.encoder.count > 0) this.batches.push(this.encoder.finish())
    return this.batches
  }
}

class Encoder {
  private readonly columns: Writable
  private readonly strings: string[] = []
  private readonly objects: unknown[] = []
  private readonly interned = new Map<string, number>()

  constructor(length: number, events: boolean) {
    const eventsOnly = events ? length : 0
    this.columns = {
      length,
      rows: new Uint8Array(length),
      seqs: new Float64Array(length),
      times: new Float64Array(length),
      timeBase: 0,
      seqBases: new Float64Array(0),
      lineBases: new Float64Array(0),
      indexBases: new Float64Array(0),
      timeBases: new Float64Array(0),
      lines: new Float64Array(eventsOnly),
      turns: new Float64Array(eventsOnly),
      steps: new Float64Array(eventsOnly),
      chunks: new Uint8Array(length),
      indexes: new Float64Array(length),
      texts: new Int32Array(length),
      tools: new Int32Array(length),
      toolPairs: new Int32Array(0),
      strings: this.strings,
      objects: this.objects,
    }
  }

  /** With a list, every event that travels whole is also appended to it (a writer's `whole`). */
  whole: SessionEvent[] | null = null

  private keepWhole(event: SessionEvent): SessionEvent {
    this.whole?.push(event)
    return event
  }

  get full(): boolean {
    return this.at === this.columns.length
  }

  get count(): number {
    return this.at
  }

  /** Cuts every per-row array to the rows written (a writer's last batch is short). */
  private trim(): void {
    const { columns, at } = this
    if (at === columns.length) return
    columns.length = at
    // Each array keeps its type (slice copies the rows into an array of the same kind).
    const arrays = columns as unknown as Record<string, Float64Array>
    const perRow = ['rows', 'seqs', 'times', 'chunks', 'indexes', 'texts', 'tools']
    for (const key of columns.lines.length > 0 ? [...perRow, 'lines', 'turns', 'steps'] : perRow)
      arrays[key] = arrays[key]!.slice(0, at)
  }

  /** The columns, each narrowed to the fewest bytes a value the whole batch allows (the values stay exact). */
  finish(): Columns {
    this.trim()
    const { columns } = this
    for (const key of ['turns', 'steps'] as const) columns[key] = narrow(columns[key] as Float64Array)
    const { rows, chunks } = columns
    // A row's block index is unused when the row or its chunk travelled whole.
    const indexed = new Uint8Array(rows.length)
    for (let i = 0; i < rows.length; i++) if (rows[i] !== 0 && chunks[i] !== 0) indexed[i] = 1
    for (const [key, bases, used] of [
      ['seqs', 'seqBases', rows],
      ['lines', 'lineBases', rows],
      ['indexes', 'indexBases', indexed],
    ] as const) {
      const values = columns[key] as Float64Array
      // Blocking scans every value: when it succeeds its range gives the plain width without another scan.
      const offsets = blocked(values, used, 0xffff, false)
      const width = offsets === null ? integerWidth(values) : widthOf(offsets.low, offsets.high)
      if (offsets === null || offsets.values.BYTES_PER_ELEMENT >= width)
        columns[key] = narrowTo(values, width)
      else [columns[key], columns[bases]] = [offsets.values, offsets.bases]
    }
    const values = columns.times as Float64Array
    // No time at all stays an empty array; else offsets per block when they fit 2 bytes (clocks tick in ms).
    const blockedTimes = hasTime(values, rows) ? blocked(values, rows, NULL_TIME - 1, true) : null
    if (blockedTimes !== null) {
      columns.times = blockedTimes.values
      columns.timeBases = blockedTimes.bases
    } else {
      const times = narrowTimes(values, rows)
      columns.times = times.values
      columns.timeBase = times.base
    }
    columns.texts = narrowIndexes(columns.texts as Int32Array, this.strings.length)
    columns.toolPairs = new Int32Array(this.toolPairs)
    columns.tools = narrowIndexes(columns.tools as Int32Array, this.pairs.size)
    return columns
  }

  private at = 0

  event(event: SessionEvent): void {
    const i = this.at++
    const data = event.data
    const packed = event.packed
    const columnar =
      event.type === 'assistant/chunk' &&
      typeof event.seq === 'number' &&
      (typeof event.time === 'number' || event.time === null) &&
      typeof event.line === 'number' &&
      hasKeys(event, packed === undefined ? EVENT_KEYS : PACKED_EVENT_KEYS) &&
      (packed === undefined || ROW[packed] !== undefined) &&
      isObject(data) &&
      hasKeys(data, DATA_KEYS) &&
      typeof data['turn'] === 'number' &&
      typeof data['step'] === 'number'
    if (!columnar) return void this.objects.push(this.keepWhole(event))
    const { rows, seqs, times, lines, turns, steps } = this.columns
    rows[i] = packed === undefined ? ROW.event : ROW[packed]
    seqs[i] = event.seq
    times[i] = event.time ?? NaN
    lines[i] = event.line
    turns[i] = data['turn'] as number
    steps[i] = data['step'] as number
    this.chunk(i, data['chunk'])
  }

  member(
    seq: number,
    time: number,
    line: number,
    packed: PackedRowType,
    turn: unknown,
    step: unknown,
    chunk: AnyChunk,
  ): void {
    const i = this.at++
    if (typeof turn !== 'number' || typeof step !== 'number') {
      // The event formats/packedRow.ts decodes the member to, keys in its order.
      this.objects.push(
        this.keepWhole({ type: 'assistant/chunk', seq, time, data: { turn, step, chunk }, line, packed }),
      )
      return
    }
    const { rows, seqs, times, lines, turns, steps } = this.columns
    rows[i] = ROW[packed]
    seqs[i] = seq
    times[i] = time
    lines[i] = line
    turns[i] = turn
    steps[i] = step
    this.chunk(i, chunk)
  }

  /** Members [from, to) of a packed row, the first at `time`: the time of the last. */
  members(
    run: PackedRun,
    from: number,
    to: number,
    time: number,
    line: number,
    packed: PackedRowType,
    chunkOf: (k: number) => AnyChunk,
  ): number {
    const { seq0, dt, turn, step, index, payload, isToolCall } = run
    const { rows, seqs, times, lines, turns, steps, chunks, indexes, texts, tools } = this.columns
    const row = ROW[packed]
    const code = isToolCall
      ? run.hasName
        ? CHUNK.tool
        : CHUNK.toolNoName
      : packed === 'text-chunks'
        ? CHUNK.text
        : CHUNK.reasoning
    const columnar = typeof turn === 'number' && typeof step === 'number'
    const indexed = typeof index === 'number'
    let pair = -1
    for (let k = from; k < to; k++) {
      if (k > from) time += dt[k - 1]!
      const i = this.at++
      if (!columnar) {
        const chunk = chunkOf(k)
        const event = {
          type: 'assistant/chunk',
          seq: seq0 + k,
          time,
          data: { turn, step, chunk },
          line,
          packed,
        }
        this.objects.push(this.keepWhole(event))
        continue
      }
      rows[i] = row
      seqs[i] = seq0 + k
      times[i] = time
      lines[i] = line
      turns[i] = turn
      steps[i] = step
      if (!indexed) {
        this.objects.push(chunkOf(k))
        continue
      }
      chunks[i] = code
      indexes[i] = index
      texts[i] = this.string(payload[k]!)
      if (isToolCall) {
        // One (id, name) for the whole row, as `chunk` would find for each member.
        if (pair === -1)
          pair = this.pair(this.string(run.id as string), run.hasName ? this.string(run.name as string) : -1)
        tools[i] = pair
      }
    }
    return time
  }

  sourcedFields(seq: number, time: number | null, chunk: AnyChunk): void {
    const i = this.at++
    this.columns.rows[i] = ROW.sourced
    this.columns.seqs[i] = seq
    this.columns.times[i] = time ?? NaN
    this.chunk(i, chunk)
  }

  sourced(sourced: SourcedChunk): void {
    const i = this.at++
    const columnar =
      typeof sourced.seq === 'number' &&
      (typeof sourced.time === 'number' || sourced.time === null) &&
      hasKeys(sourced, SOURCED_KEYS)
    if (!columnar) return void this.objects.push(sourced)
    this.columns.rows[i] = ROW.sourced
    this.columns.seqs[i] = sourced.seq
    this.columns.times[i] = sourced.time ?? NaN
    this.chunk(i, sourced.chunk)
  }

  private chunk(i: number, chunk: unknown): void {
    const code = isObject(chunk) && typeof chunk['index'] === 'number' ? chunkCode(chunk) : 0
    this.columns.chunks[i] = code
    if (code === 0) return void this.objects.push(chunk)
    const { indexes, texts, tools } = this.columns
    const c = chunk as Record<string, string> & { index: number }
    indexes[i] = c.index
    if (code === CHUNK.text || code === CHUNK.reasoning) texts[i] = this.string(c['text']!)
    else if (code === CHUNK.start) texts[i] = this.string(c['blockType']!)
    else {
      texts[i] = this.string(c['argumentsDelta']!)
      tools[i] = this.pair(this.string(c['id']!), code === CHUNK.tool ? this.string(c['name']!) : -1)
    }
  }

  private readonly toolPairs: number[] = []
  private readonly pairs = new Map<number, number>()

  /** The index of the (id, name) pair, stored once per batch. */
  private pair(id: number, name: number): number {
    const key = id * 0x100000000 + (name + 1)
    let at = this.pairs.get(key)
    if (at === undefined) {
      at = this.pairs.size
      this.pairs.set(key, at)
      this.toolPairs.push(id, name)
    }
    return at
  }

  private string(value: string): number {
    if (value.length > INTERN_MAX) return this.strings.push(value) - 1
    let at = this.interned.get(value)
    if (at === undefined) this.interned.set(value, (at = this.strings.push(value) - 1))
    return at
  }
}

/** The CHUNK code of a chunk of one of the shapes the readers build, with fields of the right types; else 0. */
function chunkCode(chunk: Record<string, unknown>): number {
  // Each field read by its own name (no closure, no computed key): this runs once per chunk of a file.
  switch (chunk['type']) {
    case 'text-delta':
      return typeof chunk['text'] === 'string' && hasKeys(chunk, TEXT_KEYS) ? CHUNK.text : 0
    case 'reasoning-delta':
      return typeof chunk['text'] === 'string' && hasKeys(chunk, TEXT_KEYS) ? CHUNK.reasoning : 0
    case 'block-start':
      return typeof chunk['blockType'] === 'string' && hasKeys(chunk, START_KEYS) ? CHUNK.start : 0
    case 'tool-call-delta':
      if (typeof chunk['id'] !== 'string' || typeof chunk['argumentsDelta'] !== 'string') return 0
      if (typeof chunk['name'] === 'string' && hasKeys(chunk, TOOL_KEYS)) return CHUNK.tool
      return hasKeys(chunk, TOOL_NO_NAME_KEYS) ? CHUNK.toolNoName : 0
    default:
      return 0
  }
}

/** `Object.is(value, -0)`, cheap enough for a loop over every row (typed-array copies of −0 give 0, not −0). */
function isNegativeZero(value: number): boolean {
  return value === 0 && 1 / value < 0
}

/** Indexes into a table of `size` entries in the narrowest array that holds them. */
function narrowIndexes(indexes: Int32Array, size: number): IndexColumn {
  if (size <= 0x100) return new Uint8Array(indexes)
  if (size <= 0x10000) return new Uint16Array(indexes)
  return indexes
}

/** The narrowest integer array that holds every value exactly (none may be fractional or −0), else `values`. */
function narrow(values: Float64Array): NumberColumn {
  return narrowTo(values, integerWidth(values))
}

/** The bytes a value of the narrowest integer array holding every value exactly takes; 8 when none does. */
function integerWidth(values: Float64Array): 1 | 2 | 4 | 8 {
  let low = 0
  let high = 0
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!
    if ((value | 0) !== value || isNegativeZero(value)) return 8
    if (value < low) low = value
    if (value > high) high = value
  }
  return widthOf(low, high)
}

/** The bytes of the narrowest integer array holding integers from `low` to `high` (0 among them). */
function widthOf(low: number, high: number): 1 | 2 | 4 | 8 {
  if (low >= 0 && high <= 0xff) return 1
  if (low >= 0 && high <= 0xffff) return 2
  return low >= -0x80000000 && high <= 0x7fffffff ? 4 : 8
}

function narrowTo(values: Float64Array, width: 1 | 2 | 4 | 8): NumberColumn {
  if (width === 1) return new Uint8Array(values)
  if (width === 2) return new Uint16Array(values)
  return width === 4 ? new Int32Array(values) : values
}

/**
 * Integers as offsets from a base per {@link BLOCK} rows, each at most `limit` (1 byte when all fit one), or null
 * when some value is not a safe integer (or is −0) or some block spans more. Rows where `used` is 0 are skipped (a
 * record or chunk that travelled whole leaves its slot unused); with `nullable`, a NaN (a null time) becomes NULL_TIME, else it cannot be blocked.
 */
function blocked(
  values: Float64Array,
  used: Uint8Array,
  limit: number,
  nullable: boolean,
): { values: Uint8Array | Uint16Array; bases: Float64Array; low: number; high: number } | null {
  const bases = new Float64Array(Math.ceil(values.length / BLOCK))
  let widest = 0
  // The range of every value, unused rows (0) included: what integerWidth would find.
  let lowest = 0
  let highest = 0
  let nulls = false
  // First the bases and the widest span, then the offsets, straight into the array they fit.
  for (let block = 0; block < bases.length; block++) {
    const from = block * BLOCK
    const to = Math.min(values.length, from + BLOCK)
    let low = Infinity
    let high = -Infinity
    for (let i = from; i < to; i++) {
      const value = values[i]!
      if (used[i] === 0) continue
      if (Number.isNaN(value)) {
        if (nullable) {
          nulls = true
          continue
        }
        return null
      }
      if (!Number.isSafeInteger(value) || isNegativeZero(value)) return null
      if (value < low) low = value
      if (value > high) high = value
    }
    if (low === Infinity) low = high = 0
    if (high - low > limit) return null
    bases[block] = low
    widest = Math.max(widest, high - low)
    if (low < lowest) lowest = low
    if (high > highest) highest = high
  }
  const offsets = widest <= 0xff && !nulls ? new Uint8Array(values.length) : new Uint16Array(values.length)
  for (let i = 0; i < values.length; i++) {
    if (used[i] === 0) continue
    const value = values[i]!
    offsets[i] = Number.isNaN(value) ? NULL_TIME : value - bases[i >> BLOCK_SHIFT]!
  }
  return { values: offsets, bases, low: lowest, high: highest }
}

/** Whether some row held as numbers has a time (a record that travelled whole keeps its own). */
function hasTime(values: Float64Array, rows: Uint8Array): boolean {
  for (let i = 0; i < values.length; i++) if (rows[i] !== 0 && !Number.isNaN(values[i]!)) return true
  return false
}

/** Times as offsets from the earliest, −1 for null, when all are integers within 2³¹ − 2 ms of it (real clocks). */
function narrowTimes(
  values: Float64Array,
  rows: Uint8Array,
): { values: Float64Array | Int32Array; base: number } {
  let base = Infinity
  let high = -Infinity
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!
    // A record that travelled whole keeps its own time; its slot here is unused.
    if (Number.isNaN(value) || rows[i] === 0) continue
    if (!Number.isInteger(value) || isNegativeZero(value)) return { values, base: 0 }
    if (value < base) base = value
    if (value > high) high = value
  }
  // No time at all (a bare chunk file): an empty array says so.
  if (base === Infinity) return { values: new Int32Array(0), base: 0 }
  if (high - base > 0x7ffffffe || !Number.isSafeInteger(base) || !Number.isSafeInteger(high))
    return { values, base: 0 }
  const offsets = new Int32Array(values.length)
  for (let i = 0; i < values.length; i++)
    offsets[i] = Number.isNaN(values[i]!) || rows[i] === 0 ? -1 : values[i]! - base
  return { values: offsets, base }
}
