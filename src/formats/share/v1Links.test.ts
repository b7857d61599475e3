import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readCorpus } from '../../test/corpus'
import { loadSource } from '../load'
import { buildSharePayload, type ShareScope } from './payload'
import { decodeShareLink, encodeShareLink, inspectShareLink, MIN_ITERATIONS } from './shareLink'

// Links written by the v1 encoder (deflated JSON), before links became v2: every released version keeps opening
// (docs/protocol.md §14). Each must open to the very payload the same share gives as a v2 link today.
type Fixture = {
  readonly file: string
  readonly stream: string
  readonly k: number
  readonly options: ShareScope
  readonly passphrase?: string
  readonly fragment: string
}
const { links } = JSON.parse(
  readFileSync(new URL('../../../fixtures/share/v1-links.json', import.meta.url), 'utf8'),
) as { links: Fixture[] }

describe('v1 links still open', () => {
  it.each(links.map((link) => [`${link.file} ${link.stream} ${JSON.stringify(link.options)}`, link]))(
    '%s',
    async (_label, link) => {
      expect(link.fragment.startsWith('v1.')).toBe(true)
      expect(inspectShareLink(link.fragment)).toEqual({
        version: 1,
        encrypted: link.passphrase !== undefined,
      })
      const passphrase = link.passphrase !== undefined ? { passphrase: link.passphrase } : {}
      const v1 = await decodeShareLink(`#${link.fragment}`, passphrase)
      if ('error' in v1) throw new Error(v1.error)
      const source = loadSource(readCorpus(link.file), link.file)
      const attempt = source.sessions[0]!.streams.find((candidate) => candidate.id === link.stream)!
      const payload = buildSharePayload({ source, attempt, streamKey: link.stream, k: link.k }, link.options)
      const fragment = await encodeShareLink(payload, {
        ...passphrase,
        iterations: MIN_ITERATIONS,
      })
      expect(fragment.startsWith('v2.')).toBe(true)
      // The payload is what a v1 link carried: the new layout is shorter, never different.
      expect(fragment.length).toBeLessThan(link.fragment.length)
      const v2 = await decodeShareLink(`#${fragment}`, passphrase)
      if ('error' in v2) throw new Error(v2.error)
      expect(v1.version).toBe(1)
      expect(v2.version).toBe(2)
      expect(v1.payload).toEqual(v2.payload)
      const { payload: _a, version: _b, source: s1, ...rest1 } = v1
      const { payload: _c, version: _d, source: s2, ...rest2 } = v2
      expect(rest1).toEqual(rest2)
      const opened = (s: typeof s1) => s.sessions[0]!.streams.find((a) => a.id === v1.streamKey)!
      const plain = (s: typeof s1) => opened(s).chunks.map(({ seq, time, chunk }) => ({ seq, time, chunk }))
      expect(plain(s1)).toEqual(plain(s2))
      expect(opened(s1).recorded).toEqual(opened(s2).recorded)
      expect(opened(s1).window).toEqual(opened(s2).window)
      expect(s1.diagnostics).toEqual(s2.diagnostics)
    },
  )
})
