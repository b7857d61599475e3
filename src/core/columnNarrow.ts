import { BLOCK, BLOCK_SHIFT, NULL_TIME, type IndexColumn, type NumberColumn } from './columns'

/**
 * Narrowing a batch's columns (columns.ts) to the fewest bytes its values allow, exactly: what the column writer
 * (columnWriter.ts) does when a batch is done. {@link BlockRanges} and {@link IntegerRange} are noted while the rows
 * are written, so finishing a batch of a long log reads them instead of scanning every column once more; the
 * scanning forms (`blocked`, `integerWidth`) stay for the columns whose values they cannot vouch for.
 */

/**
 * Per block of {@link BLOCK} rows, the lowest and highest value written to a column's used rows, and whether every
 * one of them is a safe integer other than −0 (what blocking takes): finishing the batch then knows each block's
 * base and span without a scan. A NaN (a null time) is counted apart. It also notes which blocks hold one value
 * throughout or climb by one from row to row (a packed row's line and index, a log's seqs: docs/protocol.md §7),
 * whose offsets are then all 0 or 0, 1, 2, … and need not be computed row by row.
 */
export class BlockRanges {
  private readonly low: Float64Array
  private readonly high: Float64Array
  /**
   * 1 for a block where some used row's value may be neither its previous row's + 1 nor its previous row's (a
   * constant run's): a block not marked whose span is its length − 1 has every row used, climbing by one.
   */
  private readonly unclimbing: Uint8Array
  /** The last row noted and its value, to see whether the next climbs from it (−2: none to climb from). */
  private lastRow = -2
  private lastValue = 0
  /** Every value noted is a safe integer other than −0, or NaN. */
  exact = true
  /** Some value noted was NaN. */
  nulls = false
  /** Some value noted was not NaN. */
  some = false

  /**
   * Per block, its first used value noted (NaN: none yet): with `direct`, each row's offset is written from it as
   * the row is noted. In a block where no later value falls below it, it is the block's base, and the offsets
   * are the ones {@link blocked} would compute once the batch is full.
   */
  private readonly firsts: Float64Array

  /**
   * `direct`: a 2-byte array of at least `rows` rows where each noted row's offset from its block's first value
   * goes as it is noted, so that finishing a batch need not write a block's offsets row by row (bench/README.md,
   * `formats`). Rows never noted must read 0 in it (the writer clears those of a reused array).
   */
  constructor(
    rows: number,
    private readonly direct: Uint16Array | null = null,
  ) {
    const blocks = Math.ceil(rows / BLOCK)
    this.low = new Float64Array(blocks).fill(Infinity)
    this.high = new Float64Array(blocks).fill(-Infinity)
    this.unclimbing = new Uint8Array(blocks)
    this.firsts = new Float64Array(direct === null ? 0 : blocks).fill(NaN)
  }

  /** Row `i` holds `value`. */
  note(i: number, value: number): void {
    this.climb(i, value)
    this.take(i, value)
    if (this.direct !== null) this.offset(i, value)
  }

  /**
   * Row `i`'s direct offset. One out of 2 bytes, or below its block's first value, is written all the same (it
   * wraps): then the block's base is not its first value, or no offsets are taken at all, and {@link blocked}
   * writes that block's offsets again.
   */
  private offset(i: number, value: number): void {
    const direct = this.direct!
    if (value !== value) {
      direct[i] = NULL_TIME
      return
    }
    const block = i >> BLOCK_SHIFT
    let first = this.firsts[block]!
    if (first !== first) this.firsts[block] = first = value
    direct[i] = value - first
  }

  /** The first value of `block`, noted as `value` unless one was noted before. */
  private firstOf(block: number, value: number): number {
    const first = this.firsts[block]!
    if (first === first) return first
    this.firsts[block] = value
    return value
  }

