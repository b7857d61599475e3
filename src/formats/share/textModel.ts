import { SHARE_PRIMER } from './primer'
import type { RangeDecoder, RangeEncoder } from './rangeCoder'

// The byte model of v3 links (docs/protocol.md §14): deflate needs a few hundred bytes before its back-references
// and Huffman tables pay for themselves, and a link's text is often shorter than that. A bitwise context-mixing
// model predicts each bit from the bytes before it instead: orders 0–6 and two word contexts, each a hashed
// table of adaptive probabilities, and a match model (the byte that followed the last occurrence of the previous
// four), mixed in the logistic domain twice (weights chosen by how many of the contexts were seen before and by
// the match; weights chosen by the previous byte) and averaged, then refined by an SSE stage on the partial byte
// and the previous one's top bits. The model starts from the state it reaches after reading a built-in primer
// (primer.ts), so the first bytes of a link are already predicted like text of its kind.
//
// Determinism: encoder and decoder must compute the same probability for every bit on every engine. All table
// indexes are 32-bit integer arithmetic (Math.imul, >>>); probabilities are integers; the mixer uses IEEE
// doubles with +, −, × only, in a fixed order (no Math.exp/log, whose last bits engines may differ on); squash
// and stretch are integer tables.

const TABLE_BITS = 20
const TABLE_MASK = (1 << TABLE_BITS) - 1
/** Orders of the hashed byte contexts (order 0 is direct). */
const ORDERS = [1, 2, 3, 4, 5, 6] as const
/** Inputs to the mixer: order 0, the hashed orders, two word contexts, the match, a bias. */
const INPUTS = 1 + ORDERS.length + 2 + 1 + 1
/**
 * Weight sets: by how many hashed contexts were seen before (0…ORDERS.length + 2), by bit position, by the
 * match's length (none, short, long).
 */
const SETS = (ORDERS.length + 3) * 8 * 3
/** The match model finds the last place the previous MATCH_MIN bytes occurred, through a table of 2^MATCH_BITS. */
const MATCH_BITS = 16
const MATCH_MIN = 4
const MATCH_LONGEST = 63
/** Past this many updates a counter adapts at a fixed rate (it keeps following a changing text). */
const COUNT_LIMIT = 250
const LEARNING_RATE = 0.03
/** SSE contexts: the partial byte and the top four bits of the previous byte. */
const SSE_CONTEXTS = 16 * 256

/** squash(x) = 4096 / (1 + e^−x/256), by interpolation in a 33-entry integer table: exact on every engine. */
const SQUASH_POINTS = [
  1, 2, 3, 6, 10, 16, 27, 45, 73, 120, 194, 310, 488, 747, 1101, 1546, 2047, 2549, 2994, 3348, 3607, 3785,
  3901, 3975, 4024, 4050, 4068, 4079, 4085, 4089, 4092, 4093, 4094,
]
export function squash(x: number): number {
  if (x > 2047) return 4095
  if (x < -2047) return 1
  const w = x & 127
  const i = (x + 2048) >> 7
  return (SQUASH_POINTS[i]! * (128 - w) + SQUASH_POINTS[i + 1]! * w + 64) >> 7
}
/** stretch(p) = squash⁻¹(p) for 12-bit p. */
export const STRETCH = (() => {
  const table = new Int16Array(4096)
  let pi = 0
  for (let x = -2047; x <= 2047; x++) {
    const v = squash(x)
    for (let j = pi; j <= v; j++) table[j] = x
    pi = v + 1
  }
  for (let j = pi; j < 4096; j++) table[j] = 2047
  return table
})()
/** 65536 / (n + 1.5): the step of a counter after n updates. */
const RATE = Uint32Array.from({ length: COUNT_LIMIT + 1 }, (_, n) => Math.floor(65536 / (n + 1.5)))

