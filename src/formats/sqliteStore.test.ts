import { describe, expect, it } from 'vitest'
import { isSqlite, readSourceEventSeqs } from './sqliteStore'

describe('readSourceEventSeqs', () => {
  it('decodes the first seq as LEB128 and each next one as a zigzag-LEB128 delta', () => {
    expect(readSourceEventSeqs(new Uint8Array([5, 2, 2]))).toEqual([5, 6, 7])
    // 300 = 0xAC 0x02; -3 zigzags to 5; +200 zigzags to 400 = 0x90 0x03
    expect(readSourceEventSeqs(new Uint8Array([0xac, 0x02, 5, 0x90, 0x03]))).toEqual([300, 297, 497])
    expect(readSourceEventSeqs(new Uint8Array())).toEqual([])
  })

  it('reads the JSON text of older stores and says what is wrong otherwise', () => {
    expect(readSourceEventSeqs('[1,2,3]')).toEqual([1, 2, 3])
    expect(readSourceEventSeqs('[1,"x"]')).toBe('is text but not a JSON array of seqs')
    expect(readSourceEventSeqs(new Uint8Array([4, 0x80]))).toBe('is cut inside a varint (after 1 seqs)')
    expect(readSourceEventSeqs(new Uint8Array([1, 5]))).toBe('decodes to -2, not a seq (entry 2)')
    expect(readSourceEventSeqs(12)).toBe('is a number, expected a BLOB')
  })
})

describe('isSqlite', () => {
  it('recognises the 16-byte header string only', () => {
    expect(isSqlite(new TextEncoder().encode('SQLite format 3\0rest'))).toBe(true)
    expect(isSqlite(new TextEncoder().encode('SQLite format 3 '))).toBe(false)
  })
})
