import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../registry'
import { loadSource } from '../load'
import { readCorpus } from '../../test/corpus'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
const A = '5b0e2c4a-7f3d-4c1e-9a8b-2d6f0e1c3a57'
const B = 'c81f4d2e-0a9b-4e6c-b3d7-18e5f2a9c064'
const corpus = (name: string) => loadSource(readCorpus(name))

describe('live WebSocket recordings (docs/protocol.md §10)', () => {
  it('splits sessions by id, backfills from session.history, drops duplicates by seq', () => {
    const source = loadSource(fixture('dsh-live-two-sessions.ndjson'))
    expect(source.format).toBe('dsh-live-recording')
    expect(source.sessions.map((s) => s.header?.id)).toEqual([A, B])
    expect(source.diagnostics).toEqual([
      {
        line: 37,
        severity: 'info',
        message: 'line 37: 1 server-request session/list-changed frame carried no session event',
      },
      { severity: 'info', message: `session ${B}: 3 duplicate events dropped by seq` },
    ])
  })

  it('yields the same turns, attempts and linked messages as the session logs they came from', () => {
    const source = loadSource(fixture('dsh-live-two-sessions.ndjson'))
    const pairs = [
      [source.sessions[0]!, corpus('acp-agent-empty-response-retry-session.jsonl').sessions[0]!],
      [source.sessions[1]!, corpus('acp-agent-cancel-session.jsonl').sessions[0]!],
    ] as const
    for (const [live, log] of pairs) {
      expect(live.events.map((e) => e.seq)).toEqual(log.events.map((e) => e.seq))
      expect(live.streams.map((s) => [s.id, s.kind, s.recorded?.seq ?? null])).toEqual(
        log.streams.map((s) => [s.id, s.kind, s.recorded?.seq ?? null]),
      )
      expect(live.streams.map((s) => s.chunks.map((c) => c.chunk))).toEqual(
        log.streams.map((s) => s.chunks.map((c) => c.chunk)),
      )
      expect(live.turns.map((t) => t.steps.length)).toEqual(log.turns.map((t) => t.steps.length))
    }
  })

  it('reports seq gaps and a cut last line, and keeps what it could read', () => {
    const source = loadSource(fixture('dsh-live-gap-truncated.ndjson'))
    expect(source.format).toBe('dsh-live-recording')
    expect(source.sessions).toHaveLength(2)
    const messages = source.diagnostics.map((d) => `${d.severity} ${d.message}`)
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error line 35: malformed JSON: .*\(the last line is cut short\); skipped$/),
        expect.stringContaining(`warning session ${A}: seq gaps 3 → 6`),
      ]),
    )
  })

  it('is detected from its frames and never mistaken for a session log', () => {
    expect(detectFormat(fixture('dsh-live-two-sessions.ndjson'))).toBe('dsh-live-recording')
    expect(
      detectFormat('{"type":"server-request","rpcId":"1","method":"session/event","payload":{}}\n'),
    ).toBe('dsh-live-recording')
    expect(
      detectFormat('{"type":"server-request"}\n{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}\n'),
    ).toBe('dsh-session-jsonl')
  })
})