export type State = {
  readonly probs: Uint16Array
  readonly counts: Uint8Array
  /** 8 more bits of each slot's context: a slot taken by another context counts as never seen. */
  readonly checks: Uint8Array
  readonly order0: Uint16Array
  readonly weights: Float64Array
  readonly sse: Uint16Array
  /** Every byte seen (the primer's, then the link's), and where each 4-byte context last ended in it (+ 1). */
  history: Uint8Array
  historyLength: number
  readonly matchTable: Int32Array
  /** How often a match of each length predicted its bit right (16-bit). */
  readonly matchProbs: Uint16Array
}

function freshState(): State {
  const sse = new Uint16Array(SSE_CONTEXTS * 33)
  for (let c = 0; c < SSE_CONTEXTS; c++)
    for (let j = 0; j < 33; j++) sse[c * 33 + j] = squash((j - 16) * 128) * 16
  return {
    probs: new Uint16Array(1 << TABLE_BITS).fill(32768),
    counts: new Uint8Array(1 << TABLE_BITS),
    checks: new Uint8Array(1 << TABLE_BITS),
    order0: new Uint16Array(256).fill(32768),
    weights: new Float64Array((SETS + 256) * INPUTS).fill(0.2),
    sse,
    history: new Uint8Array(1 << 16),
    historyLength: 0,
    matchTable: new Int32Array(1 << MATCH_BITS),
    matchProbs: new Uint16Array(MATCH_LONGEST + 1).fill(49152),
  }
}

/** Where bytes are cut for measuring: each piece's end (exclusive) and its name. */
export type Cuts = readonly (readonly [end: number, name: string])[]

/** The model after each primer (one per link version), built once per page and copied for each link. */
const primedStates = new Map<Uint8Array, State>()

/** A fresh model state after reading `primer` (v3: SHARE_PRIMER; v4: SHARE_PRIMER_V4). */
export function primedState(primer: Uint8Array = SHARE_PRIMER): State {
  let primed = primedStates.get(primer)
  if (primed === undefined) {
    const model = new TextModel(freshState())
    for (const byte of primer) model.learnByte(byte)
    primed = model.state
    primedStates.set(primer, primed)
  }
  return {
    probs: primed.probs.slice(),
    counts: primed.counts.slice(),
    checks: primed.checks.slice(),
    order0: primed.order0.slice(),
    weights: primed.weights.slice(),
    sse: primed.sse.slice(),
    history: primed.history.slice(),
    historyLength: primed.historyLength,
    matchTable: primed.matchTable.slice(),
    matchProbs: primed.matchProbs.slice(),
  }
}

/**
 * The adaptive model of a link's bytes. One instance codes all of a link's sections in turn (its meta, then its
 * text), so what the meta taught it carries on.
 */
export class TextModel {
  /** The partial byte, with a leading 1 (1 at a byte's start). */
  private c0 = 1
  private bitCount = 0
  /** The last four bytes, newest lowest. */
  private c4 = 0
  private c8 = 0
  private word = 0
  private lastWord = 0
  private readonly hashes = new Int32Array(ORDERS.length + 2)
  private readonly slots = new Int32Array(ORDERS.length + 2)
  private readonly inputs = new Float64Array(INPUTS)
  private set = 0
  private mixed = 2048
  private mixedA = 2048
  private mixedB = 2048
  private sseAt = 0
  private sseWeight = 0
  private p = 2048
  /** Where the current match predicts the next byte, and how many bytes it has matched (0: none). */
  private matchAt = 0
  private matchLength = 0
  private predicted = -1

  constructor(readonly state: State = primedState()) {
    this.atByteStart()
  }

  /**
   * Codes `bytes`; `pause` is awaited every 64 KiB so a page stays responsive. `cuts` name the pieces the
   * coder's meter counts the bits under (measuring only; the bits are the same).
   */
  async encode(
    coder: RangeEncoder,
    bytes: Uint8Array,
    pause: () => Promise<void>,
    cuts: Cuts = [],
  ): Promise<void> {
    let cut = 0
    for (let i = 0; i < bytes.length; i++) {
      if (i > 0 && i % 65536 === 0) await pause()
      while (cut < cuts.length && cuts[cut]![0] <= i) cut++
      if (cut < cuts.length) coder.section(cuts[cut]![1])
      const byte = bytes[i]!
      for (let b = 7; b >= 0; b--) {
        const bit = (byte >> b) & 1
        coder.bitAt(this.p, bit)
        this.update(bit)
      }
    }
  }

