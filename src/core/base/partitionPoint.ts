/**
 * Bisection over indexes `0…count-1` where `before(i)` holds for a prefix and fails after it (a sorted array asked
 * "is this below x?"): the length of that prefix, in O(log count) calls. Every "first at or after" / "last at or
 * before" search in the project is this one loop.
 *
 * @example
 * const sorted = [1, 4, 4, 9]
 * partitionPoint(sorted.length, (i) => sorted[i]! < 4) // 1: the first 4
 * partitionPoint(sorted.length, (i) => sorted[i]! <= 4) - 1 // 2: the last item at or below 4
 */
export function partitionPoint(count: number, before: (index: number) => boolean): number {
  let low = 0
  let high = count
  while (low < high) {
    const middle = (low + high) >>> 1
    if (before(middle)) low = middle + 1
    else high = middle
  }
  return low
}
