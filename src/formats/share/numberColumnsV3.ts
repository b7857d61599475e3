import { Malformed } from './bytes'
import { decodeInt, encodeInt, MixedBits } from './mixedBits'
import {
  charClass,
  END_BUILT,
  hasIndex,
  hasText,
  lengthKind,
  OPS,
  OPS_V5,
  REASONING,
  START,
  STOP_AT,
  TEXT,
  TOOL_NEW,
  TOOL_SAME,
  WHOLE,
  type NumberCoder,
  type Numbers,
} from './numberColumns'
import { PRIMER_PROSE, PRIMER_ARGUMENTS } from './primer'
import { RangeEncoder, type RangeDecoder } from './rangeCoder'

// The chunk numbers of a v3 link (docs/protocol.md §14): the same numbers as v2 (op, index, length, seq, time
// per chunk), each binary decision under several contexts mixed (mixedBits.ts), and the models primed with a
// built-in stream (the primer's prose and arguments as token-sized deltas, with bursty times) so that a link of
// a few dozen chunks does not pay to learn what every stream looks like.
//
// Contexts, all from what both sides already know:
// - op: the previous op; the two previous ops; the previous op and the previous delta's length;
// - index, as its difference from the previous index: the op; the op and the previous op; the op and the
//   previous index;
// - length, as "does the delta stop here?" at each of its first STOP_AT places: the classes of the characters on
//   both sides (v2's context); the two characters themselves; the two before and the one after; the place and
//   the previous delta's length; a longer one's rest as a number by its kind;
// - seq (its difference, zigzag): the previous seq code's size; the op;
// - time (its difference, zigzag + 1; 0 unknown): the previous time's class and the op's kind; the two previous
//   times' classes; the op and whether it carries text.

const OP = 0
const INDEX = 1
const LONG = 2
const SEQ = 3
const TIME = 4
const STOP = 5
/** v5: the size of a negative seq or time difference, coded apart from the others. */
const NEGATIVE = 6
const INPUTS = 4
/** The counts priming leaves: the link's own numbers outweigh the primer after a few of each. */
const PRIMED_COUNT = 3

/** The number models after the priming stream (by the ops they know), made once per page, cloned for each link. */
const primed = new Map<number, MixedBits>()

export class NumberColumnsV3 implements NumberCoder {
  private readonly contexts = new Int32Array(INPUTS)
  private readonly v5: boolean
  private last = { op: 0, op2: 0, index: 0, length: 0, seq: 0, time: 0, time2: 0 }
  /** v5: chunks since the last gap between packets (a time over a few ms), and that gap. */
  private since = 0
  private gap = 0
  /** Where the next delta's text begins in the text column. */
  private at = 0
  /** A known time was coded (measuring only: the first one is the clock reading). */
  private clocked = false

  /**
   * Columns for a link's `text`, under the primed model (`bits`: only to prime it); `ops`: how many ops the link's
   * version knows (v5 more than v3 and v4).
   */
  constructor(
    private readonly text: string,
    private readonly ops = OPS,
    private readonly bits: MixedBits = primedBits(ops).clone(),
  ) {
    this.v5 = ops === OPS_V5
  }

  code(coder: RangeEncoder, op: number, index: number, length: number, seq: number, time: number): void {
    coder.section('numbers: op')
    encodeInt(coder, this.bits, op, this.opContexts(), OP)
    coder.section('numbers: index')
    if (hasIndex(op))
      encodeInt(coder, this.bits, zigzag(index - this.last.index), this.indexContexts(op), INDEX)
    coder.section('numbers: length')
    if (hasText(op)) this.codeLength(coder, op, length)
    coder.section('numbers: seq')
    this.codeSigned(coder, seq, false, this.seqContexts(op), SEQ)
    coder.section(this.clocked || time === 0 ? 'numbers: time' : 'numbers: first clock')
    if (time > 0) this.clocked = true
    this.codeSigned(coder, time, true, this.timeContexts(op, length), TIME)
    this.remember(op, index, length, seq, time)
  }

  decode(coder: RangeDecoder): Numbers {
    const op = decodeInt(coder, this.bits, this.opContexts(), OP)
    if (op >= this.ops) throw new Malformed(`its op ${op} is unknown`)
    const index = hasIndex(op)
      ? this.last.index + unzigzag(decodeInt(coder, this.bits, this.indexContexts(op), INDEX))
      : 0
    if (index < 0 || !Number.isSafeInteger(index)) throw new Malformed('a chunk index is out of range')
    const length = hasText(op) ? this.decodeLength(coder, op) : 0
    const seq = this.decodeSigned(coder, false, this.seqContexts(op), SEQ)
    const time = this.decodeSigned(coder, true, this.timeContexts(op, length), TIME)
    this.remember(op, index, length, seq, time)
    return { op, index, length, seq, time }
  }

