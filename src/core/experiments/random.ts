/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence on every engine, so a chaos
 * variant or a random test input is reproduced from its printed seed alone (docs/protocol.md §13).
 *
 * @example
 * const random = seededRandom(7)
 * random.int(10) // the same number in every run with seed 7
 */
export type SeededRandom = {
  readonly seed: number
  /** A float in [0, 1). */
  next(): number
  /** An integer in [0, bound). */
  int(bound: number): number
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { seed: seed >>> 0, next, int: (bound) => Math.floor(next() * bound) }
}

/** A seed derived from a run's seed and a variant's number, so each variant can be repeated on its own. */
export function deriveSeed(seed: number, n: number): number {
  return (Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(n + 1, 0xc2b2ae35)) >>> 0
}
