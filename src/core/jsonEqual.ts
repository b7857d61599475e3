/**
 * Structural equality of JSON values (objects compared by keys regardless of order, arrays by position).
 * `undefined`-valued keys count as absent, as they would after a JSON round trip.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, position) => jsonEqual(item, b[position]))
  }
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined)
  const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined)
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => jsonEqual(left[key], right[key]))
}
