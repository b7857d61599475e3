import { Malformed } from './bytes'

// The integer columns of a v2 link (docs/protocol.md §14) are range-coded, not deflated: deflate spends whole
// bits per symbol and a Huffman table per block, which on a link's few hundred small numbers (chunk lengths of
// 1–4, times of 0 or 20 ms) costs half as much again as their entropy. A binary range coder (the LZMA kind:
// 32-bit range, carry propagation through a cached byte) codes each number as its bit length then its bits, each
// bit under a probability counted from the bits before it in its context (the Krichevsky–Trofimov estimate,
// p₀ = (zeros + ½) / (seen + 1), with `seen` capped so a context keeps adapting). The arithmetic is IEEE double
// (+, −, ×, ÷, floor), which every engine computes alike, so encoder and decoder agree bit for bit. A v3 link
// codes all of its sections through one coder, each bit under a 12-bit probability from an outside model
// (`bitAt`: textModel.ts, mixedBits.ts), and ends it with `finishShort`.

const TOP = 2 ** 24
/** Past this many bits a context adapts at a fixed rate (1 / (LIMIT + 2)). */
const LIMIT = 1000
const FLOOR = 1 / 4096

/** The adaptive probabilities of a set of binary decisions. */
export class Bits {
  private readonly zero: Float64Array
  private readonly seen: Uint16Array

  constructor(size: number) {
    this.zero = new Float64Array(size).fill(0.5)
    this.seen = new Uint16Array(size)
  }

  /** The split of `range` for a 0 at decision `at` (1 … range − 1). */
  bound(range: number, at: number): number {
    const p = Math.min(1 - FLOOR, Math.max(FLOOR, this.zero[at]!))
    return Math.min(range - 1, Math.max(1, Math.floor(range * p)))
  }

  learn(at: number, bit: number): void {
    const n = this.seen[at]!
    this.zero[at] = this.zero[at]! + ((bit === 0 ? 1 : 0) - this.zero[at]!) / (n + 2)
    if (n < LIMIT) this.seen[at] = n + 1
  }
}
/** Bit lengths 0…53 (every safe integer + 1, up to 2^53): a 6-bit tree. */
const LENGTH_BITS = 6
/** Numbers below 2^FULL are modelled bit by bit; above, only their top FULL bits adapt. */
const FULL = 5

/**
 * Where a link's bits go (the share bench's breakdown): each coded bit's cost, −log2 of the probability it was
 * coded under, added to the section named last. Measuring never changes what is written.
 */
export type Meter = { section: string; readonly bits: Map<string, number> }

export class RangeEncoder {
  /** Set to measure this coder's bits by section (src/bench/shareBreakdown.ts); null costs nothing. */
  meter: Meter | null = null
  private low = 0
  private range = 0xffffffff
  private cache = 0
  private cacheSize = 1
  private out = new Uint8Array(256)
  private length = 0

  bit(probs: Bits, at: number, bit: number): void {
    const bound = probs.bound(this.range, at)
    if (this.meter !== null) this.spend(bit === 0 ? bound / this.range : 1 - bound / this.range)
    if (bit === 0) this.range = bound
    else {
      this.low += bound
      this.range -= bound
    }
    probs.learn(at, bit)
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0
      this.shiftLow()
    }
  }

  /** A bit at even odds, learnt from nothing (the low bits of a big number). */
  direct(bit: number): void {
    if (this.meter !== null) this.spend(0.5)
    this.range = this.range >>> 1
    if (bit !== 0) this.low += this.range
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0
      this.shiftLow()
    }
  }

  /** A bit under a 12-bit probability of a 1 (1…4095) from an outside model (textModel.ts). */
  bitAt(p1: number, bit: number): void {
    const bound = Math.floor(this.range / 4096) * (4096 - p1)
    if (this.meter !== null) this.spend(bit === 0 ? bound / this.range : 1 - bound / this.range)
    if (bit === 0) this.range = bound
    else {
      this.low += bound
      this.range -= bound
    }
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0
      this.shiftLow()
    }
  }

  /** Names the section the next bits are counted under (when measuring). */
  section(name: string): void {
    if (this.meter !== null) this.meter.section = name
  }

  private spend(p: number): void {
    const { bits, section } = this.meter!
    bits.set(section, (bits.get(section) ?? 0) - Math.log2(p))
  }

  /**
   * The shortest ending (v3 links): the decoder reads up to 4 zeros past the end, so the coder settles on the
   * number in [low, low + range) with the most trailing zero bytes, and those of its last 4 bytes are left out.
   */
  finishShort(): Uint8Array {
    // range ≥ 2^24 here: a multiple of 2^24 lies in [low, low + range) or is at most one step of 2^24 above low.
    let step = 2 ** 32
    while (step >= 1 && Math.ceil(this.low / step) * step >= this.low + this.range) step /= 2
    this.low = Math.ceil(this.low / step) * step
    for (let i = 0; i < 5; i++) this.shiftLow()
    // Only the flush's own 4 bytes may go: the decoder reads at most 4 zeros past the end (as for v2), so a
    // crafted link cannot have it decode on and on from nothing.
    let end = this.length
    while (end > Math.max(1, this.length - 4) && this.out[end - 1] === 0) end--
    return this.out.slice(1, end)
  }

  private shiftLow(): void {
    if (this.low < 0xff000000 || this.low >= 2 ** 32) {
      const carry = this.low >= 2 ** 32 ? 1 : 0
      let byte = this.cache
      do {
        if (this.length === this.out.length) {
          const grown = new Uint8Array(this.out.length * 2)
          grown.set(this.out)
          this.out = grown
        }
        this.out[this.length++] = (byte + carry) & 0xff
        byte = 0xff
      } while (--this.cacheSize !== 0)
      this.cache = Math.floor(this.low / TOP) & 0xff
    }
    this.cacheSize++
    this.low = (this.low % TOP) * 256
  }

  finish(): Uint8Array {
    for (let i = 0; i < 5; i++) this.shiftLow()
    // The first byte is always 0 (the cache's start): leave it out; the decoder starts from it.
    return this.out.slice(1, this.length)
  }
}

