import { describe, expect, it } from 'vitest'
import { attemptDivergence } from '../../core/firstDivergence'
import { readFileSync } from 'node:fs'
import { compareRecorded } from '../../core/session'
import { loadSource } from '../load'
import { readCorpus } from '../../test/corpus'
import { buildSharePayload, openSharePayload } from './payload'

const FILE = 'acp-agent-persistent-pwsh-tool-turn-session.jsonl'

function windowPayload() {
  const source = loadSource(readCorpus(FILE), FILE)
  const attempt = source.sessions[0]!.streams[0]!
  const payload = buildSharePayload(
    { source, attempt, streamKey: attempt.id, k: 47 },
    { window: { from: 43, to: 48 } },
  )
  return JSON.parse(JSON.stringify(payload)) as Record<string, Record<string, unknown>>
}

describe('the attempt context a link carries', () => {
  it('a window carries the end state, the outside findings and the recorded message', () => {
    const payload = windowPayload()
    expect(payload['window']!['end']).toMatchObject({ finish: { kind: 'tool-calls' } })
    expect(payload['attempt']).toMatchObject({ turn: 1, step: 1, attempt: 1, kind: 'first' })
    const opened = openSharePayload(payload)
    if ('error' in opened) throw new Error(opened.error)
    const shared = opened.source.sessions[0]!.streams[0]!
    expect(shared.window).toMatchObject({ from: 43, total: 49, endFrom: expect.any(Number) })
    expect(shared.recorded).toMatchObject({ seq: expect.any(Number), interrupted: false })
  })

  it('a link from before the context travelled still opens, with what it has', () => {
    const payload = windowPayload()
    const { attempt: _a, diagnostics: _d, ...old } = payload
    const {
      end: _e,
      findings: _f,
      endFrom: _n,
      lastSeq: _l,
      divergence: _v,
      endBuilt: _b,
      ...window
    } = payload['window']!
    const opened = openSharePayload({ ...old, window })
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.source.sessions[0]!.streams[0]!.window).toBeUndefined()
    expect(opened.source.sessions[0]!.streams[0]!.recorded).toBeNull()
  })

  it('a damaged carried end is refused in words; damaged recorded fields are left out, odd blocks kept', () => {
    const payload = windowPayload()
    expect(openSharePayload({ ...payload, window: { ...payload['window'], end: 5 } })).toEqual({
      error: 'the link’s carried end of the stream is malformed',
    })
    const findings = [{ rule: 'no-such-rule', seq: 1, pos: 1, message: 'x' }]
    expect(openSharePayload({ ...payload, window: { ...payload['window'], findings } })).toEqual({
      error: 'the link’s carried end of the stream is malformed',
    })
    const recorded = { seq: 9, content: [5, { type: 'text', text: 'a' }], citation: 'nonsense' }
    const opened = openSharePayload({ ...payload, attempt: { ...payload['attempt'], recorded } })
    if ('error' in opened) throw new Error(opened.error)
    // A `5` among the blocks is what a log can record (the sender's reader keeps it): it is compared as it is.
    expect(opened.source.sessions[0]!.streams[0]!.recorded).toMatchObject({
      seq: 9,
      content: [5, { type: 'text', text: 'a' }],
      citation: { missing: [], foreign: [], uncited: [] },
    })
  })
})

describe('a bare stream with a recorded message', () => {
  it('an AI SDK devtools generation shared alone keeps its recorded message and the comparison', () => {
    const file = new URL('../fixtures/wire/devtools-generations.json', import.meta.url)
    const source = loadSource(readFileSync(file, 'utf8'), 'devtools-generations.json')
    const attempt = source.sessions[0]!.streams.find((stream) => stream.recorded !== null)!
    expect(attempt.kind).toBe('stream')
    for (const scope of [{ scope: 'stream' as const }, { window: { from: 0, to: 1 } }]) {
      const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: 0 }, scope)
      const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
      if ('error' in opened) throw new Error(opened.error)
      const shared = opened.source.sessions[0]!.streams[0]!
      expect(shared.recorded?.content).toEqual(attempt.recorded!.content)
      expect(compareRecorded(shared)?.match).toBe(compareRecorded(attempt)?.match)
    }
  })
})

describe('the diagnostics a link carries', () => {
  it('a chunk the sender’s reader warned about is not warned about again in other words', () => {
    const lines = [
      { type: 'text-delta', index: 0, text: [1] },
      { type: 'finish', reason: { kind: 'stop' } },
    ]
    const source = loadSource(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', 'odd.ndjson')
    const attempt = source.sessions[0]!.streams[0]!
    expect(source.diagnostics.map((d) => d.message)).toEqual([
      'line 1: text-delta has no string "text" (got array)',
    ])
    for (const scope of [{ scope: 'stream' as const }, { window: { from: 1, to: 2 } }]) {
      const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: 1 }, scope)
      const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
      if ('error' in opened) throw new Error(opened.error)
      expect(opened.source.diagnostics).toEqual(source.diagnostics)
    }
  })
})

describe('a recorded message with odd blocks', () => {
  it('travels as recorded, so the opener compares it as the sender did', () => {
    // A block-end whose block is `5` stores it (docs/protocol.md §3); the log recorded it too, beside a changed text.
    const chunks = [
      { type: 'block-start', index: 0, blockType: 'text' },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'block-end', index: 0, block: { type: 'text', text: 'a' } },
      { type: 'reasoning-delta', index: 1, text: 'I' },
      { type: 'block-end', index: 1, block: 5 },
    ]
    const content = [{ type: 'text', text: 'aZ' }, 5]
    const lines = [
      { type: 'session', version: 0, id: 's', createdAt: 0, cwd: '/' },
      { type: 'turn/start', seq: 1, time: 1, data: { turn: 1 } },
      { type: 'step/start', seq: 2, time: 2, data: { turn: 1, step: 1 } },
      ...chunks.map((chunk, i) => ({
        type: 'assistant/chunk',
        seq: 3 + i,
        time: 3 + i,
        data: { turn: 1, step: 1, chunk },
      })),
      {
        type: 'assistant/message',
        seq: 8,
        time: 8,
        data: { turn: 1, step: 1, message: { role: 'assistant', content } },
        sourceEventSeqs: [3, 4, 5, 6, 7],
      },
    ]
    const source = loadSource(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', 'log.jsonl')
    const attempt = source.sessions[0]!.streams[0]!
    expect(attempt.recorded!.content).toEqual(content)
    const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: 0 }, { scope: 'stream' })
    const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
    if ('error' in opened) throw new Error(opened.error)
    const shared = opened.source.sessions[0]!.streams[0]!
    expect(shared.recorded!.content).toEqual(content)
    expect(compareRecorded(shared)).toEqual(compareRecorded(attempt))
    expect(attemptDivergence(shared)).toEqual(attemptDivergence(attempt))
  })
})