  /**
   * A seq or time code (zigzag; a time's + 1, 0 unknown). v3 and v4 code it as it is; v5 codes a difference of 0
   * or more as itself (+ 1 for a time, after the unknown), and a negative one as the code below those followed by
   * its size: zigzag spends a bit on the sign of every difference, and seqs and times almost never go back.
   */
  private codeSigned(
    coder: RangeEncoder,
    code: number,
    unknown: boolean,
    contexts: Int32Array,
    field: number,
  ): void {
    if (!this.v5) return encodeInt(coder, this.bits, code, contexts, field)
    const lowest = unknown ? 1 : 0
    if (unknown && code === 0) return encodeInt(coder, this.bits, 0, contexts, field)
    const difference = unzigzag(code - lowest)
    if (difference >= 0) return encodeInt(coder, this.bits, difference + lowest + 1, contexts, field)
    encodeInt(coder, this.bits, lowest, contexts, field)
    encodeInt(coder, this.bits, -difference - 1, this.fill(field, field, field, field), NEGATIVE)
  }

  private decodeSigned(coder: RangeDecoder, unknown: boolean, contexts: Int32Array, field: number): number {
    const value = decodeInt(coder, this.bits, contexts, field)
    if (!this.v5) return value
    const lowest = unknown ? 1 : 0
    if (unknown && value === 0) return 0
    const difference =
      value > lowest
        ? value - lowest - 1
        : -decodeInt(coder, this.bits, this.fill(field, field, field, field), NEGATIVE) - 1
    const code = zigzag(difference) + lowest
    if (!Number.isSafeInteger(code)) throw new Malformed('a number is out of range')
    return code
  }

  private codeLength(coder: RangeEncoder, op: number, length: number): void {
    const kind = lengthKind(op)
    for (let i = 0; i < STOP_AT; i++) {
      const stop = i === length ? 1 : 0
      this.bits.encode(coder, this.stopContexts(kind, i), (STOP << 12) | (kind << 4) | i, 10 + kind, stop)
      if (stop === 1) break
    }
    if (length >= STOP_AT) encodeInt(coder, this.bits, length - STOP_AT, this.kindContexts(kind), LONG)
    this.at += length
  }

  private decodeLength(coder: RangeDecoder, op: number): number {
    const kind = lengthKind(op)
    let length = -1
    for (let i = 0; i < STOP_AT && length < 0; i++) {
      const node = (STOP << 12) | (kind << 4) | i
      if (this.bits.decode(coder, this.stopContexts(kind, i), node, 10 + kind)) length = i
    }
    if (length < 0) length = STOP_AT + decodeInt(coder, this.bits, this.kindContexts(kind), LONG)
    this.at += length
    return length
  }

  private fill(a: number, b: number, c: number, d: number): Int32Array {
    const contexts = this.contexts
    contexts[0] = a
    contexts[1] = b | (1 << 28)
    contexts[2] = c | (2 << 28)
    contexts[3] = d | (3 << 28)
    return contexts
  }

  private opContexts(): Int32Array {
    const { op, op2, length } = this.last
    return this.fill(op, op * 16 + op2, op * 16 + Math.min(length, 15), 0)
  }

  private indexContexts(op: number): Int32Array {
    const { op: last, index } = this.last
    return this.fill(op, op * 16 + last, op * 16 + Math.min(index, 15), 0)
  }

  private stopContexts(kind: number, i: number): Int32Array {
    const place = this.at + i
    const text = this.text
    const before = text.charCodeAt(place - 1) | 0
    const before2 = text.charCodeAt(place - 2) | 0
    const after = text.charCodeAt(place) | 0
    const classes = charClass(text.charCodeAt(place - 1)) * 8 + charClass(text.charCodeAt(place))
    const at = kind * 8 + Math.min(i, 4)
    return this.fill(
      at * 64 + classes,
      Math.imul(before, 0x10001) ^ Math.imul(after, 0x3b9ac9ff) ^ (at << 24),
      Math.imul(before2, 0x2545f491) ^ Math.imul(before, 0x10001) ^ Math.imul(after, 0x3b9ac9ff) ^ (at << 24),
      at * 16 + Math.min(this.last.length, 15),
    )
  }

