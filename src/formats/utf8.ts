/** UTF-8 decoding that says where the bytes stop being UTF-8 instead of silently replacing them. */

export type Utf8Decoded = {
  readonly text: string
  /** Offset of the first byte that is not valid UTF-8 (those bytes became U+FFFD), or -1 when all were valid. */
  readonly invalidAt: number
}

const strict = new TextDecoder('utf-8', { fatal: true })
const lenient = new TextDecoder('utf-8')

/**
 * Decodes bytes as UTF-8 (a leading BOM is dropped). Valid input costs one decode; invalid input is decoded again
 * with U+FFFD replacements and scanned once for the first bad byte.
 *
 * @example
 * decodeUtf8(new Uint8Array([0x61, 0xff, 0x62])) // { text: 'a\uFFFDb', invalidAt: 1 }
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Decoded {
  try {
    return { text: strict.decode(bytes), invalidAt: -1 }
  } catch {
    return { text: lenient.decode(bytes), invalidAt: firstInvalidUtf8(bytes) }
  }
}

/** Offset of the first byte that starts no well-formed UTF-8 sequence (RFC 3629), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length
  let i = 0
  while (i < n) {
    const b = bytes[i]!
    if (b < 0x80) {
      i++
      continue
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0
    if (need === 0 || i + need >= n) return i
    const b1 = bytes[i + 1]!
    // Overlongs, surrogates and code points past U+10FFFF are ruled out by the second byte's range.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
    if (b1 < low || b1 > high) return i
    for (let k = 2; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i
    i += need + 1
  }
  return -1
}
