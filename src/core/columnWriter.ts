import type { AnyChunk, SourcedChunk } from './protocol'
import type { PackedRowType, SessionEvent } from './session'
import { CHUNK, INTERN_MAX, NULL_TIME, ROW, type Columns } from './columns'
import {
  BlockRanges,
  integerWidth,
  isNegativeZero,
  NarrowColumn,
  narrowIndexes,
  narrowTimes,
  narrowTo,
  widthOf,
} from './columnNarrow'

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
    /**
     * Told of each batch once it is full, while the rest is read (the loading worker posts it at once), and of the
     * last one by {@link finish} when others came before it: the page replays it while the worker checks the
     * source against the browser limits, instead of after (app/open/earlyReplay.ts). A source of one batch has
     * nothing to overlap: it goes with the rest, transferred.
     */
    private readonly onBatch?: (columns: Columns) => void,
  ) {
    this.encoder = this.next()
  }

  private seal(): void {
    const done = this.encoder
    const columns = done.finish()
    this.batches.push(columns)
    this.onBatch?.(columns)
    this.encoder = this.next(done)
  }

  /** The next batch's encoder, on the arrays the last one's columns did not keep (fresh arrays cost page faults). */
  private next(done?: Encoder): Encoder {
    const encoder = new Encoder(this.batch, this.events, done?.spare())
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

  /**
   * {@link sourced} of a value that is a chunk the columns hold as numbers (one of the shapes the readers build,
   * every field of its type, so no reader would report it): `code` is its {@link heldChunkCode}, not 0.
   */
  sourcedHeld(seq: number, time: number | null, value: unknown, code: number): void {
    this.room().sourcedFields(seq, time, value as AnyChunk, code)
  }

  /** The batches, the last one cut to its rows. The writer is done after this. */
  finish(): Columns[] {
    if (this.encoder.count > 0) {
      const columns = this.encoder.finish()
      this.batches.push(columns)
      if (this.batches.length > 1) this.onBatch?.(columns)
    }
    return this.batches
  }
}

class Encoder {
  private readonly columns: Writable
  private readonly strings: string[] = []
  private readonly objects: unknown[] = []
  private readonly interned = new Map<string, number>()
  /**
   * The ranges of the blocked columns' used values, noted as rows are written, so
   * {@link finish} need not scan the columns for them (columnNarrow.ts).
   */
  private readonly seqRanges: BlockRanges
  private readonly lineRanges: BlockRanges
  private readonly indexRanges: BlockRanges
  private readonly timeRanges: BlockRanges
  /** Turns and steps, written narrow (columnNarrow.ts). */
  private readonly turns: NarrowColumn
  private readonly steps: NarrowColumn

  /** The arrays rows are written to before {@link finish} narrows them: another batch may reuse those it drops. */
  private readonly scratch: Scratch

  constructor(length: number, events: boolean, spare: Partial<Scratch> = {}) {
    const eventsOnly = events ? length : 0
    // A reused array is not zeroed (a batch's worth of memset each): every row writes each slot it leaves unused
    // back to 0 instead ({@link clearRow}), so an unused slot reads 0, as in a fresh array.
    const float = (array: Float64Array | undefined, size: number) =>
      array?.length === size ? array : new Float64Array(size)
    const int = (array: Int32Array | undefined) => (array?.length === length ? array : new Int32Array(length))
    const offsets = (array: Uint16Array | undefined, size: number) =>
      array?.length === size ? array : new Uint16Array(size)
    this.scratch = {
      seqs: float(spare.seqs, length),
      times: float(spare.times, length),
      lines: float(spare.lines, eventsOnly),
      indexes: float(spare.indexes, length),
      texts: int(spare.texts),
      tools: int(spare.tools),
      timeOffsets: offsets(spare.timeOffsets, length),
      lineOffsets: offsets(spare.lineOffsets, eventsOnly),
      indexOffsets: offsets(spare.indexOffsets, length),
    }
    this.turns = new NarrowColumn(eventsOnly)
    this.steps = new NarrowColumn(eventsOnly)
    const { timeOffsets, lineOffsets, indexOffsets, ...perRow } = this.scratch
    this.columns = {
      ...perRow,
      turns: this.turns.values,
      steps: this.steps.values,
      length,
      rows: new Uint8Array(length),
      timeBase: 0,
      seqBases: new Float64Array(0),
      lineBases: new Float64Array(0),
      indexBases: new Float64Array(0),
      timeBases: new Float64Array(0),
      chunks: new Uint8Array(length),
      toolPairs: new Int32Array(0),
      strings: this.strings,
      objects: this.objects,
    }
    // Seqs mostly climb by one, blocks whose offsets finishing copies whole: they are not written as they come.
    this.seqRanges = new BlockRanges(length)
    this.lineRanges = new BlockRanges(eventsOnly, lineOffsets)
    this.indexRanges = new BlockRanges(length, indexOffsets)
    this.timeRanges = new BlockRanges(length, timeOffsets)
  }

