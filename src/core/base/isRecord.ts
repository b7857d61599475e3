/**
 * A parsed JSON value that is an object with string keys (not an array, not null): the one shape check every
 * reader makes before looking at fields.
 *
 * @example
 * isRecord(JSON.parse('{"type":"text-delta"}')) // true
 * isRecord(JSON.parse('[1]')) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