  /** The range part of {@link note}. */
  private take(i: number, value: number): void {
    if (value !== value) {
      this.nulls = true
      return
    }
    this.some = true
    if (!Number.isSafeInteger(value) || isNegativeZero(value)) {
      this.exact = false
      return
    }
    const block = i >> BLOCK_SHIFT
    if (value < this.low[block]!) this.low[block] = value
    if (value > this.high[block]!) this.high[block] = value
  }

  /** Marks row `i`'s block unless `value` climbs by one from the row before it (a block's first row climbs). */
  private climb(i: number, value: number): void {
    if ((i & (BLOCK - 1)) !== 0 && (i !== this.lastRow + 1 || value !== this.lastValue + 1))
      this.unclimbing[i >> BLOCK_SHIFT] = 1
    this.lastRow = i
    this.lastValue = value
  }

  /** Marks the blocks of rows `from` … `to` − 1 (their values climb in ways not noted row by row). */
  private unclimb(from: number, to: number): void {
    this.unclimbing.fill(1, from >> BLOCK_SHIFT, ((to - 1) >> BLOCK_SHIFT) + 1)
    this.lastRow = -2
  }

  /**
   * Rows `from` … `to` − 1 hold `values[from]` … `values[to − 1]`, each known to be a safe integer other than −0 (a
   * checked packed row's times, docs/protocol.md §7): one tight pass per block, no check per value.
   */
  noteSafe(values: Float64Array, from: number, to: number): void {
    if (from >= to) return
    this.some = true
    this.unclimb(from, to)
    const { low, high } = this
    for (let block = from >> BLOCK_SHIFT; block <= (to - 1) >> BLOCK_SHIFT; block++) {
      const end = Math.min(to, (block + 1) << BLOCK_SHIFT)
      let lowest = low[block]!
      let highest = high[block]!
      const start = Math.max(from, block << BLOCK_SHIFT)
      const direct = this.direct
      if (direct === null)
        for (let i = start; i < end; i++) {
          const value = values[i]!
          if (value < lowest) lowest = value
          if (value > highest) highest = value
        }
      else {
        const first = this.firstOf(block, values[start]!)
        for (let i = start; i < end; i++) {
          const value = values[i]!
          if (value < lowest) lowest = value
          if (value > highest) highest = value
          direct[i] = value - first
        }
      }
      low[block] = lowest
      high[block] = highest
    }
  }

