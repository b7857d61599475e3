import { concatBytes } from './concatBytes'

/** A whole stream's bytes, or how many had arrived when it passed the cap. */
export type CappedRead = { readonly bytes: Uint8Array<ArrayBuffer> } | { readonly over: number }

/**
 * Reads a byte stream to its end into one buffer, but stops and cancels it as soon as more than `max` bytes have
 * arrived, so a huge download or a decompression bomb never fills memory. `onRead` hears the running total after
 * every piece. A failing stream rejects; the caller says what broke.
 *
 * @example
 * const read = await readCapped(response.body, 64 << 20)
 * if ('over' in read) return { error: `larger than 64 MiB (${read.over} bytes so far)` }
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  onRead?: (loaded: number) => void,
): Promise<CappedRead> {
  const reader = stream.getReader()
  const parts: Uint8Array[] = []
  let loaded = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    loaded += value.length
    if (loaded > max) {
      await reader.cancel().catch(() => undefined)
      return { over: loaded }
    }
    parts.push(value)
    onRead?.(loaded)
  }
  return { bytes: concatBytes(parts) }
}
