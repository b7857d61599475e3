import { describe, expect, it } from 'vitest'
import type { AnyChunk } from '../../core/protocol'
import { loadSource } from '../../formats/load'
import { readCorpus } from '../../test/corpus'
import { be, bs, finish, rd, tcd, td, text, toolCall, usage } from '../../test/chunks'
import {
  effectLabel,
  gapLabel,
  missingBefore,
  payloadMatcher,
  payloadPreview,
  runEffectLabel,
} from './describeChunk'

describe('payloadPreview', () => {
  it('says what each chunk carries, whitespace made visible', () => {
    const chunks: AnyChunk[] = [
      bs(0, 'reasoning'),
      rd(0, 'weigh\toptions\n'),
      td(1, 'Hello world'),
      tcd(2, 'call-1', 'echo', '{"text": '),
      tcd(2, '', undefined, '"hi"}'),
      be(1, text('Hello world')),
      be(2, toolCall('call-1', 'echo', '{"text": "hi"}')),
      be(3, { type: 'image', attachment: { attachmentId: 'a1', mediaType: 'image/png' } }),
      usage(10, 5, { cacheReadTokens: 3, reasoningTokens: 2 }),
      finish('error', { message: 'upstream 502', code: 'PROVIDER_HTTP_ERROR' }),
      finish('stop', { response: {} }),
      { type: 'mystery', payload: 1 },
    ]
    expect(chunks.map((chunk) => payloadPreview(chunk))).toMatchInlineSnapshot(`
      [
        "reasoning",
        ""weigh⇥options↵"",
        ""Hello·world"",
        "call-1 echo "{"text":·"",
        "id '' ""hi"}"",
        "text "Hello·world"",
        "tool-call echo(call-1) "{"text":·"hi"}"",
        "image {"type":"image","attachment":{"attachmentId":"a1","mediaType":"image/png"}}",
        "in 10 · out 5 · cache-read 3 · reasoning 2",
        "error PROVIDER_HTTP_ERROR: upstream 502",
        "stop + replayState",
        "{"type":"mystery","payload":1}",
      ]
    `)
  })

  it('bounds long text and survives malformed fields', () => {
    expect(payloadPreview(td(0, 'x'.repeat(500))).length).toBeLessThan(170)
    expect(payloadPreview({ type: 'text-delta', index: 0, text: 42 })).toBe('"42"')
    expect(payloadPreview({ type: 'block-end', index: 0 })).toBe('(no block) undefined')
  })
})

describe('payloadMatcher', () => {
  it('matches raw text case-insensitively, special characters literally', () => {
    const match = payloadMatcher('HELLO w')!
    expect(match(td(0, 'say hello world'))).toBe(true)
    expect(match(td(0, 'hello·world'))).toBe(false)
    expect(payloadMatcher('a.b')!(td(0, 'axb'))).toBe(false)
    expect(payloadMatcher('[x]')!(td(0, 'is [x] done'))).toBe(true)
    expect(payloadMatcher('')).toBeNull()
  })
})

describe('effectLabel', () => {
  it('names what the push did; ignored chunks and unknown ones are errors', () => {
    expect(effectLabel({ kind: 'append-text', implicit: true }, td(0, 'hey'))).toEqual({
      text: 'open-implicit +3 chars',
      tone: 'plain',
    })
    expect(effectLabel({ kind: 'append-arguments', implicit: false }, tcd(0, 'c', 'n', '{')).text).toBe(
      'append +1 char',
    )
    expect(effectLabel({ kind: 'close', implicit: false }, be(0, text(''))).text).toBe('close · frozen')
    expect(effectLabel({ kind: 'ignored-straggler', implicit: false }, td(0, 'x')).tone).toBe('error')
    expect(effectLabel({ kind: 'usage-replaced', implicit: false }, usage(1, 1)).tone).toBe('warning')
  })

  it('names a collapsed run by its shared effect and length', () => {
    expect(runEffectLabel({ kind: 'append-text', implicit: false }, 4)).toEqual({
      text: '4 × append',
      tone: 'plain',
    })
    expect(runEffectLabel({ kind: 'ignored-straggler', implicit: false }, 3).text).toBe(
      '3 × ignored: straggler',
    )
  })
})

describe('gapLabel', () => {
  const at = (times: (number | null)[]) => times.map((time, seq) => ({ seq, time, chunk: td(0, '') }))
  it('shows the gap to the previous chunk, flags negative ones, dashes unknown times', () => {
    const chunks = at([1000, 1003, 999, null, 5000, 70_000])
    expect([0, 1, 2, 3, 4, 5].map((pos) => gapLabel(chunks, pos))).toEqual([
      { text: '—', tone: 'muted' },
      { text: '3ms', tone: 'plain' },
      { text: '−4ms', tone: 'warning' },
      { text: '—', tone: 'muted' },
      { text: '—', tone: 'muted' },
      { text: '1m', tone: 'plain' },
    ])
  })
  it('names long gaps in hours or days and flags those past a broken clock’s bound', () => {
    const gaps = [9 * 60_000, 10 * 60_000, 90 * 60_000, 47 * 3_600_000, 29_758_313 * 60_000]
    const chunks = at(gaps.flatMap((gap) => [0, gap]))
    expect(gaps.map((_, i) => gapLabel(chunks, 2 * i + 1))).toEqual([
      { text: '9m', tone: 'plain' },
      { text: '10m', tone: 'warning' },
      { text: '1.5h', tone: 'warning' },
      { text: '47.0h', tone: 'warning' },
      { text: '20665d', tone: 'warning' },
    ])
  })
})

describe('missing seqs before a chunk', () => {
  it('marks the cordis gaps: seqs 6–86 before seq 87, 88–98 before seq 99, nothing before seq 5', () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const attempt = loadSource(readCorpus(file), file).sessions[0]!.streams[0]!
    const missing = [...attempt.recorded!.citation.missing].sort((a, b) => a - b)
    const marks = attempt.chunks.map((c, pos) => [c.seq, missingBefore(attempt.chunks, pos, missing)?.title])
    expect(marks.slice(0, 3)).toEqual([
      [5, undefined],
      [87, 'seqs 6–86 missing from the log before this chunk (cited by the recorded message)'],
      [99, 'seqs 88–98 missing from the log before this chunk (cited by the recorded message)'],
    ])
  })
})
