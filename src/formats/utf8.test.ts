import { describe, expect, it } from 'vitest'
import { decodeUtf8, firstInvalidUtf8 } from './utf8'

describe('decodeUtf8', () => {
  it('decodes valid UTF-8 (CJK, emoji) and drops a leading BOM', () => {
    const text = '做两个turn 🚀\n'
    expect(decodeUtf8(new TextEncoder().encode(text))).toEqual({ text, invalidAt: -1 })
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ text: 'a', invalidAt: -1 })
  })

  it('finds the first byte that starts no well-formed sequence', () => {
    expect(decodeUtf8(new Uint8Array([0x61, 0xff, 0x62]))).toEqual({ text: 'a\uFFFDb', invalidAt: 1 })
    expect(firstInvalidUtf8(new Uint8Array([0xc0, 0x80]))).toBe(0) // overlong
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xed, 0xa0, 0x80]))).toBe(1) // surrogate
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0x62, 0xe6, 0x81]))).toBe(2) // cut at the end
    expect(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0) // past U+10FFFF
    expect(firstInvalidUtf8(new TextEncoder().encode('ok ✓'))).toBe(-1)
  })
})