  /** With a list, every event that travels whole is also appended to it (a writer's `whole`). */
  whole: SessionEvent[] | null = null

  private keepWhole(event: SessionEvent): SessionEvent {
    this.whole?.push(event)
    return event
  }

  /** Rows [from, to) travel whole: their slots read 0 (a reused scratch array may hold an earlier batch's). */
  private clearRow(from: number, to = from + 1): void {
    const { seqs, times, lines, timeOffsets, lineOffsets } = this.scratch
    seqs.fill(0, from, to)
    times.fill(0, from, to)
    timeOffsets.fill(0, from, to)
    // (Turns and steps are fresh arrays each batch: their unwritten rows read 0.)
    lines.fill(0, from, to)
    lineOffsets.fill(0, from, to)
    this.clearChunk(from, to)
  }

  /** The chunks of rows [from, to) travel whole: their slots read 0. */
  private clearChunk(from: number, to = from + 1): void {
    const { indexes, texts, tools, indexOffsets } = this.scratch
    indexes.fill(0, from, to)
    indexOffsets.fill(0, from, to)
    texts.fill(0, from, to)
    tools.fill(0, from, to)
  }

  /** After {@link finish}: the scratch arrays its columns did not keep. */
  spare(): Partial<Scratch> {
    const spare: Partial<Record<keyof Scratch, unknown>> = {}
    const kept = new Set<unknown>(Object.values(this.columns))
    for (const key of SCRATCH_KEYS) if (!kept.has(this.scratch[key])) spare[key] = this.scratch[key]
    return spare as Partial<Scratch>
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
    for (const key of columns.lines.length > 0 ? [...perRow, 'lines'] : perRow)
      arrays[key] = arrays[key]!.slice(0, at)
    if (this.turns.values.length > 0) {
      this.turns.cut(at)
      this.steps.cut(at)
    }
  }

  /** The columns, each narrowed to the fewest bytes a value the whole batch allows (the values stay exact). */
  finish(): Columns {
    this.trim()
    const { columns } = this
    columns.turns = this.turns.values
    columns.steps = this.steps.values
    const { rows, chunks } = columns
    // A row's block index is unused when the row or its chunk travelled whole.
    for (const [key, bases, ranges, perChunk] of [
      ['seqs', 'seqBases', this.seqRanges, false],
      ['lines', 'lineBases', this.lineRanges, false],
      ['indexes', 'indexBases', this.indexRanges, true],
    ] as const) {
      const values = columns[key] as Float64Array
      // Null also when some value is no safe integer or is −0: those stay plain (integerWidth scans for the width).
      const offsets = ranges.blocked(values, rows, perChunk ? chunks : null, 0xffff, false)
      const width = offsets === null ? integerWidth(values) : widthOf(offsets.low, offsets.high)
      if (offsets === null || offsets.values.BYTES_PER_ELEMENT >= width)
        columns[key] = narrowTo(values, width)
      else [columns[key], columns[bases]] = [offsets.values, offsets.bases]
    }
    const values = columns.times as Float64Array
    // No time at all stays an empty array; else offsets per block when they fit 2 bytes (clocks tick in ms).
    const blockedTimes = this.timeRanges.some
      ? this.timeRanges.blocked(values, rows, null, NULL_TIME - 1, true)
      : null
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
    if (!columnar) {
      this.clearRow(i)
      return void this.objects.push(this.keepWhole(event))
    }
    this.row(
      i,
      packed === undefined ? ROW.event : ROW[packed],
      event.seq,
      event.time ?? NaN,
      event.line,
      data['turn'] as number,
      data['step'] as number,
    )
    this.chunk(i, data['chunk'])
  }

