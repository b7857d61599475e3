import { describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { be, bs, finish, sourced, tcd, td, text, toolCall, usage } from '../../test/chunks'
import { readCorpus } from '../../test/corpus'
import { chunkChaos, chunkVariant } from './chunkChaos'

const stream = sourced([
  bs(0, 'text'),
  td(0, 'Hello, '),
  td(0, 'wörld ☕'),
  be(0, text('Hello, wörld ☕')),
  bs(1, 'tool-call'),
  tcd(1, 'call_1', 'read', '{"path":'),
  tcd(1, 'call_1', undefined, '"a.txt"}'),
  be(1, toolCall('call_1', 'read', '{"path":"a.txt"}')),
  usage(10, 5),
  finish('tool-calls'),
])

describe('chunkChaos', () => {
  const report = chunkChaos(stream, { seed: 42 })
  const byKind = (kind: string) => report.variants.filter((v) => v.kind === kind)

  it('re-split and merged deltas assemble to the same message (deltas concatenate, docs/protocol.md §3)', () => {
    expect(byKind('split-deltas').length).toBeGreaterThan(0)
    for (const v of [...byKind('split-deltas'), ...byKind('merge-deltas')]) expect(v.diff).toBeNull()
  })

  it('a straggler is ignored after block-end and a second block-end loses to the first (§3 A2, A3)', () => {
    for (const v of byKind('straggler'))
      expect(v.diff).toMatchObject({ message: false, gained: ['delta-after-end'] })
    for (const v of byKind('re-close'))
      expect(v.diff).toMatchObject({ message: false, gained: ['end-duplicate'] })
    for (const v of byKind('duplicate-start')) expect(v.diff?.gained).toContain('start-duplicate')
  })

  it('usage after the finish is still read, and flagged (§3 A5: last usage wins)', () => {
    expect(byKind('usage-after-finish')[0]?.diff).toMatchObject({
      message: false,
      gained: ['chunk-after-finish'],
    })
  })

  it('lists the variants that change the message first and reproduces each from its seed', () => {
    const ranks = report.variants.map((v) => (v.diff === null ? 2 : v.diff.message ? 0 : 1))
    expect(ranks).toEqual([...ranks].sort())
    for (const v of report.variants) expect(chunkVariant(stream, v.kind, v.seed)?.chunks).toEqual(v.chunks)
    expect(chunkChaos(stream, { seed: 42 })).toEqual(report)
  })

  it('varies every stream of a corpus log without a throw and keeps split deltas harmless', () => {
    const source = loadSource(readCorpus('acp-agent-parallel-tool-calls-session.jsonl'))
    for (const attempt of source.sessions[0]!.streams) {
      const run = chunkChaos(attempt.chunks, { seed: 1 })
      expect(run.variants.filter((v) => v.kind === 'split-deltas' && v.diff !== null)).toEqual([])
    }
  })
})