export class RangeDecoder {
  private range = 0xffffffff
  private code = 0
  private at = 0

  constructor(private readonly bytes: Uint8Array) {
    for (let i = 0; i < 4; i++) this.code = (this.code * 256 + this.next()) >>> 0
  }

  /** Past the end the coder reads zeros; a stream that needs many of them was not made by the encoder. */
  private next(): number {
    if (this.at >= this.bytes.length + 4) throw new Malformed('its numbers run past their column')
    return this.bytes[this.at++] ?? 0
  }

  bitAt(p1: number): number {
    return this.split(Math.floor(this.range / 4096) * (4096 - p1))
  }

  bit(probs: Bits, at: number): number {
    const bit = this.split(probs.bound(this.range, at))
    probs.learn(at, bit)
    return bit
  }

  direct(): number {
    // Not `split`: both halves keep half the range (the encoder's `direct`), so an odd range loses its last step.
    this.range = this.range >>> 1
    let bit = 0
    if (this.code >= this.range) {
      this.code -= this.range
      bit = 1
    }
    this.normalize()
    return bit
  }

  /** One decision: 0 below `bound` (the range shrinks to it), else 1 (the range keeps what is above it). */
  private split(bound: number): number {
    let bit: number
    if (this.code < bound) {
      this.range = bound
      bit = 0
    } else {
      this.code -= bound
      this.range -= bound
      bit = 1
    }
    this.normalize()
    return bit
  }

  private normalize(): void {
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0
      this.code = (this.code * 256 + this.next()) >>> 0
    }
  }
}

/**
 * An adaptive model of non-negative safe integers in `contexts` contexts: the bit length of n + 1 by a 6-bit
 * tree, then its bits below the leading one (adaptive for the top FULL of them, per bit length).
 */
export class IntModel {
  private readonly lengths: Bits
  private readonly mantissas: Bits

  constructor(private readonly contexts: number) {
    this.lengths = new Bits(contexts << LENGTH_BITS)
    this.mantissas = new Bits((contexts * 64) << FULL)
  }

  encode(coder: RangeEncoder, value: number, context = 0): void {
    const u = value + 1
    const length = Math.floor(Math.log2(u))
    // log2 rounds near powers of two above 2^48: settle the bit length exactly.
    const bits = 2 ** length > u ? length - 1 : 2 ** (length + 1) <= u ? length + 1 : length
    const ctx = this.check(context)
    let node = 1
    for (let i = LENGTH_BITS - 1; i >= 0; i--) {
      const bit = (bits >> i) & 1
      coder.bit(this.lengths, (ctx << LENGTH_BITS) + node, bit)
      node = (node << 1) | bit
    }
    node = 1
    const base = (ctx * 64 + bits) << FULL
    for (let i = bits - 1; i >= 0; i--) {
      const bit = Math.floor(u / 2 ** i) % 2
      if (bits - 1 - i < FULL) {
        coder.bit(this.mantissas, base + node, bit)
        node = (node << 1) | bit
      } else coder.direct(bit)
    }
  }

  decode(coder: RangeDecoder, context = 0): number {
    const ctx = this.check(context)
    let node = 1
    for (let i = 0; i < LENGTH_BITS; i++)
      node = (node << 1) | coder.bit(this.lengths, (ctx << LENGTH_BITS) + node)
    const bits = node - (1 << LENGTH_BITS)
    if (bits > 53) throw new Malformed('a number is out of range')
    let u = 1
    node = 1
    const base = (ctx * 64 + bits) << FULL
    for (let i = bits - 1; i >= 0; i--) {
      let bit: number
      if (bits - 1 - i < FULL) {
        bit = coder.bit(this.mantissas, base + node)
        node = (node << 1) | bit
      } else bit = coder.direct()
      u = u * 2 + bit
    }
    if (!Number.isSafeInteger(u - 1)) throw new Malformed('a number is out of range')
    return u - 1
  }

  private check(context: number): number {
    return Math.max(0, Math.min(this.contexts - 1, context))
  }
}

/** A context from a previous value: its bit length, capped (0 stays 0, 1 → 1, 2–3 → 2, …). */
export function sizeClass(value: number, cap: number): number {
  return value <= 0 ? 0 : Math.min(cap, Math.floor(Math.log2(value)) + 1)
}
