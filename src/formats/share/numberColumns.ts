import { Malformed } from './bytes'
import { Bits, IntModel, type RangeDecoder, type RangeEncoder, sizeClass } from './rangeCoder'

// The number columns of a v2 link's chunks (docs/protocol.md §14): per chunk its op, index, text length, seq and
// time, each under its own adaptive model. v3 links code the same numbers under primed models
// (numberColumnsV3.ts).

export const WHOLE = 0
export const TEXT = 1
export const REASONING = 2
/** A tool-call delta with the id and name (or no name) of the previous tool-call delta at its index. */
export const TOOL_SAME = 3
/** A tool-call delta with a new id and name: both join the names list. */
export const TOOL_NEW = 4
/** A tool-call delta with a new id and no `name` key. */
export const TOOL_NEW_UNNAMED = 5
export const START = 6 // + 0 text, 1 reasoning, 2 tool-call
export const START_TYPES = ['text', 'reasoning', 'tool-call'] as const
/** A block-end whose block is exactly what the deltas at its index built since its block-start. */
export const END_BUILT = 9

/**
 * v5: a block-end whose block is what its deltas built, but with the arguments parsed and written again as JSON
 * (`JSON.stringify(JSON.parse(arguments))`, docs/protocol.md §9: an adapter that re-serialises them).
 */
export const END_REJSON = 10

export type Row = { readonly op: number; readonly index: number; readonly length: number }
export type Numbers = Row & { readonly seq: number; readonly time: number }

export const OPS = END_BUILT + 1
/** v5 links know one more op. */
export const OPS_V5 = END_REJSON + 1
/** A delta's length is coded place by place up to here, beyond as a number. */
export const STOP_AT = 8
export const CLASSES = 6

/** Outside the text, space, newline, ASCII letter or digit, other ASCII, anything else (CJK, emoji…). */
export function charClass(code: number): number {
  if (Number.isNaN(code)) return 0
  if (code === 32) return 1
  if (code === 10) return 2
  if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return 3
  return code < 128 ? 4 : 5
}
export const hasIndex = (op: number) => op !== WHOLE
export const hasText = (op: number) => op >= TEXT && op <= TOOL_NEW_UNNAMED
/** Text and reasoning deltas share a length model; tool-call arguments have their own. */
export const lengthKind = (op: number) => (op <= REASONING ? 0 : 1)

/**
 * One chunk's numbers, each under its own model: the op after the previous op, the index after the previous
 * index, a length by its kind (text or arguments), seq after the previous seq's size, time alone. Few contexts on
 * purpose: a link holds hundreds of chunks, and every context has to learn its odds from nothing (on the corpus,
 * finer contexts cost 8% more than these). The same on both sides, so they learn alike.
 */
export class NumberColumns implements NumberCoder {
  private readonly ops = new IntModel(OPS)
  private readonly indexes = new IntModel(4)
  private readonly lengths = new IntModel(2)
  private readonly seqs = new IntModel(4)
  private readonly times = new IntModel(1)
  private last = { op: 0, index: 0, seq: 0, time: 0 }

  private readonly stops = new Bits(2 * STOP_AT * CLASSES * CLASSES)
  /** Where the next delta's text begins in the text column. */
  private at = 0

  constructor(private readonly text: string) {}

  code(coder: RangeEncoder, op: number, index: number, length: number, seq: number, time: number): void {
    this.ops.encode(coder, op, this.last.op)
    if (hasIndex(op)) this.indexes.encode(coder, index, this.indexContext())
    if (hasText(op)) this.codeLength(coder, op, length)
    this.seqs.encode(coder, seq, sizeClass(this.last.seq, 3))
    this.times.encode(coder, time)
    this.remember(op, index, length, seq, time)
  }

  decode(coder: RangeDecoder): Numbers {
    const op = this.ops.decode(coder, this.last.op)
    if (op >= OPS) throw new Malformed(`its op ${op} is unknown`)
    const index = hasIndex(op) ? this.indexes.decode(coder, this.indexContext()) : 0
    const length = hasText(op) ? this.decodeLength(coder, op) : 0
    const seq = this.seqs.decode(coder, sizeClass(this.last.seq, 3))
    const time = this.times.decode(coder)
    this.remember(op, index, length, seq, time)
    return { op, index, length, seq, time }
  }

  /**
   * A length as "does the delta stop here?" at each of its first STOP_AT characters, under the classes of the
   * characters on both sides of that place (a token tends to end before a space or a punctuation mark), then the
   * rest of a longer one as a number.
   */
  private codeLength(coder: RangeEncoder, op: number, length: number): void {
    const kind = lengthKind(op)
    for (let i = 0; i < STOP_AT; i++) {
      const stop = i === length ? 1 : 0
      coder.bit(this.stops, this.stopContext(kind, i), stop)
      if (stop === 1) break
    }
    if (length >= STOP_AT) this.lengths.encode(coder, length - STOP_AT, kind)
    this.at += length
  }

  private decodeLength(coder: RangeDecoder, op: number): number {
    const kind = lengthKind(op)
    let length = -1
    for (let i = 0; i < STOP_AT && length < 0; i++)
      if (coder.bit(this.stops, this.stopContext(kind, i))) length = i
    if (length < 0) length = STOP_AT + this.lengths.decode(coder, kind)
    this.at += length
    return length
  }

  private stopContext(kind: number, i: number): number {
    const place = this.at + i
    const before = charClass(this.text.charCodeAt(place - 1))
    const after = charClass(this.text.charCodeAt(place))
    return ((kind * STOP_AT + Math.min(i, 4)) * CLASSES + before) * CLASSES + after
  }

  private indexContext(): number {
    return Math.min(this.last.index, 3)
  }

  private remember(op: number, index: number, length: number, seq: number, time: number): void {
    const last = this.last
    if (hasIndex(op)) last.index = index
    last.op = op
    last.seq = seq
    last.time = time
  }
}

/** A model of the chunk numbers, the same on both sides of a link. */
export interface NumberCoder {
  code(coder: RangeEncoder, op: number, index: number, length: number, seq: number, time: number): void
  decode(coder: RangeDecoder): Numbers
}
