/**
 * The unchanged edges of an edit from `a` to `b`: how many UTF-16 units they share at the start (`head`), then at
 * the end (`tail`), the two never overlapping. Every "diff the middle only" in the project starts with this.
 *
 * @example
 * commonEnds('abcXYZ', 'abZ') // { head: 2, tail: 1 }
 * commonEnds('aaa', 'aa') // { head: 2, tail: 0 }
 */
export function commonEnds(a: string, b: string): { head: number; tail: number } {
  const shorter = Math.min(a.length, b.length)
  let head = 0
  while (head < shorter && a.charCodeAt(head) === b.charCodeAt(head)) head++
  let tail = 0
  while (tail < shorter - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail))
    tail++
  return { head, tail }
}
