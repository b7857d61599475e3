import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { exportStream } from '../../formats/export/index'
import { buildSharePayload, openSharePayload, type ShareScope } from '../../formats/share/payload'
import { FULL_REDACTION } from '../../formats/share/redact'
import { decodeShareLink, encodeShareLink, SHARE_VERSION } from '../../formats/share/shareLink'
import { listStreams } from '../../formats/streamRefs'
import { corpusWhatIfBase } from '../../test/whatIfBase'
import { DERIVED_STREAM, editedSource } from './whatIf'

const NAME = 'acp-agent-persistent-pwsh-tool-turn-session.jsonl'
const base = corpusWhatIfBase(NAME, 't1.s1.a1')
const recording = base.source
const entry = { key: base.streamKey, attempt: base.attempt }
const { source } = editedSource(base, {
  done: [
    { kind: 'drop', pos: 3 },
    { kind: 'move', from: 5, to: 2 },
  ],
  undone: [],
})
const attempt = source.sessions[0]!.streams[0]!
const LABEL = 'edited: 2 edits (drop #3, move #5 → #2)'

async function share(options: ShareScope) {
  const payload = buildSharePayload({ source, attempt, streamKey: DERIVED_STREAM, k: 4 }, options)
  const opened = await decodeShareLink(await encodeShareLink(payload))
  if ('error' in opened) throw new Error(opened.error)
  return opened
}

describe('an edited stream keeps its label in every scope of a share link (payload field "derived")', () => {
  it.each<[string, ShareScope]>([
    ['the whole log', { scope: 'session' }],
    ['only this attempt', { scope: 'stream' }],
    ['a window', { window: { from: 2, to: 6 } }],
    ['redacted, only this attempt', { scope: 'stream', redact: FULL_REDACTION }],
  ])('%s', async (_label, options) => {
    expect(source.derived).toBe(LABEL)
    const opened = await share(options)
    expect(opened.version).toBe(SHARE_VERSION)
    expect(opened.source.derived).toBe(LABEL)
    expect(opened.source.name).toBe(`${NAME} (edited)`)
    // The stream itself is the edited one, not the recording.
    const shared = listStreams(opened.source).find((e) => e.key === opened.streamKey)!.attempt
    const from = 'window' in options && options.window !== undefined ? options.window.from : 0
    const to = 'window' in options && options.window !== undefined ? options.window.to : attempt.chunks.length
    expect(shared.chunks.map((c) => c.chunk.type)).toEqual(
      attempt.chunks.slice(from, to).map((c) => c.chunk.type),
    )
  })

  it('a recording carries no label, and opens with none', async () => {
    const payload = buildSharePayload({
      source: recording,
      attempt: entry.attempt,
      streamKey: entry.key,
      k: 4,
    })
    expect(payload).not.toHaveProperty('derived')
    const opened = await decodeShareLink(await encodeShareLink(payload))
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.source.derived).toBeUndefined()
  })

  it('v1 links written before the field existed still open, unlabelled and without a new diagnostic', async () => {
    const { links } = JSON.parse(
      readFileSync(new URL('../../../fixtures/share/v1-links.json', import.meta.url), 'utf8'),
    ) as { links: { fragment: string; passphrase?: string }[] }
    const plain = links.filter((link) => link.passphrase === undefined)
    expect(plain.length).toBeGreaterThan(0)
    for (const link of plain) {
      const opened = await decodeShareLink(`#${link.fragment}`)
      if ('error' in opened) throw new Error(opened.error)
      expect(opened.version).toBe(1)
      expect(opened.source.derived).toBeUndefined()
      expect(opened.source.diagnostics.map((d) => d.message).join('\n')).not.toContain('derived')
    }
  })

  it('a label that is not text is reported and left out; the stream still opens', () => {
    const payload = buildSharePayload(
      { source, attempt, streamKey: DERIVED_STREAM, k: 4 },
      { scope: 'stream' },
    )
    const opened = openSharePayload({ ...payload, derived: { how: 'x' } })
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.source.derived).toBeUndefined()
    expect(opened.source.diagnostics.map((d) => d.message)).toContain(
      `the link's "derived" label is not text: opened without it`,
    )
    const long = openSharePayload({ ...payload, derived: 'x'.repeat(5000) })
    if ('error' in long) throw new Error(long.error)
    expect(long.source.derived?.length).toBe(501)
  })

  it('the vitest export names it in its header comment', () => {
    const text = exportStream(
      { session: source.sessions[0]!, attempt, name: source.name!, derived: source.derived! },
      'vitest',
    ).text
    expect(text.split('\n')[1]).toBe(`// An edited stream, not a recording: ${LABEL}.`)
    const recorded = exportStream(
      { session: recording.sessions[0]!, attempt: entry.attempt, name: NAME },
      'vitest',
    )
    expect(recorded.text).not.toContain('An edited stream')
  })
})
