/**
 * The parts as one array, in order. A single part that fills its whole buffer is returned as it is (no copy: callers
 * join pieces they read and do not write to afterwards); any other result is a new array on a buffer of its own, so
 * a caller may transfer `result.buffer` to a worker.
 *
 * @example
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)]) // Uint8Array [1, 2, 3]
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const only = parts.length === 1 ? parts[0]! : null
  if (only !== null && only.buffer instanceof ArrayBuffer && only.byteLength === only.buffer.byteLength)
    return only as Uint8Array<ArrayBuffer>
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
