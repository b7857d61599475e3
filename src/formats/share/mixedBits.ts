import { Malformed } from './bytes'
import type { RangeDecoder, RangeEncoder } from './rangeCoder'
import { squash, STRETCH } from './textModel'

// Binary decisions under several contexts at once, for the chunk numbers of v3 links (docs/protocol.md §14):
// each context keeps its own adaptive probability (a hashed table of counters), and a small logistic mixer
// learns how far to trust each, as the byte model does (textModel.ts). A context seen often and always right
// wins; one never seen says nothing. Integer tables and IEEE doubles with +, −, × only, so every engine agrees.

const COUNT_LIMIT = 30
const LEARNING_RATE = 0.007
const RATE = Uint32Array.from({ length: COUNT_LIMIT + 1 }, (_, n) => Math.floor(65536 / (n + 1.5)))

export class MixedBits {
  private probs: Uint16Array
  private counts: Uint8Array
  private weights: Float64Array
  private readonly slots: Int32Array
  private readonly inputs: Float64Array
  private base = 0
  private mixed = 2048

  /**
   * `n` contexts per decision; `sets` groups of decisions with their own mixing weights; a table of
   * 2^`tableBits` counters.
   */
  constructor(
    private readonly n: number,
    private readonly sets: number,
    private tableBits: number,
  ) {
    this.probs = new Uint16Array(1 << tableBits).fill(32768)
    this.counts = new Uint8Array(1 << tableBits)
    this.weights = new Float64Array(sets * (n + 1)).fill(0.35)
    this.slots = new Int32Array(n)
    this.inputs = new Float64Array(n + 1)
  }

  encode(coder: RangeEncoder, contexts: ArrayLike<number>, node: number, set: number, bit: number): void {
    coder.bitAt(this.predict(contexts, node, set), bit)
    this.learn(bit)
  }

  decode(coder: RangeDecoder, contexts: ArrayLike<number>, node: number, set: number): number {
    const bit = coder.bitAt(this.predict(contexts, node, set))
    this.learn(bit)
    return bit
  }

  /** A copy that learns on its own from here. */
  clone(): MixedBits {
    const copy = new MixedBits(this.n, this.sets, 0)
    copy.probs = this.probs.slice()
    copy.counts = this.counts.slice()
    copy.weights = this.weights.slice()
    copy.tableBits = this.tableBits
    return copy
  }

  /** Caps every counter's count, so what priming taught yields quickly to the link's own numbers. */
  soften(max: number): void {
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i]! > max) this.counts[i] = max
  }

  private predict(contexts: ArrayLike<number>, node: number, set: number): number {
    const { probs, inputs, weights } = this
    for (let i = 0; i < this.n; i++) {
      const h =
        Math.imul(contexts[i]! ^ Math.imul(node + 1, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(i, 0xc2b2ae35)
      const slot = Math.imul(h ^ (h >>> 13), 0x27d4eb2f) >>> (32 - this.tableBits)
      this.slots[i] = slot
      inputs[i] = STRETCH[probs[slot]! >> 4]! / 256
    }
    inputs[this.n] = 0.5
    this.base = (set % this.sets) * (this.n + 1)
    let dot = 0
    for (let i = 0; i <= this.n; i++) dot += weights[this.base + i]! * inputs[i]!
    this.mixed = squash(Math.max(-2047, Math.min(2047, Math.round(dot * 256))))
    return Math.max(1, Math.min(4095, this.mixed))
  }

  private learn(bit: number): void {
    const { probs, counts, inputs, weights } = this
    const target = bit << 16
    for (let i = 0; i < this.n; i++) {
      const slot = this.slots[i]!
      const c = counts[slot]!
      probs[slot] = probs[slot]! + Math.floor(((target - probs[slot]!) * RATE[c]!) / 65536)
      if (c < COUNT_LIMIT) counts[slot] = c + 1
    }
    const err = (((bit << 12) - this.mixed) * LEARNING_RATE) / 4096
    for (let i = 0; i <= this.n; i++) weights[this.base + i] = weights[this.base + i]! + err * inputs[i]!
  }
}

/** Bit lengths 0…53 of n + 1 (every safe integer): a 6-bit tree. */
const LENGTH_BITS = 6
/** Below the leading 1, this many bits are modelled; the rest go at even odds. */
const FULL = 5

/**
 * A non-negative safe integer as binary decisions: the bit length of n + 1 (a 6-bit tree), then its bits below
 * the leading one (the top FULL modelled, the rest at even odds). `field` keeps numbers of different kinds apart.
 */
export function encodeInt(
  coder: RangeEncoder,
  bits: MixedBits,
  value: number,
  contexts: ArrayLike<number>,
  field: number,
): void {
  const u = value + 1
  const log = Math.floor(Math.log2(u))
  // log2 rounds near powers of two above 2^48: settle the bit length exactly.
  const length = 2 ** log > u ? log - 1 : 2 ** (log + 1) <= u ? log + 1 : log
  let node = 1
  for (let i = LENGTH_BITS - 1; i >= 0; i--) {
    const bit = (length >> i) & 1
    bits.encode(coder, contexts, (field << 12) | node, field * 2, bit)
    node = (node << 1) | bit
  }
  node = 1
  for (let i = length - 1; i >= 0; i--) {
    const bit = Math.floor(u / 2 ** i) % 2
    if (length - 1 - i < FULL) {
      bits.encode(coder, contexts, (field << 12) | 2048 | (length << 5) | node, field * 2 + 1, bit)
      node = (node << 1) | bit
    } else coder.direct(bit)
  }
}

export function decodeInt(
  coder: RangeDecoder,
  bits: MixedBits,
  contexts: ArrayLike<number>,
  field: number,
): number {
  let node = 1
  for (let i = 0; i < LENGTH_BITS; i++)
    node = (node << 1) | bits.decode(coder, contexts, (field << 12) | node, field * 2)
  const length = node - (1 << LENGTH_BITS)
  if (length > 53) throw new Malformed('a number is out of range')
  let u = 1
  node = 1
  for (let i = length - 1; i >= 0; i--) {
    let bit: number
    if (length - 1 - i < FULL) {
      bit = bits.decode(coder, contexts, (field << 12) | 2048 | (length << 5) | node, field * 2 + 1)
      node = (node << 1) | bit
    } else bit = coder.direct()
    u = u * 2 + bit
  }
  if (!Number.isSafeInteger(u - 1)) throw new Malformed('a number is out of range')
  return u - 1
}
