import { Malformed } from './bytes'
import { Bits, IntModel, type RangeDecoder, type RangeEncoder } from './rangeCoder'

// The tool-call ids of a v5 link (docs/protocol.md §14). Providers make them a fixed prefix and random letters and
// digits (`call_00_d0sAHpJ9mYOJi0z7KNy30441`, `toolu_01A09q90qw90lq917835lq9`): the byte model, taught on prose,
// spends about 8 bits on each random character, which carries under 6. So an id that looks random (a letter of
// each case and a digit after its prefix) is coded here after the chunk numbers: the units it shares with the
// previous id (the first with `call_00_`), the rest's length, then per unit its class (digit, capital, small
// letter, other: adaptive, by its distance from the end and the previous class) and, within the class, the unit
// at even odds (another unit as a number). Any other id (`call_read_a`, `cordis-inspect-self`) stays with the
// names, where the byte model reads words well. One bit per new id says which.

const FIRST_PREVIOUS = 'call_00_'
/** Longer ids stay with the names. */
const MAX_ID = 256
const DIGIT = 0
const CAPITAL = 1
const SMALL = 2
const OTHER = 3
/** Class contexts: distance from the end (0…5) × previous class (4, or the start). */
const CLASS_CONTEXTS = 6 * 5
const RANDOM_LOOKING = /[A-Z]/
const HAS_SMALL = /[a-z]/
const HAS_DIGIT = /[0-9]/

const classOf = (unit: number) =>
  unit >= 48 && unit <= 57
    ? DIGIT
    : unit >= 65 && unit <= 90
      ? CAPITAL
      : unit >= 97 && unit <= 122
        ? SMALL
        : OTHER
const CLASS_BASE = [48, 65, 97] as const
const CLASS_SIZE = [10, 26, 26] as const

/**
 * Whether an id looks random: after what it shares with the previous one coded here, a capital, a small letter
 * and a digit.
 */
export function looksRandom(id: string, previous: string): boolean {
  if (id.length > MAX_ID) return false
  const rest = id.slice(shared(id, previous))
  return RANDOM_LOOKING.test(rest) && HAS_SMALL.test(rest) && HAS_DIGIT.test(rest)
}

function shared(a: string, b: string): number {
  let n = 0
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++
  return n
}

/**
 * The encoder's choice, id by id: apart when it looks random and `elsewhere` (the rest of the payload) does not
 * hold it — a block-end, a carried state or a recorded message that repeats it costs the byte model next to
 * nothing.
 */
export function keepsApart(elsewhere: (id: string) => boolean): (id: string) => boolean {
  let previous = FIRST_PREVIOUS
  return (id) => {
    if (!looksRandom(id, previous) || elsewhere(id)) return false
    previous = id
    return true
  }
}

/** The models of one link's ids; the encoder and the decoder each keep one and code the same ids in order. */
export class IdColumn {
  private readonly flag = new Bits(2)
  private readonly numbers = new IntModel(3)
  private readonly classes = new Bits(CLASS_CONTEXTS * 4)
  private previous = FIRST_PREVIOUS
  private lastFlag = 0

  /** Codes whether `id` is coded here (`here`: chunkColumns.ts decided, see {@link keepsApart}), and if so the id. */
  encode(coder: RangeEncoder, id: string, here: boolean): void {
    coder.bit(this.flag, this.lastFlag, here ? 1 : 0)
    this.lastFlag = here ? 1 : 0
    if (!here) return
    const prefix = shared(id, this.previous)
    this.numbers.encode(coder, prefix, 0)
    this.numbers.encode(coder, id.length - prefix, 1)
    let last = 4
    for (let i = prefix; i < id.length; i++) {
      const unit = id.charCodeAt(i)
      const kind = classOf(unit)
      const at = (Math.min(id.length - 1 - i, 5) * 5 + last) * 4
      coder.bit(this.classes, at, kind === OTHER ? 1 : 0)
      if (kind === OTHER) this.numbers.encode(coder, unit, 2)
      else {
        coder.bit(this.classes, at + 1, kind === DIGIT ? 0 : 1)
        if (kind !== DIGIT) coder.bit(this.classes, at + 2, kind === CAPITAL ? 0 : 1)
        uniform(coder, unit - CLASS_BASE[kind], CLASS_SIZE[kind])
      }
      last = kind
    }
    this.previous = id
  }

  /** The next id if it was coded here, else null (it is the next one in the names). Throws Malformed. */
  decode(coder: RangeDecoder): string | null {
    this.lastFlag = coder.bit(this.flag, this.lastFlag)
    if (this.lastFlag === 0) return null
    const prefix = this.numbers.decode(coder, 0)
    const length = this.numbers.decode(coder, 1)
    if (prefix > this.previous.length || prefix + length > MAX_ID)
      throw new Malformed('a tool-call id is out of range')
    const units: number[] = []
    let last = 4
    for (let i = 0; i < length; i++) {
      const at = (Math.min(length - 1 - i, 5) * 5 + last) * 4
      let unit: number
      let kind: number
      if (coder.bit(this.classes, at) === 1) {
        kind = OTHER
        unit = this.numbers.decode(coder, 2)
        if (unit > 0xffff) throw new Malformed('a tool-call id is out of range')
      } else {
        kind =
          coder.bit(this.classes, at + 1) === 0
            ? DIGIT
            : coder.bit(this.classes, at + 2) === 0
              ? CAPITAL
              : SMALL
        unit = CLASS_BASE[kind as 0 | 1 | 2] + uniformDecode(coder, CLASS_SIZE[kind as 0 | 1 | 2])
      }
      units.push(unit)
      last = kind
    }
    const id = this.previous.slice(0, prefix) + String.fromCharCode(...units)
    this.previous = id
    return id
  }
}

/** The new ids of `count` tool calls: each coded here, or null (the next in the names). Throws Malformed. */
export function decodeIds(coder: RangeDecoder, count: number): (string | null)[] {
  const column = new IdColumn()
  const ids: (string | null)[] = []
  for (let i = 0; i < count; i++) ids.push(column.decode(coder))
  return ids
}

/** `value` in [0, size) at even odds: halves of the range, each split at its share of the values. */
function uniform(coder: RangeEncoder, value: number, size: number): void {
  let from = 0
  let to = size
  while (to - from > 1) {
    const middle = (from + to) >> 1
    const upper = value >= middle ? 1 : 0
    coder.bitAt(odds(from, middle, to), upper)
    if (upper === 1) from = middle
    else to = middle
  }
}

function uniformDecode(coder: RangeDecoder, size: number): number {
  let from = 0
  let to = size
  while (to - from > 1) {
    const middle = (from + to) >> 1
    if (coder.bitAt(odds(from, middle, to)) === 1) from = middle
    else to = middle
  }
  return from
}

/** The odds of the upper part, in 4096ths. */
const odds = (from: number, middle: number, to: number) => Math.round((4096 * (to - middle)) / (to - from))
