import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readCorpus } from '../../test/corpus'
import { loadSource } from '../load'
import { buildSharePayload, type SharePayload, type ShareScope } from './payload'
import {
  decodeShareLink,
  encodeShareLink,
  inspectShareLink,
  MIN_ITERATIONS,
  SHARE_VERSION,
} from './shareLink'

// Links written by earlier encoders: v1 (deflated JSON), v2 (the columnar layout, deflated), v3 (range-coded
// under the v3 primer, 5-byte frame) and v4 (the v4 primer, 2-byte frame), kept from before each new version: every released version keeps opening (docs/protocol.md §14). Each must open to the very
// payload the same share gives as a link of today's version.
type Fixture = {
  readonly file: string
  readonly stream: string
  readonly k: number
  readonly options: ShareScope
  readonly passphrase?: string
  readonly fragment: string
}
const fixtures = (version: number) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../../fixtures/share/v${version}-links.json`, import.meta.url), 'utf8'),
    ) as { links: Fixture[] }
  ).links.map((link): [string, number, Fixture] => [
    `v${version}: ${link.file} ${link.stream} ${JSON.stringify(link.options)}`,
    version,
    link,
  ])

/**
 * A link carries its findings in the wording of the code that wrote it (docs/protocol.md §14: a window's findings
 * travel as the sender's engine found them). Today's payload is put back into the wording the pinned links were
 * written with, one rewording since then at a time, so that every other byte is still held to them.
 */
const REWORDED: readonly { readonly rule: string; readonly now: RegExp; readonly written: string }[] = [
  {
    // A tool call's arguments that differ only in how their JSON is written now say so (§5).
    rule: 'end-content-mismatch',
    now: /^block-end for block (.+) has the arguments its deltas built, as JSON written another way; the block-end wins$/,
    written: 'block-end for block $1 differs from what its deltas built; the block-end wins',
  },
]
function asWritten<T>(value: T): T {
  if (Array.isArray(value)) return value.map(asWritten) as T
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) out[key] = asWritten(field)
  const rewording = REWORDED.find((r) => r.rule === out['rule'] && typeof out['message'] === 'string')
  if (rewording !== undefined)
    out['message'] = (out['message'] as string).replace(rewording.now, rewording.written)
  return out as T
}

describe('old links still open', () => {
  it.each([...fixtures(1), ...fixtures(2), ...fixtures(3), ...fixtures(4)])(
    '%s',
    async (_label, version, link) => {
      expect(link.fragment.startsWith(`v${version}.`)).toBe(true)
      expect(inspectShareLink(link.fragment)).toEqual({ version, encrypted: link.passphrase !== undefined })
      const passphrase = link.passphrase !== undefined ? { passphrase: link.passphrase } : {}
      const old = await decodeShareLink(`#${link.fragment}`, passphrase)
      if ('error' in old) throw new Error(old.error)
      const source = loadSource(readCorpus(link.file), link.file)
      const attempt = source.sessions[0]!.streams.find((candidate) => candidate.id === link.stream)!
      // What the old link carried is today's share less what has travelled since (a window's finding params),
      // in the wording it was written with.
      const payload = withoutCarriedParams(
        asWritten(buildSharePayload({ source, attempt, streamKey: link.stream, k: link.k }, link.options)),
      )
      const fragment = await encodeShareLink(payload, { ...passphrase, iterations: MIN_ITERATIONS })
      expect(fragment.startsWith(`v${SHARE_VERSION}.`)).toBe(true)
      // The payload is what the old link carried: today's layout is shorter, never different (v5 writes a whole
      // session's records as v4 did: no longer).
      expect(fragment.length).toBeLessThanOrEqual(link.fragment.length - (version < 4 ? 1 : 0))
      const now = await decodeShareLink(`#${fragment}`, passphrase)
      if ('error' in now) throw new Error(now.error)
      expect(old.version).toBe(version)
      expect(now.version).toBe(SHARE_VERSION)
      expect(old.payload).toEqual(now.payload)
      const { payload: _a, version: _b, source: s1, ...rest1 } = old
      const { payload: _c, version: _d, source: s2, ...rest2 } = now
      expect(rest1).toEqual(rest2)
      const opened = (s: typeof s1) => s.sessions[0]!.streams.find((a) => a.id === old.streamKey)!
      const plain = (s: typeof s1) => opened(s).chunks.map(({ seq, time, chunk }) => ({ seq, time, chunk }))
      expect(plain(s1)).toEqual(plain(s2))
      expect(opened(s1).recorded).toEqual(opened(s2).recorded)
      expect(opened(s1).window).toEqual(opened(s2).window)
      expect(s1.diagnostics).toEqual(s2.diagnostics)
    },
  )
})

// The v3, v4 and v5 links written when each came: their primers, models and constants are frozen (docs/protocol.md
// §14), so the encoder asked for that version must write a plain one byte for byte the same, and every one must
// keep opening to today's payload.
describe('v3, v4 and v5 links keep their bytes', () => {
  it.each([...fixtures(3), ...fixtures(4), ...fixtures(5)])('%s', async (_label, version, link) => {
    const source = loadSource(readCorpus(link.file), link.file)
    const attempt = source.sessions[0]!.streams.find((candidate) => candidate.id === link.stream)!
    const payload = asWritten(
      buildSharePayload({ source, attempt, streamKey: link.stream, k: link.k }, link.options),
    )
    const passphrase = link.passphrase !== undefined ? { passphrase: link.passphrase } : {}
    const opened = await decodeShareLink(`#${link.fragment}`, passphrase)
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.version).toBe(version)
    expect(opened.payload).toEqual(withoutCarriedParams(JSON.parse(JSON.stringify(payload)) as SharePayload))
    // An encrypted link has a random salt and iv: only a plain one can be written again exactly.
    const older = version === 3 || version === 4 ? { version: version as 3 | 4 } : {}
    const again = await encodeShareLink(opened.payload, {
      ...passphrase,
      iterations: MIN_ITERATIONS,
      ...older,
    })
    expect(again === link.fragment).toBe(link.passphrase === undefined)
  })
})

/**
 * A payload as links made before a window carried its outside findings' `params` and the checks' memory at its
 * start (docs/protocol.md §5, §14) had it: the same, without them. Those links open to exactly that.
 */
function withoutCarriedParams(payload: SharePayload): SharePayload {
  const window = payload.window
  if (window?.findings === undefined) return payload
  const { startChecks: _startChecks, ...rest } = window
  const findings = window.findings.map(({ params: _params, ...finding }) => finding)
  return { ...payload, window: { ...rest, findings } }
}