  /** The numbers of an event row held as columns. */
  private row(
    i: number,
    row: number,
    seq: number,
    time: number,
    line: number,
    turn: number,
    step: number,
  ): void {
    const { rows, seqs, times, lines } = this.columns
    rows[i] = row
    seqs[i] = seq
    times[i] = time
    lines[i] = line
    this.turns.set(i, turn)
    this.steps.set(i, step)
    this.seqRanges.note(i, seq)
    this.timeRanges.note(i, time)
    this.lineRanges.note(i, line)
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
      this.clearRow(i)
      // The event formats/packedRow.ts decodes the member to, keys in its order.
      this.objects.push(
        this.keepWhole({ type: 'assistant/chunk', seq, time, data: { turn, step, chunk }, line, packed }),
      )
      return
    }
    this.row(i, ROW[packed], seq, time, line, turn, step)
    this.chunk(i, chunk)
  }

  /**
   * Members [from, to) of a packed row, the first at `time`: the time of the last. The numbers every member
   * shares are filled in per run, and their ranges noted once.
   */
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
    if (typeof turn !== 'number' || typeof step !== 'number') {
      this.clearRow(this.at, this.at + (to - from))
      for (let k = from; k < to; k++) {
        if (k > from) time += dt[k - 1]!
        this.at += 1
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
      }
      return time
    }
    const { rows, seqs, times, lines, chunks, indexes, texts, tools } = this.columns
    const start = this.at
    const end = start + (to - from)
    this.at = end
    rows.fill(ROW[packed], start, end)
    lines.fill(line, start, end)
    this.turns.fill(turn, start, end)
    this.steps.fill(step, start, end)
    this.lineRanges.noteRun(start, end, line, 0)
    this.seqRanges.noteRun(start, end, seq0 + from, 1)
    const timeRanges = this.timeRanges
    if (typeof index !== 'number') {
      this.clearChunk(start, end)
      for (let k = from, i = start; k < to; k++, i++) {
        if (k > from) time += dt[k - 1]!
        seqs[i] = seq0 + k
        times[i] = time
        timeRanges.note(i, time)
        this.objects.push(chunkOf(k))
      }
      return time
    }
    chunks.fill(
      isToolCall
        ? run.hasName
          ? CHUNK.tool
          : CHUNK.toolNoName
        : packed === 'text-chunks'
          ? CHUNK.text
          : CHUNK.reasoning,
      start,
      end,
    )
    indexes.fill(index, start, end)
    if (!isToolCall) tools.fill(0, start, end)
    this.indexRanges.noteRun(start, end, index, 0)
    texts[start] = this.string(payload[from]!)
    // One (id, name) for the whole row, as `chunk` would find for each member, interned after the first member's
    // text as `chunk` interns them (the string table's order stays the object path's).
    if (isToolCall)
      tools.fill(
        this.pair(this.string(run.id as string), run.hasName ? this.string(run.name as string) : -1),
        start,
        end,
      )
    for (let k = from + 1, i = start + 1; k < to; k++, i++) texts[i] = this.string(payload[k]!)
    // The numbers in a loop of their own that makes no call, summed in a fresh local made a number with `+`: summed
    // into the parameter, whose kind V8 cannot know, in the loop that interns the texts, the running time was boxed
    // anew for each member (a heap number each, ~90 MB of garbage a load of the bench's session log; bench/README.md,
    // the session load).
    let now = +time
    seqs[start] = seq0 + from
    times[start] = now
    for (let k = from + 1, i = start + 1; k < to; k++, i++) {
      now += dt[k - 1]!
      seqs[i] = seq0 + k
      times[i] = now
    }
    // A checked row's times are safe integers (§7), none −0 unless the first is.
    if (isNegativeZero(times[start]!)) for (let i = start; i < end; i++) timeRanges.note(i, times[i]!)
    else timeRanges.noteSafe(times as Float64Array, start, end)
    return now
  }

  /** `code`: the chunk's CHUNK code, when the caller has it already. */
  sourcedFields(seq: number, time: number | null, chunk: AnyChunk, code?: number): void {
    const i = this.at++
    this.sourcedRow(i, seq, time ?? NaN)
    this.chunk(i, chunk, code)
  }

  sourced(sourced: SourcedChunk): void {
    const i = this.at++
    const columnar =
      typeof sourced.seq === 'number' &&
      (typeof sourced.time === 'number' || sourced.time === null) &&
      hasKeys(sourced, SOURCED_KEYS)
    if (!columnar) {
      this.clearRow(i)
      return void this.objects.push(sourced)
    }
    this.sourcedRow(i, sourced.seq, sourced.time ?? NaN)
    this.chunk(i, sourced.chunk)
  }

  private sourcedRow(i: number, seq: number, time: number): void {
    this.columns.rows[i] = ROW.sourced
    this.columns.seqs[i] = seq
    this.columns.times[i] = time
    this.seqRanges.note(i, seq)
    this.timeRanges.note(i, time)
  }

  private chunk(i: number, chunk: unknown, code = heldChunkCode(chunk)): void {
    this.columns.chunks[i] = code
    if (code === 0) {
      this.clearChunk(i)
      return void this.objects.push(chunk)
    }
    const { indexes, texts, tools } = this.columns
    const c = chunk as Record<string, string> & { index: number }
    indexes[i] = c.index
    this.indexRanges.note(i, c.index)
    if (code === CHUNK.text || code === CHUNK.reasoning || code === CHUNK.start) {
      texts[i] = this.string(code === CHUNK.start ? c['blockType']! : c['text']!)
      tools[i] = 0
    } else {
      texts[i] = this.string(c['argumentsDelta']!)
      tools[i] = this.pair(this.string(c['id']!), code === CHUNK.tool ? this.string(c['name']!) : -1)
    }
  }

  private readonly toolPairs: number[] = []
  private readonly pairs = new Map<number, number>()
  /** The last pair asked for: a tool call's deltas repeat one (id, name). */
  private lastPair = { id: -1, name: -1, at: -1 }

  /** The index of the (id, name) pair, stored once per batch. */
  private pair(id: number, name: number): number {
    const last = this.lastPair
    if (last.id === id && last.name === name) return last.at
    const key = id * 0x100000000 + (name + 1)
    let at = this.pairs.get(key)
    if (at === undefined) {
      at = this.pairs.size
      this.pairs.set(key, at)
      this.toolPairs.push(id, name)
    }
    last.id = id
    last.name = name
    last.at = at
    return at
  }

  /**
   * The most recent string of each of {@link RECENT} slots (picked by length and two characters), in front of
   * `interned`: the tokens of a stream repeat, and a slot compare costs less than a map lookup.
   */
  private readonly recent: (string | null)[] = Array.from({ length: RECENT }, () => null)
  private readonly recentAt = new Int32Array(RECENT)

  private string(value: string): number {
    const length = value.length
    if (length > INTERN_MAX) return this.strings.push(value) - 1
    const slot = (length * 31 + value.charCodeAt(0) * 7 + value.charCodeAt(length - 1)) & (RECENT - 1)
    if (this.recent[slot] === value) return this.recentAt[slot]!
    let at = this.interned.get(value)
    if (at === undefined) this.interned.set(value, (at = this.strings.push(value) - 1))
    this.recent[slot] = value
    this.recentAt[slot] = at
    return at
  }
}

type Scratch = {
  seqs: Float64Array
  times: Float64Array
  lines: Float64Array
  indexes: Float64Array
  texts: Int32Array
  tools: Int32Array
  /** The direct offsets of times, lines and indexes (columnNarrow.ts, `BlockRanges`). */
  timeOffsets: Uint16Array
  lineOffsets: Uint16Array
  indexOffsets: Uint16Array
}
const SCRATCH_KEYS = [
  'seqs',
  'times',
  'lines',
  'indexes',
  'texts',
  'tools',
  'timeOffsets',
  'lineOffsets',
  'indexOffsets',
] as const

/** Slots of an encoder's cache of recent strings (a power of two). */
const RECENT = 256

/**
 * The CHUNK code of a value the columns hold as numbers (see {@link ColumnWriter.sourcedHeld}), else 0. Not 0 only
 * for an object whose every field is a string or a number: formats/flatRuns.ts relies on that.
 */
export function heldChunkCode(value: unknown): number {
  return isObject(value) && typeof value['index'] === 'number' ? chunkCode(value) : 0
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
