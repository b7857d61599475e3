/**
 * Delta debugging (Zeller's ddmin): shrinks a list to a smaller one that still passes `test`, trying halves, then
 * complements, then finer splits. The result is 1-minimal: removing any single item of it makes `test` fail
 * (docs/protocol.md §13). `test` is never called twice on the same subset.
 */
export type DdminProgress = {
  /** Calls of `test` so far. */
  readonly steps: number
  /** Size of the smallest passing list so far. */
  readonly size: number
  /** How many parts the list is cut into at this stage. */
  readonly granularity: number
}

export type DdminOptions = {
  /** Called after every test (a UI shows it; a worker posts it). */
  readonly onProgress?: (progress: DdminProgress) => void
  /** Asked before every test; true stops with the smallest passing list found so far (`cancelled`). */
  readonly shouldStop?: () => boolean
}

export type DdminResult<T> = {
  readonly items: T[]
  /** Positions of `items` in the input. */
  readonly kept: number[]
  readonly steps: number
  readonly cancelled: boolean
}

/**
 * @example
 * ddmin([1, 2, 3, 4, 5, 6, 7, 8], (xs) => xs.includes(3) && xs.includes(7)).items // [3, 7]
 */
export function ddmin<T>(
  input: readonly T[],
  test: (items: T[]) => boolean,
  options: DdminOptions = {},
): DdminResult<T> {
  let current = input.map((_, position) => position)
  let steps = 0
  let cancelled = false
  const tried = new Set<string>()
  const passes = (positions: number[], granularity: number): boolean => {
    // Subsets are contiguous runs of positions of `current`, so first, length and a checksum name one cheaply.
    const key = keyOf(positions)
    if (tried.has(key)) return false
    if (options.shouldStop?.() === true) {
      cancelled = true
      return false
    }
    tried.add(key)
    steps += 1
    const ok = test(positions.map((position) => input[position]!))
    options.onProgress?.({ steps, size: ok ? positions.length : current.length, granularity })
    return ok
  }
  let granularity = 2
  while (current.length >= 2 && !cancelled) {
    const parts = split(current, granularity)
    let reduced = false
    for (const part of parts) {
      if (passes(part, granularity)) {
        current = part
        granularity = 2
        reduced = true
        break
      }
      if (cancelled) break
    }
    // With two parts each complement is the other part, already tried.
    if (!reduced && !cancelled && granularity > 2) {
      for (let i = 0; i < parts.length; i++) {
        const complement = parts.flatMap((part, j) => (j === i ? [] : part))
        if (passes(complement, granularity)) {
          current = complement
          granularity = Math.max(granularity - 1, 2)
          reduced = true
          break
        }
        if (cancelled) break
      }
    }
    if (reduced || cancelled) continue
    if (granularity >= current.length) break
    granularity = Math.min(granularity * 2, current.length)
  }
  // One item left: the empty list may pass too (a property that holds for every stream).
  if (current.length === 1 && !cancelled && passes([], 1)) current = []
  return { items: current.map((position) => input[position]!), kept: current, steps, cancelled }
}

function split(positions: readonly number[], parts: number): number[][] {
  const out: number[][] = []
  let start = 0
  for (let i = 0; i < parts; i++) {
    const end = start + Math.floor((positions.length - start) / (parts - i))
    out.push(positions.slice(start, end))
    start = end
  }
  return out.filter((part) => part.length > 0)
}

function keyOf(positions: readonly number[]): string {
  let a = 0
  let b = 0
  for (const position of positions) {
    a = (Math.imul(a, 31) + position) | 0
    b = (Math.imul(b ^ position, 0x01000193) + 1) | 0
  }
  return `${positions.length}:${positions[0] ?? -1}:${positions.at(-1) ?? -1}:${a}:${b}`
}