  private kindContexts(kind: number): Int32Array {
    return this.fill(kind, kind, kind, kind)
  }

  private seqContexts(op: number): Int32Array {
    const seq = Math.min(this.last.seq, 7)
    return this.fill(seq, op, seq * 16 + op, 0)
  }

  private timeContexts(op: number, length: number): Int32Array {
    const { time, time2 } = this.last
    const kind = op === WHOLE ? 0 : op >= START && op < END_BUILT ? 1 : op >= END_BUILT ? 2 : 3
    return this.fill(
      timeClass(time) * 4 + kind,
      timeClass(time) * 8 + timeClass(time2),
      op * 2 + (length > 0 ? 1 : 0),
      this.v5 ? (Math.min(this.since, 7) * 8 + timeClass(this.gap)) * 4 + kind : timeClass(time) * 16 + op,
    )
  }

  private remember(op: number, index: number, length: number, seq: number, time: number): void {
    const last = this.last
    if (hasIndex(op)) last.index = index
    last.op2 = last.op
    last.op = op
    if (hasText(op)) last.length = length
    last.seq = seq
    last.time2 = last.time
    last.time = time
    if (timeClass(time) >= 3) {
      this.since = 0
      this.gap = time
    } else this.since++
  }
}

/** A time code's class: unknown, 0 ms, 1 ms, a few, a usual gap between packets, long. */
function timeClass(code: number): number {
  if (code === 0) return 0
  if (code <= 2) return 1
  if (code <= 4) return 2
  if (code <= 16) return 3
  if (code <= 200) return 4
  return 5
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1)
const unzigzag = (code: number) => (code % 2 === 0 ? code / 2 : -(code + 1) / 2)

type PrimerRow = Numbers
const FIRST_TIME = 2 * 1_780_000_000_000 + 1

/** The model primed for a version's ops (v5's codes seqs and times its own way, so it learns them so). */
function primedBits(ops: number): MixedBits {
  const made = primed.get(ops)
  if (made !== undefined) return made
  const bits = new MixedBits(INPUTS, 16, 18)
  const primer = primerRows()
  const columns = new NumberColumnsV3(primer.text, ops, bits)
  const scratch = new RangeEncoder()
  for (const row of primer.rows) columns.code(scratch, row.op, row.index, row.length, row.seq, row.time)
  bits.soften(PRIMED_COUNT)
  primed.set(ops, bits)
  return bits
}

/**
 * The priming stream, made once: a reasoning block of the primer's prose as token-sized deltas, a text block,
 * a tool call of the primer's arguments, usage and finish; seqs +1 after a first jump, a clock reading, then
 * times in bursts (a gap of 12–41 ms, then 1 ms, then 0s) from a fixed pseudo-random sequence.
 */
function primerRows(): { text: string; rows: PrimerRow[] } {
  const rows: PrimerRow[] = []
  let seed = 12345
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000
  const times = () => {
    const r = random()
    const ms = r < 0.55 ? 0 : r < 0.7 ? 1 : 12 + Math.floor(random() * 30)
    return ms * 2 + 1
  }
  // A stream's first time is a clock reading (ms since 1970, zigzag + 1), every later one a difference.
  const push = (op: number, index: number, length: number) =>
    rows.push({
      op,
      index,
      length,
      seq: rows.length === 0 ? 80 : 2,
      time: rows.length === 0 ? FIRST_TIME : times(),
    })
  const tokens = (text: string) => text.match(TOKEN) ?? []
  const half = Math.floor(PRIMER_PROSE.length / 2)
  const blocks: [number, string][] = [
    [REASONING, PRIMER_PROSE.slice(0, half)],
    [TEXT, PRIMER_PROSE.slice(half)],
    [TOOL_SAME, PRIMER_ARGUMENTS],
  ]
  let text = ''
  blocks.forEach(([op, body], index) => {
    push(START + (op === TEXT ? 0 : op === REASONING ? 1 : 2), index, 0)
    tokens(body).forEach((token, i) => {
      push(op === TOOL_SAME && i === 0 ? TOOL_NEW : op, index, token.length)
      text += token
    })
    push(END_BUILT, index, 0)
  })
  push(WHOLE, 0, 0)
  push(WHOLE, 0, 0)
  return { text, rows }
}

/** Roughly how a model's tokenizer cuts text: a word with its leading space, a run of digits, one or two CJK. */
const TOKEN = /\s?[A-Za-z']+|\d{1,3}|[\u3000-\u9fff\uff00-\uffef]{1,2}|\s+|[^\sA-Za-z\d]/gu
