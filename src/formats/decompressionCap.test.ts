import { deflateSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readCorpus } from '../test/corpus'
import { concat, deflateRun, rawZstdFrame, rleZstdFrame, zipOf } from '../test/hostile'
import { loadSource } from './load'
import { loadBytes } from './loadBytes'
import { MAX_DECOMPRESSED_BYTES } from './limits'
import { crc32 } from '../core/base/crc32'

/**
 * A file's containers decompress to at most a cap (limits.ts): the content up to it is kept, a diagnostic names the
 * cap and where the file crossed it, and memory stays near the cap however much the file claims or holds.
 */
const MiB = 1024 * 1024

/** Runs `load` and reports how far resident memory grew (rss seldom shrinks, so this approximates the peak). */
async function measured<T>(load: () => Promise<T>): Promise<{ result: T; grewMiB: number }> {
  const before = process.memoryUsage().rss
  const result = await load()
  return { result, grewMiB: (process.memoryUsage().rss - before) / MiB }
}

const errors = (source: { diagnostics: { severity: string; message: string }[] }) =>
  source.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)

describe('the decompression cap of a file', () => {
  it('stops 8,192 zstd frames of 128 KiB runs at the default cap, naming the frame', async () => {
    const frame = rleZstdFrame(0x61, 128 << 10)
    const bytes = concat(Array.from({ length: 8192 }, () => frame))
    const { result, grewMiB } = await measured(() => loadBytes(bytes, 'a.jsonl.zstd'))
    expect(MAX_DECOMPRESSED_BYTES).toBe(256 * MiB)
    expect(errors(result)[0]).toMatch(
      /^zstd frame 2049 at byte 20480: the file's decompressed content reached the 256 MiB cap .* the 6143 frames after it/,
    )
    // Uncapped this file is 1 GiB of text and used to end in "Cannot create a string longer than …".
    expect(grewMiB).toBeLessThan(900)
  })

  it('decodes only up to the cap of one frame of 400 MiB of newlines', async () => {
    const bytes = rleZstdFrame(0x0a, 400 * MiB)
    const { result, grewMiB } = await measured(() =>
      loadBytes(bytes, 'n.jsonl.zstd', { maxDecompressedBytes: 16 * MiB }),
    )
    expect(errors(result)[0]).toBe(
      "zstd frame 1 at byte 0: the file's decompressed content reached the 16 MiB cap (limits.ts), so it was cut: " +
        'kept the 16777216 complete lines of its first 128 blocks; the rest of this frame and nothing after it are not read',
    )
    expect(grewMiB).toBeLessThan(200)
  })

  it('shares one cap among 40 frames of 100 MiB each', async () => {
    const frame = rleZstdFrame(0x0a, 100 * MiB)
    const bytes = concat(Array.from({ length: 40 }, () => frame))
    const { result, grewMiB } = await measured(() =>
      loadBytes(bytes, 'n.jsonl.zstd', { maxDecompressedBytes: 150 * MiB }),
    )
    expect(errors(result)[0]).toMatch(/^zstd frame 2 at byte \d+: .* 150 MiB cap .* the 38 frames after it/)
    expect(grewMiB).toBeLessThan(700)
  })

  it('keeps the complete lines of a real log before the cap, as the plain log reads them', async () => {
    const log = readCorpus('web-goal-multi-turn-actions-session.jsonl')
    const lines = log.split(/(?<=\n)/)
    const bytes = concat(lines.map((line) => rawZstdFrame(line)))
    const cap = Math.floor(log.length / 2)
    const source = await loadBytes(bytes, 'log.jsonl.zstd', { maxDecompressedBytes: cap })
    let kept = ''
    for (const line of lines) {
      if (new TextEncoder().encode(kept + line).length > cap) break
      kept += line
    }
    const plain = loadSource(kept)
    expect(source.sessions.map((s) => s.events)).toEqual(plain.sessions.map((s) => s.events))
    expect(errors(source)[0]).toMatch(/cap .* so it was cut: no complete line fits; the rest of this frame/)
  })

  it('never trusts a frame header that declares gigabytes for a few bytes', async () => {
    // Single segment, 8-byte Frame_Content_Size of 2 GiB, one raw block of 3 bytes.
    const header = [0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0x80, 0, 0, 0, 0]
    const bytes = Uint8Array.from([...header, (3 << 3) | 1, 0, 0, 0x31, 0x32, 0x0a])
    const { result, grewMiB } = await measured(() => loadBytes(bytes, 'x.jsonl.zstd'))
    expect(result.diagnostics[0]!.message).toBe(
      'zstd frame 1 at byte 0: holds 3 bytes but its header says 2147483648',
    )
    expect(grewMiB).toBeLessThan(100)
  })

  it('inflates a zip entry step by step up to the cap, never at its declared size', async () => {
    const bomb = deflateRun(0x61, 1_000_000) // 1.6 MB inflating to 258 MB
    const zip = zipOf([{ name: 'session.jsonl', deflated: bomb, size: 0xfffffff0 }])
    const { result, grewMiB } = await measured(() =>
      loadBytes(zip, 'dsh-session-x.zip', { maxDecompressedBytes: 32 * MiB }),
    )
    expect(errors(result)[0]).toBe(
      "zip entry session.jsonl at byte 0: inflates past the 32 MiB cap on a file's decompressed content (limits.ts; " +
        'the directory says 4294967280 bytes): kept its first 33554432 bytes, the rest is not read and its CRC-32 cannot be checked',
    )
    expect(grewMiB).toBeLessThan(300)
  })

  it('keeps what inflates before a zip entry turns corrupt', async () => {
    const log = readCorpus('web-goal-multi-turn-actions-session.jsonl')
    const content = new TextEncoder().encode(log)
    const deflated = deflateSync(content).slice()
    deflated.fill(0xff, Math.floor(deflated.length * 0.6)) // the tail of the stream is garbage
    const zip = zipOf([{ name: 'session.jsonl', deflated, size: content.length, crc: crc32(content) }])
    const source = await loadBytes(zip, 'dsh-session-x.zip')
    expect(errors(source)[0]).toMatch(
      /^zip entry session.jsonl at byte 0: (cannot be inflated past its first \d+ bytes|inflated to \d+ bytes, the directory says \d+)/,
    )
    const events = source.sessions[0]!.events
    const plain = loadSource(log).sessions[0]!.events
    expect(events.length).toBeGreaterThan(0)
    expect(events.length).toBeLessThan(plain.length)
    expect(events).toEqual(plain.slice(0, events.length))
  })
})