  /**
   * Rows `from` … `to` − 1 hold `first` each (`step` 0: a packed row's line, filled) or `first`, `first` + 1, …
   * (`step` 1: its seqs).
   */
  noteRun(from: number, to: number, first: number, step: 0 | 1): void {
    if (from >= to) return
    const valueAt = (i: number) => (step === 0 ? first : first + (i - from))
    const last = valueAt(to - 1)
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || isNegativeZero(first)) {
      for (let i = from; i < to; i++) this.note(i, valueAt(i))
      return
    }
    // The rows after the first climb by one, or by 0 (a constant run), and need no mark: a block where some row
    // climbs by 0 from the one before spans less than its length − 1, so it is not taken as climbing.
    this.climb(from, first)
    this.lastRow = to - 1
    this.lastValue = last
    this.take(from, first)
    this.take(to - 1, last)
    // Each block's lowest and highest are its first and last row's values (the values climb or stay).
    for (let block = (from >> BLOCK_SHIFT) + 1; block <= (to - 1) >> BLOCK_SHIFT; block++) {
      const at = block << BLOCK_SHIFT
      this.take(at - 1, valueAt(at - 1))
      this.take(at, valueAt(at))
    }
    const direct = this.direct
    if (direct === null) return
    for (let block = from >> BLOCK_SHIFT; block <= (to - 1) >> BLOCK_SHIFT; block++) {
      const start = Math.max(from, block << BLOCK_SHIFT)
      const end = Math.min(to, (block + 1) << BLOCK_SHIFT)
      const offset = valueAt(start) - this.firstOf(block, valueAt(start))
      if (step === 0) direct.fill(offset, start, end)
      else for (let i = start; i < end; i++) direct[i] = offset + (i - start)
    }
  }

  /**
   * What {@link blocked} makes of `values` whose used rows are those noted (rows where `rows`, and `chunks` when
   * given, are not 0), without scanning them for their ranges: only the offsets are written, and not even those of
   * a block of one value (all 0, as the fresh array holds) or of one climbing by one (0, 1, 2, … copied).
   */
  blocked(
    values: Float64Array,
    rows: Uint8Array,
    chunks: Uint8Array | null,
    limit: number,
    nullable: boolean,
  ): BlockedColumn | null {
    if (!this.exact || (this.nulls && !nullable)) return null
    const range = this.range(values.length, limit)
    if (range === null) return null
    if (this.direct !== null) return this.blockedDirect(values, rows, chunks, range)
    const { bases, widest, lowest, highest } = range
    const kinds = new Uint8Array(bases.length)
    // (A NaN's offset is NULL_TIME: with nulls, no block is taken whole.)
    if (!this.nulls)
      for (let block = 0; block < bases.length; block++) {
        const low = bases[block]!
        const high = this.low[block] === Infinity ? 0 : this.high[block]!
        const rowsIn = Math.min(BLOCK, values.length - (block << BLOCK_SHIFT))
        kinds[block] =
          high === low ? ONE_VALUE : this.unclimbing[block] === 0 && high - low === rowsIn - 1 ? CLIMBING : 0
      }
    const offsets =
      widest <= 0xff && !this.nulls ? new Uint8Array(values.length) : new Uint16Array(values.length)
    writeOffsets(offsets, values, bases, rows, chunks, this.nulls, kinds)
    return { values: offsets, bases, low: lowest, high: highest }
  }

  /** Each block's base (its lowest value; 0 for a block of nulls only) and the column's range; null past `limit`. */
  private range(length: number, limit: number): BlockRange | null {
    const bases = new Float64Array(Math.ceil(length / BLOCK))
    let widest = 0
    let lowest = 0
    let highest = 0
    for (let block = 0; block < bases.length; block++) {
      let low = this.low[block]!
      let high = this.high[block]!
      if (low === Infinity) low = high = 0
      if (high - low > limit) return null
      bases[block] = low
      if (high - low > widest) widest = high - low
      if (low < lowest) lowest = low
      if (high > highest) highest = high
    }
    return { bases, widest, lowest, highest }
  }

  /**
   * {@link blocked} from the offsets written as the rows were noted: only a block whose base is not its first
   * value has its offsets written again (the values fell within it); 1-byte offsets are a copy of the 2-byte ones.
   */
  private blockedDirect(
    values: Float64Array,
    rows: Uint8Array,
    chunks: Uint8Array | null,
    { bases, widest, lowest, highest }: BlockRange,
  ): BlockedColumn {
    const direct = this.direct!.length === values.length ? this.direct! : this.direct!.slice(0, values.length)
    const used = chunks ?? rows
    for (let block = 0; block < bases.length; block++) {
      const low = bases[block]!
      // (A block of no value but nulls has no first: its offsets are NULL_TIME and 0 as written.)
      const first = this.firsts[block]!
      if (first === low || first !== first) continue
      const to = Math.min(values.length, (block + 1) << BLOCK_SHIFT)
      for (let i = block << BLOCK_SHIFT; i < to; i++) {
        if (used[i] === 0 || rows[i] === 0) continue
        const value = values[i]!
        direct[i] = value !== value ? NULL_TIME : value - low
      }
    }
    const offsets = widest <= 0xff && !this.nulls ? new Uint8Array(direct) : direct
    return { values: offsets, bases, low: lowest, high: highest }
  }
}

/** The blocks' bases and the column's range, from the noted ranges. */
type BlockRange = {
  readonly bases: Float64Array
  readonly widest: number
  readonly lowest: number
  readonly highest: number
}

/** A block's kind, for {@link writeOffsets}: every used row holds the base (offsets 0), or climbs by one from it. */
const ONE_VALUE = 1
const CLIMBING = 2
/** A climbing block's offsets. */
const CLIMB8 = Uint8Array.from({ length: BLOCK }, (_, i) => i)
const CLIMB16 = Uint16Array.from(CLIMB8)

