import { describe, expect, it } from 'vitest'
import { decompressZstdFrame, readZstdFrames, walkZstdFrames, zstdContentChecksum } from './zstdFrames'

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd]
const enc = (text: string) => [...new TextEncoder().encode(text)]

/** A block header: size, type (0 raw, 1 RLE, 2 compressed, 3 reserved), last flag. */
const block = (size: number, type: number, last: boolean) => {
  const value = (size << 3) | (type << 1) | (last ? 1 : 0)
  return [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]
}

/** A single-segment frame of one raw block per text, no checksum (FCS in one byte). */
function rawFrame(...texts: string[]): number[] {
  const size = texts.reduce((sum, text) => sum + enc(text).length, 0)
  return [
    ...MAGIC,
    0x20,
    size,
    ...texts.flatMap((text, k) => [...block(enc(text).length, 0, k === texts.length - 1), ...enc(text)]),
  ]
}

async function checkedFrame(text: string): Promise<number[]> {
  const content = new TextEncoder().encode(text)
  const sum = await zstdContentChecksum(content)
  // Checksum flag, not single segment, window 1 KiB, no FCS.
  const body = [...MAGIC, 0x04, 0x00, ...block(content.length, 0, true), ...content]
  return [...body, sum & 0xff, (sum >>> 8) & 0xff, (sum >>> 16) & 0xff, sum >>> 24]
}

describe('zstdContentChecksum', () => {
  it('is the low 32 bits of XXH64 with seed 0 (reference vectors)', async () => {
    expect(await zstdContentChecksum(new Uint8Array())).toBe(0x51d8e999) // XXH64("") = ef46db3751d8e999
    expect(await zstdContentChecksum(new TextEncoder().encode('a'))).toBe(0xa98c6e5b) // d24ec4f1a98c6e5b
    expect(await zstdContentChecksum(new TextEncoder().encode('abc'))).toBe(0xad770999) // 44bc2cf5ad770999
  })
})

describe('walkZstdFrames', () => {
  it('finds each frame’s extent from its headers, skippable frames included', () => {
    const skippable = [0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 0xaa, 0xbb]
    const bytes = new Uint8Array([...rawFrame('a\n'), ...skippable, ...rawFrame('b\n', 'c\n')])
    const { frames, garbageAt } = walkZstdFrames(bytes)
    expect(garbageAt).toBeNull()
    expect(frames.map((f) => [f.index, f.kind, f.start, f.end, f.blocks, f.contentSize, f.torn])).toEqual([
      [1, 'zstd', 0, 11, 1, 2, null],
      [2, 'skippable', 11, 21, 0, null, null],
      [3, 'zstd', 21, 37, 2, 4, null],
    ])
  })

  it('says where a last frame is cut and where bytes stop being frames', () => {
    const frame = rawFrame('hello\n', 'world\n')
    const cut = (n: number) => walkZstdFrames(new Uint8Array(frame.slice(0, n))).frames[0]!.torn
    expect(cut(5)).toBe('its header is cut')
    expect(cut(7)).toBe("block 1's header is cut")
    expect(cut(12)).toBe('block 1 is cut')
    expect(cut(frame.length - 1)).toBe('block 2 is cut')
    expect(walkZstdFrames(new Uint8Array([...frame, 0x00, 0x01])).garbageAt).toBe(frame.length)
    const reserved = [...MAGIC, 0x20, 1, ...block(1, 3, true), 0]
    expect(walkZstdFrames(new Uint8Array(reserved)).frames[0]!.torn).toBe('block 1 has the reserved type 3')
  })
})

describe('readZstdFrames', () => {
  it('decompresses raw and RLE blocks frame by frame and checks checksums', async () => {
    const rle = [...MAGIC, 0x20, 4, ...block(3, 1, false), 0x78, ...block(1, 0, true), 0x0a]
    const bytes = new Uint8Array([...(await checkedFrame('{"a":1}\n')), ...rle])
    expect(await readZstdFrames(bytes)).toEqual({ text: '{"a":1}\nxxx\n', diagnostics: [], frames: 2 })
  })

  it('recovers the complete lines of a torn frame', async () => {
    const frame = rawFrame('one\ntw', 'o\nthr', 'ee\n')
    const torn = new Uint8Array(frame.slice(0, frame.length - 2))
    const read = await readZstdFrames(torn)
    expect(read.text).toBe('one\ntwo\n')
    expect(read.diagnostics).toEqual([
      {
        byte: 0,
        severity: 'warning',
        message:
          'zstd frame 1 at byte 0: torn tail: the last frame is cut short (block 3 is cut, 27 bytes present); kept the ' +
          '2 complete lines of its 2 whole blocks, dropped the rest (3 decompressed bytes and the cut block)',
      },
    ])
  })

  it('reports a frame that needs a dictionary, and invalid UTF-8, with the frame’s offset', async () => {
    const withDict = [...MAGIC, 0x21, 7, 4, ...block(1, 0, true), 0x41]
    const badText = [...MAGIC, 0x20, 2, ...block(2, 0, true), 0x41, 0xff]
    const read = await readZstdFrames(new Uint8Array([...withDict, ...badText]))
    expect(read.text).toBe('A\uFFFD')
    expect(read.diagnostics.map((d) => d.message)).toEqual([
      'zstd frame 1 at byte 0: needs dictionary 7, which the file does not carry; frame skipped',
      'zstd frame 2 at byte 11: invalid UTF-8 at byte 1 of its content; bad bytes shown as U+FFFD',
    ])
  })
})

describe('decompressZstdFrame', () => {
  it('decodes one frame given alone and names a checksum mismatch', async () => {
    const frame = new Uint8Array(await checkedFrame('{"big":true}'))
    expect(new TextDecoder().decode((await decompressZstdFrame(frame)).content)).toBe('{"big":true}')
    frame[frame.length - 1] = frame[frame.length - 1]! ^ 0xff
    expect((await decompressZstdFrame(frame)).problem).toMatch(/^content checksum mismatch \(stored 0x/)
    await expect(decompressZstdFrame(frame.subarray(0, 8))).rejects.toThrow(/cut short/)
  })
})
