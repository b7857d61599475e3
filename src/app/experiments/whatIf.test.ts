import { describe, expect, it } from 'vitest'
import { exportStream } from '../../formats/export/index'
import { loadSource } from '../../formats/load'
import { buildSharePayload } from '../../formats/share/payload'
import { decodeShareLink, encodeShareLink } from '../../formats/share/shareLink'
import { corpusWhatIfBase } from '../../test/whatIfBase'
import { DERIVED_STREAM, editedSource } from './whatIf'

const NAME = 'web-cordis-tool-round-legacy-session.jsonl'
const base = corpusWhatIfBase(NAME, 't1.s2.a1')
const entry = { key: base.streamKey, attempt: base.attempt }
const history = {
  done: [{ kind: 'drop', pos: 1 } as const, { kind: 'duplicate', pos: 0 } as const],
  undone: [],
}

describe('editedSource', () => {
  const { source, edited } = editedSource(base, history)
  const attempt = source.sessions[0]!.streams[0]!

  it('is the edited chunks with the recorded message kept, labelled as edited in its name and diagnostics', () => {
    expect(attempt.id).toBe(DERIVED_STREAM)
    expect(attempt.chunks.map((c) => c.chunk)).toEqual(edited.chunks.map((c) => c.chunk))
    expect(attempt.recorded?.content).toEqual(entry.attempt.recorded?.content)
    expect(source.name).toBe(`${NAME} (edited)`)
    expect(source.diagnostics[0]?.message).toBe(
      `edited stream: 2 edits (drop #1, duplicate #0) of ${NAME} t1.s2.a1; the recording itself is unchanged`,
    )
  })

  it('carries the label through a share link (header derivedHow, the diagnostic) and the JSONL export', async () => {
    const payload = buildSharePayload({ source, attempt, streamKey: DERIVED_STREAM, k: 2 })
    const opened = await decodeShareLink(await encodeShareLink(payload))
    if ('error' in opened) throw new Error(opened.error)
    const header = opened.source.sessions[0]!.header!
    expect(header.raw['derivedHow']).toBe('edited: 2 edits (drop #1, duplicate #0)')
    expect(header.raw['derivedFrom']).toBe(`${NAME} t1.s2.a1`)
    expect(opened.source.diagnostics.map((d) => d.message)).toContain(source.diagnostics[0]!.message)
    const jsonl = exportStream(
      { session: source.sessions[0]!, attempt, name: source.name! },
      'dsh-jsonl',
    ).text
    expect(loadSource(jsonl).sessions[0]!.header!.raw['derivedHow']).toBe(
      'edited: 2 edits (drop #1, duplicate #0)',
    )
  })
})
