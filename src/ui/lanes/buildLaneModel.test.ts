import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import type { AnyChunk } from '../../core/protocol'
import { be, bs, finish, rd, sourced, td, text, reasoning } from '../../test/chunks'
import { generateStream } from '../../test/generate'
import { loadSource } from '../../formats/load'
import { readCorpus } from '../../test/corpus'
import { MAX_BUCKETS, buildLaneModel, bucketOf, describeLanes } from './buildLaneModel'

const engineOf = (chunks: AnyChunk[]) => new ReplayEngine(sourced(chunks))

// 0 bs0 · 1–2 rd0 · 3 be0 · 4 td1 (implicit open) · 5 td1 · 6 be1 · 7 td1 straggler · 8 be1 reclose · 9 td2 · 10 finish
const engine = engineOf([
  bs(0, 'reasoning'),
  rd(0, 'a'),
  rd(0, 'b'),
  be(0, reasoning('ab')),
  td(1, 'x'),
  td(1, 'y'),
  be(1, text('xy')),
  td(1, 'late'),
  be(1, text('again')),
  td(2, 'open'),
  finish('stop'),
])

describe('buildLaneModel', () => {
  const model = buildLaneModel(engine)

  it('has one lane per block index, in first-seen order, with its extent', () => {
    expect(
      model.lanes.map(({ label, implicit, openedAt, closedAt, end }) => ({
        label,
        implicit,
        openedAt,
        closedAt,
        end,
      })),
    ).toEqual([
      { label: '0 reasoning', implicit: false, openedAt: 0, closedAt: 3, end: 4 },
      { label: '1 text', implicit: true, openedAt: 4, closedAt: 6, end: 7 },
      { label: '2 text', implicit: true, openedAt: 9, closedAt: null, end: 11 },
    ])
  })

  it('counts accepted deltas per bucket (one chunk per bucket in a short stream)', () => {
    expect(model.buckets).toBe(11)
    const lane = model.lanes[1]!
    expect(lane.firstBucket).toBe(4)
    // td1 x (implicit open, accepted), td1 y, be1, straggler, re-close: ticks only for accepted deltas.
    expect([...lane.ticks]).toEqual([1, 1, 0, 0, 0])
    expect([...model.lanes[0]!.ticks]).toEqual([0, 1, 1, 0])
  })

  it('lists the ignored chunks after the freeze (stragglers and re-closes)', () => {
    expect([...model.lanes[1]!.ignored]).toEqual([7, 8])
    expect([...model.lanes[0]!.ignored]).toEqual([])
  })

  it('buckets a million-chunk stream into at most MAX_BUCKETS columns', () => {
    const big = { total: 1_000_000, buckets: MAX_BUCKETS }
    expect(bucketOf(big, 0)).toBe(0)
    expect(bucketOf(big, 999_999)).toBe(MAX_BUCKETS - 1)
    const long = buildLaneModel(new ReplayEngine(generateStream(20_000, 400)))
    expect(long.buckets).toBe(MAX_BUCKETS)
    const deltas = long.lanes.reduce((sum, lane) => sum + lane.ticks.reduce((a, b) => a + b, 0), 0)
    expect(deltas).toBe(20_000 - 2 - long.lanes.length * 2)
    // A 400-delta lane spans ~82 of the 4096 buckets, not 4096.
    expect(long.lanes[0]!.ticks.length).toBeLessThan(100)
  })
})

describe('describeLanes', () => {
  it('summarises every lane for the canvas text alternative', () => {
    const model = buildLaneModel(engine)
    expect(describeLanes(model, (pos) => engine.chunks.at(pos)?.seq)).toBe(
      '3 blocks: 0 reasoning frozen at seq 3, 1 text frozen at seq 6, opened implicitly (2 ignored), ' +
        '2 text open (never closed), opened implicitly',
    )
    expect(describeLanes(model, () => undefined, 1)).toBe('3 blocks: 0 reasoning frozen at seq 3, and 2 more')
    expect(describeLanes(buildLaneModel(engineOf([])), () => 0)).toBe('No blocks')
  })
})

describe('seqs missing from the log', () => {
  it('marks the chunks of the cordis attempt that follow the missing seqs it cites', () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const attempt = loadSource(readCorpus(file), file).sessions[0]!.streams[0]!
    const missing = [...attempt.recorded!.citation.missing].sort((a, b) => a - b)
    // Chunks at seq 5, 87, 99, …: 6–86 are missing before position 1, 88–98 before position 2.
    expect(buildLaneModel(new ReplayEngine(attempt.chunks), missing).holes).toEqual([1, 2])
    expect(buildLaneModel(new ReplayEngine(attempt.chunks)).holes).toBeUndefined()
  })
})
