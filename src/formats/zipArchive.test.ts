import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { Diagnostic } from './types'
import { readZipDirectory, readZipEntry } from './zipArchive'

const enc = (text: string) => new TextEncoder().encode(text)
const mtime = new Date('2026-01-01T00:00:00Z')

describe('readZipDirectory and readZipEntry', () => {
  const zip = zipSync(
    { 'session.jsonl': enc('{"type":"session"}\n'.repeat(50)), 'media/a.bin': [enc('xyz'), { level: 0 }] },
    { mtime },
  )

  it('lists entries from the central directory and inflates one on demand', () => {
    const { entries, diagnostics } = readZipDirectory(zip)
    expect(diagnostics).toEqual([])
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['session.jsonl', 8, 950],
      ['media/a.bin', 0, 3],
    ])
    const found: Diagnostic[] = []
    expect(new TextDecoder().decode(readZipEntry(zip, entries[1]!, found)!)).toBe('xyz')
    expect(readZipEntry(zip, entries[0]!, found)!.length).toBe(950)
    expect(found).toEqual([])
  })

  it('falls back to local headers when the end of the archive is missing', () => {
    const cut = zip.subarray(0, zip.length - 30)
    const { entries, diagnostics } = readZipDirectory(cut)
    expect(entries.map((e) => e.name)).toEqual(['session.jsonl', 'media/a.bin'])
    expect(diagnostics[0]?.message).toMatch(/no end-of-central-directory record/)
  })

  it('reports an unsupported method and a bad local header without throwing', () => {
    const { entries } = readZipDirectory(zip)
    const found: Diagnostic[] = []
    expect(readZipEntry(zip, { ...entries[0]!, method: 14 }, found)).toBeNull()
    expect(readZipEntry(zip, { ...entries[0]!, offset: 5 }, found)).toBeNull()
    expect(found.map((d) => d.message)).toEqual([
      'zip entry session.jsonl at byte 0: compression method 14 is not supported (only stored and deflate); entry skipped',
      'zip entry session.jsonl at byte 5: no local header there; entry skipped',
    ])
  })
})