/**
 * The offsets of the used rows from their block's base; NaN (a null time) as NULL_TIME; a block of one value left
 * at 0, a climbing one copied. One loop per array type
 * and per kind of used rows, so each stays monomorphic (this writes every row of a 100 MB log four times): one loop
 * for both array types loaded a session log at 2.20–2.41× JSON.parse in CPU time against 2.08–2.13× for these,
 * interleaved (bench/README.md, `formats`).
 */
function writeOffsets(
  offsets: Uint8Array | Uint16Array,
  values: Float64Array,
  bases: Float64Array,
  rows: Uint8Array,
  chunks: Uint8Array | null,
  nulls: boolean,
  kinds: Uint8Array,
): void {
  if (offsets instanceof Uint16Array) {
    if (nulls) writeNullableOffsets16(offsets, values, bases, chunks ?? rows, rows)
    else writeOffsets16(offsets, values, bases, chunks ?? rows, rows, kinds)
  } else writeOffsets8(offsets, values, bases, chunks ?? rows, rows, kinds)
}

function writeOffsets8(
  offsets: Uint8Array,
  values: Float64Array,
  bases: Float64Array,
  used: Uint8Array,
  rows: Uint8Array,
  kinds: Uint8Array,
): void {
  // Per block, its base read once; rows alone when they are what is used (seqs, lines).
  for (let block = 0, from = 0; from < values.length; block++, from += BLOCK) {
    const base = bases[block]!
    const to = Math.min(values.length, from + BLOCK)
    const kind = kinds[block]
    if (kind === ONE_VALUE) continue
    if (kind === CLIMBING) offsets.set(CLIMB8.subarray(0, to - from), from)
    else if (used === rows) {
      for (let i = from; i < to; i++) if (rows[i] !== 0) offsets[i] = values[i]! - base
    } else for (let i = from; i < to; i++) if (used[i] !== 0 && rows[i] !== 0) offsets[i] = values[i]! - base
  }
}

function writeOffsets16(
  offsets: Uint16Array,
  values: Float64Array,
  bases: Float64Array,
  used: Uint8Array,
  rows: Uint8Array,
  kinds: Uint8Array,
): void {
  for (let block = 0, from = 0; from < values.length; block++, from += BLOCK) {
    const base = bases[block]!
    const to = Math.min(values.length, from + BLOCK)
    const kind = kinds[block]
    if (kind === ONE_VALUE) continue
    if (kind === CLIMBING) offsets.set(CLIMB16.subarray(0, to - from), from)
    else if (used === rows) {
      for (let i = from; i < to; i++) if (rows[i] !== 0) offsets[i] = values[i]! - base
    } else for (let i = from; i < to; i++) if (used[i] !== 0 && rows[i] !== 0) offsets[i] = values[i]! - base
  }
}

function writeNullableOffsets16(
  offsets: Uint16Array,
  values: Float64Array,
  bases: Float64Array,
  used: Uint8Array,
  rows: Uint8Array,
): void {
  for (let block = 0, from = 0; from < values.length; block++, from += BLOCK) {
    const base = bases[block]!
    const to = Math.min(values.length, from + BLOCK)
    for (let i = from; i < to; i++) {
      if (used[i] === 0 || rows[i] === 0) continue
      const value = values[i]!
      offsets[i] = value !== value ? NULL_TIME : value - base
    }
  }
}

/**
 * The range of the values written to a column that is narrowed whole (turns, steps), unwritten rows' 0 included:
 * what {@link integerWidth} would find, kept while writing.
 */
export class IntegerRange {
  private low = 0
  private high = 0
  private wide = false

  note(value: number): void {
    if ((value | 0) !== value || isNegativeZero(value)) this.wide = true
    else if (value < this.low) this.low = value
    else if (value > this.high) this.high = value
  }

  width(): 1 | 2 | 4 | 8 {
    return this.wide ? 8 : widthOf(this.low, this.high)
  }
}