  decodeByte(coder: RangeDecoder): number {
    for (let b = 0; b < 8; b++) this.update(coder.bitAt(this.p))
    return this.c4 & 0xff
  }

  learnByte(byte: number): void {
    for (let b = 7; b >= 0; b--) this.update((byte >> b) & 1)
  }

  /** Learns `bit` and predicts the next one (this.p: the 12-bit probability of a 1). */
  private update(bit: number): void {
    const { probs, counts, order0, weights, sse } = this.state
    // Counters.
    const target = bit << 16
    order0[this.c0] = adapt(order0[this.c0]!, target, 20)
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i]!
      const n = counts[slot]!
      probs[slot] = probs[slot]! + Math.floor(((target - probs[slot]!) * RATE[n]!) / 65536)
      if (n < COUNT_LIMIT) counts[slot] = n + 1
    }
    if (this.predicted >= 0) {
      const m = Math.min(this.matchLength, MATCH_LONGEST)
      this.state.matchProbs[m] = adapt(this.state.matchProbs[m]!, bit === this.predicted ? 65535 : 0, 40)
    }
    // Mixer.
    const err = (((bit << 12) - this.mixedA) * LEARNING_RATE) / 4096
    const base = this.set * INPUTS
    for (let i = 0; i < INPUTS; i++) weights[base + i] = weights[base + i]! + err * this.inputs[i]!
    const errB = (((bit << 12) - this.mixedB) * LEARNING_RATE) / 4096
    const baseB = (SETS + (this.c4 & 0xff)) * INPUTS
    for (let i = 0; i < INPUTS; i++) weights[baseB + i] = weights[baseB + i]! + errB * this.inputs[i]!
    // SSE: move the two interpolated entries toward the bit.
    const s = this.sseAt
    sse[s] = sse[s]! + Math.floor(((target - sse[s]!) * (4096 - this.sseWeight)) / (4096 * 24))
    sse[s + 1] = sse[s + 1]! + Math.floor(((target - sse[s + 1]!) * this.sseWeight) / (4096 * 24))
    // Next bit.
    this.c0 = (this.c0 << 1) | bit
    if (++this.bitCount === 8) {
      const byte = this.c0 & 0xff
      this.c8 = ((this.c8 << 8) | (this.c4 >>> 24)) >>> 0
      this.c4 = ((this.c4 << 8) | byte) >>> 0
      const letter = (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || byte >= 128
      if (letter) this.word = (Math.imul(this.word ^ (byte | 32), 0x2c9277b5) + 1) | 0
      else if (this.word !== 0) {
        this.lastWord = this.word
        this.word = 0
      }
      this.c0 = 1
      this.bitCount = 0
      this.remember(byte)
      this.atByteStart()
    }
    this.predict()
  }

  /** The match model after a byte: extend the match, or look for one that ends here. */
  private remember(byte: number): void {
    const state = this.state
    if (state.historyLength === state.history.length) {
      const grown = new Uint8Array(state.history.length * 2)
      grown.set(state.history)
      state.history = grown
    }
    const history = state.history
    history[state.historyLength++] = byte
    const end = state.historyLength
    if (this.matchLength > 0 && history[this.matchAt] === byte) {
      this.matchLength++
      this.matchAt++
    } else this.matchLength = 0
    if (end < MATCH_MIN) return
    const h = Math.imul(this.c4, 0x9e3779b1) >>> (32 - MATCH_BITS)
    if (this.matchLength === 0) {
      const candidate = state.matchTable[h]!
      if (candidate > 0) {
        let length = 0
        while (
          length < MATCH_LONGEST &&
          candidate - 1 - length >= 0 &&
          history[candidate - 1 - length] === history[end - 1 - length]
        )
          length++
        if (length >= MATCH_MIN) {
          this.matchLength = length
          this.matchAt = candidate
        }
      }
    }
    state.matchTable[h] = end
  }

  /** Hashes of each context for the byte about to start. */
  private atByteStart(): void {
    const c4 = this.c4
    for (let i = 0; i < ORDERS.length; i++) {
      const order = ORDERS[i]!
      const context = order >= 4 ? c4 : c4 & ((1 << (order * 8)) - 1)
      let h = Math.imul(context, 0x9e3779b1) ^ Math.imul(order + 1, 0x85ebca6b)
      if (order > 4) h ^= Math.imul(this.c8 & ((1 << ((order - 4) * 8)) - 1), 0xc2b2ae35)
      this.hashes[i] = Math.imul(h ^ (h >>> 15), 0x27d4eb2f)
    }
    const w = ORDERS.length
    this.hashes[w] = Math.imul(this.word ^ 0x5bd1e995, 0x1b873593)
    this.hashes[w + 1] = Math.imul(this.word ^ Math.imul(this.lastWord, 0x68e31da4), 0x3c6ef372)
    this.predict()
  }

  private predict(): void {
    const { probs, counts, checks, order0, weights, sse } = this.state
    const inputs = this.inputs
    const c0 = this.c0
    inputs[0] = STRETCH[order0[c0]! >> 4]! / 256
    let seen = 0
    for (let i = 0; i < this.hashes.length; i++) {
      const h = Math.imul(this.hashes[i]! + c0, 0x2f0b4c27)
      const slot = (h >>> (32 - TABLE_BITS)) & TABLE_MASK
      const check = h & 0xff
      if (checks[slot] !== check) {
        checks[slot] = check
        probs[slot] = 32768
        counts[slot] = 0
      }
      this.slots[i] = slot
      if (counts[slot]! > 0) seen++
      inputs[i + 1] = STRETCH[probs[slot]! >> 4]! / 256
    }
    // The match: the bit its next byte has here, while that byte agrees with this one so far.
    this.predicted = -1
    inputs[INPUTS - 2] = 0
    if (this.matchLength > 0) {
      const next = this.state.history[this.matchAt]! | 256
      if (next >> (8 - this.bitCount) === c0) {
        this.predicted = (next >> (7 - this.bitCount)) & 1
        const st = STRETCH[this.state.matchProbs[Math.min(this.matchLength, MATCH_LONGEST)]! >> 4]! / 256
        inputs[INPUTS - 2] = this.predicted === 1 ? st : -st
      }
    }
    inputs[INPUTS - 1] = 0.5
    const matchClass = this.predicted < 0 ? 0 : this.matchLength < 16 ? 1 : 2
    this.set = (seen * 8 + this.bitCount) * 3 + matchClass
    // Two weight sets mix the same inputs: one by the contexts' state, one by the previous byte; their mean wins.
    const base = this.set * INPUTS
    const baseB = (SETS + (this.c4 & 0xff)) * INPUTS
    let dot = 0
    let dotB = 0
    for (let i = 0; i < INPUTS; i++) {
      dot += weights[base + i]! * inputs[i]!
      dotB += weights[baseB + i]! * inputs[i]!
    }
    const xa = Math.max(-2047, Math.min(2047, Math.round(dot * 256)))
    const xb = Math.max(-2047, Math.min(2047, Math.round(dotB * 256)))
    this.mixedA = squash(xa)
    this.mixedB = squash(xb)
    const x = (xa + xb) >> 1
    this.mixed = squash(x)
    // SSE over the previous byte and the partial one, interpolated between 33 buckets of the stretched mix.
    const at = (x + 2048) * 32
    const bucket = at >> 12
    this.sseWeight = at & 4095
    this.sseAt = ((((this.c4 & 0xf0) << 4) | c0) * 33 + bucket) | 0
    const refined =
      (sse[this.sseAt]! * (4096 - this.sseWeight) + sse[this.sseAt + 1]! * this.sseWeight) / (4096 * 16)
    const p = (this.mixed + 3 * Math.floor(refined)) >> 2
    this.p = Math.max(1, Math.min(4095, p))
  }
}

function adapt(p: number, target: number, shift: number): number {
  return p + Math.floor((target - p) / shift)
}