/**
 * A column narrowed whole (turns, steps) written at the narrowest width the values so far allow, each value noted
 * in an {@link IntegerRange} as it comes: when one does not fit, the rows so far are copied into the next width up.
 * `values` is then what {@link narrowTo} of the same rows written as doubles would give (unwritten rows 0), without
 * the batch's doubles written and copied again (a packed row, docs/protocol.md §7, fills hundreds of rows at once).
 */
export class NarrowColumn {
  values: NumberColumn
  private readonly range = new IntegerRange()
  private width: 1 | 2 | 4 | 8 = 1

  constructor(length: number) {
    this.values = new Uint8Array(length)
  }

  /** Row `i` holds `value`. */
  set(i: number, value: number): void {
    this.fit(value)
    this.values[i] = value
  }

  /** Rows `from` … `to` − 1 hold `value`. */
  fill(value: number, from: number, to: number): void {
    this.fit(value)
    this.values.fill(value, from, to)
  }

  /** The first `length` rows in an array of their own (a writer's last batch is short). */
  cut(length: number): void {
    this.values = this.values.slice(0, length)
  }

  private fit(value: number): void {
    this.range.note(value)
    const width = this.range.width()
    if (width === this.width) return
    // Widths only grow: the range takes in each value and never lets one go.
    const length = this.values.length
    const values =
      width === 2
        ? new Uint16Array(length)
        : width === 4
          ? new Int32Array(length)
          : width === 8
            ? new Float64Array(length)
            : new Uint8Array(length)
    values.set(this.values)
    this.values = values
    this.width = width
  }
}

export type BlockedColumn = {
  values: Uint8Array | Uint16Array
  bases: Float64Array
  low: number
  high: number
}

/** `Object.is(value, -0)`, cheap enough for a loop over every row (typed-array copies of −0 give 0, not −0). */
export function isNegativeZero(value: number): boolean {
  return value === 0 && 1 / value < 0
}

/** Indexes into a table of `size` entries in the narrowest array that holds them. */
export function narrowIndexes(indexes: Int32Array, size: number): IndexColumn {
  if (size <= 0x100) return new Uint8Array(indexes)
  if (size <= 0x10000) return new Uint16Array(indexes)
  return indexes
}

/** The narrowest integer array that holds every value exactly (none may be fractional or −0), else `values`. */
export function narrow(values: Float64Array): NumberColumn {
  return narrowTo(values, integerWidth(values))
}

/** The bytes a value of the narrowest integer array holding every value exactly takes; 8 when none does. */
export function integerWidth(values: Float64Array): 1 | 2 | 4 | 8 {
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
export function widthOf(low: number, high: number): 1 | 2 | 4 | 8 {
  if (low >= 0 && high <= 0xff) return 1
  if (low >= 0 && high <= 0xffff) return 2
  return low >= -0x80000000 && high <= 0x7fffffff ? 4 : 8
}

export function narrowTo(values: Float64Array, width: 1 | 2 | 4 | 8): NumberColumn {
  if (width === 1) return new Uint8Array(values)
  if (width === 2) return new Uint16Array(values)
  return width === 4 ? new Int32Array(values) : values
}

/**
 * Integers as offsets from a base per {@link BLOCK} rows, each at most `limit` (1 byte when all fit one), or null
 * when some value is not a safe integer (or is −0) or some block spans more. Rows where `used` is 0 are skipped (a
 * record or chunk that travelled whole leaves its slot unused); with `nullable`, a NaN (a null time) becomes NULL_TIME, else it cannot be blocked.
 */
export function blocked(
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
export function hasTime(values: Float64Array, rows: Uint8Array): boolean {
  for (let i = 0; i < values.length; i++) if (rows[i] !== 0 && !Number.isNaN(values[i]!)) return true
  return false
}

/** Times as offsets from the earliest, −1 for null, when all are integers within 2³¹ − 2 ms of it (real clocks). */
export function narrowTimes(
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
