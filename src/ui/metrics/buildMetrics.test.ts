import { describe, expect, it } from 'vitest'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import { loadSource } from '../../formats/load'
import { be, bs, finish, sourced, tcd, td, usage } from '../../test/chunks'
import { readCorpus } from '../../test/corpus'
import fc from 'fast-check'
import { MAX_BUCKETS, MetricsCounter, buildMetrics, median } from './buildMetrics'
import { anyStream } from '../../test/arbitraries'
import { formatDuration, formatNumber } from './format'

function streams(name: string) {
  return loadSource(readCorpus(name), name).sessions[0]!.streams
}

/** Chunks at the given times (ms), seq = position. */
function timed(chunks: readonly AnyChunk[], times: readonly (number | null)[]): SourcedChunk[] {
  return chunks.map((value, seq) => ({ seq, time: times[seq] ?? null, chunk: value }))
}

describe('counts', () => {
  it('a text block and a tool call: counts per type, tool calls, usage, characters, first token', () => {
    const metrics = buildMetrics(
      sourced([
        bs(0, 'text'),
        td(0, 'Checking.'),
        be(0, { type: 'text', text: 'Checking.' }),
        bs(1, 'tool-call'),
        tcd(1, 'c1', 'bash', '{"command":'),
        tcd(1, 'c1', undefined, '"ls"}'),
        be(1, { type: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }),
        usage(120, 18),
        finish('tool-calls'),
      ]),
    )
    expect(metrics.chunks).toBe(9)
    expect(metrics.byType.map((entry) => `${entry.type} ${entry.count}`)).toEqual([
      'block-start 2',
      'text-delta 1',
      'reasoning-delta 0',
      'tool-call-delta 2',
      'block-end 2',
      'usage 1',
      'finish 1',
    ])
    expect(metrics.toolCalls).toBe(1)
    expect(metrics.usage).toEqual({ inputTokens: 120, outputTokens: 18 })
    expect(metrics.characters).toBe('Checking.{"command":"ls"}'.length)
    expect(metrics.firstToken).toEqual({ pos: 1, seq: 1 })
    expect(metrics.timing).toEqual({
      usable: false,
      reason: 'no chunk carries a time — showing counts only',
    })
  })

  it('first token: empty deltas do not count; a tool-call delta with only a name does', () => {
    const metrics = buildMetrics(
      sourced([bs(0, 'text'), td(0, ''), tcd(1, 'c1', undefined, ''), tcd(1, 'c1', 'echo', '')]),
    )
    expect(metrics.firstToken).toEqual({ pos: 3, seq: 3 })
  })

  it('unknown chunk types are counted after the seven, marked unknown; usage is last-wins', () => {
    const metrics = buildMetrics(sourced([usage(1, 2), { type: 'ping' }, usage(3, 4), { type: 'ping' }]))
    expect(metrics.byType.at(-1)).toEqual({ type: 'ping', count: 2, known: false })
    expect(metrics.byType.filter((entry) => entry.known)).toHaveLength(7)
    expect(metrics.usage).toEqual({ inputTokens: 3, outputTokens: 4 })
  })
})

describe('timing', () => {
  const stream = [
    bs(0, 'text'),
    td(0, 'Hello'),
    td(0, ', world'),
    be(0, { type: 'text', text: 'Hello, world' }),
    usage(10, 6),
    finish('stop'),
  ]

  it('a clean clock: ttft from the first chunk, duration, rates, max and median gap', () => {
    const metrics = buildMetrics(timed(stream, [1000, 1250, 1300, 1300, 1310, 3000]))
    expect(metrics.timing).toMatchObject({
      usable: true,
      excluded: null,
      ttftMs: 250,
      ttftNote: null,
      durationMs: 2000,
      tokensPerSecond: 3,
      charsPerSecond: 6,
      maxGap: { ms: 1690, pos: 5, seq: 5 },
      medianGapMs: 50,
    })
  })

  it('all-zero times (the crash-repair fixture) are no timeline, said in words', () => {
    const [attempt] = streams('headless-agent-tool-outcome-unknown-session.jsonl')
    expect(buildMetrics(attempt!.chunks).timing).toEqual({
      usable: false,
      reason: 'times in this log are not a usable timeline: 4 zero times — showing counts only',
    })
  })

  it('the corpus negative gap of −960,585,284 ms is left out and named; the rest still times', () => {
    const [attempt] = streams('acp-agent-escalation-approved-session.jsonl')
    const timing = buildMetrics(attempt!.chunks).timing
    if (!timing.usable) throw new Error(timing.reason)
    expect(timing.excluded).toBe(
      'left out of timing: 1 negative gap (−960,585,284 ms at seq 11), 2 gaps over 10 min (1,638,150,834 ms at seq 130); duration sums the usable gaps',
    )
    expect(timing.durationMs).toBeGreaterThan(0)
    expect(timing.durationMs).toBeLessThan(60_000)
    expect(timing.maxGap.ms).toBeLessThan(60_000)
  })

  it('an excluded gap before the first token makes ttft unmeasurable, not negative', () => {
    const metrics = buildMetrics(timed(stream, [5000, 4000, 4010, 4020, 4030, 4040]))
    expect(metrics.timing).toMatchObject({
      usable: true,
      ttftMs: null,
      ttftNote: 'an excluded gap comes before the first token',
      durationMs: 40,
    })
  })

  it('more excluded than usable gaps, or one shared time, is no timeline', () => {
    expect(buildMetrics(timed(stream, [9, 1, 9, 1, 9, 1])).timing).toEqual({
      usable: false,
      reason: 'times in this log are not a usable timeline: 3 negative gaps — showing counts only',
    })
    expect(buildMetrics(timed(stream, [7, 7, 7, 7, 7, 7])).timing).toEqual({
      usable: false,
      reason:
        'times in this log are not a usable timeline: all 6 timed chunks share one time — showing counts only',
    })
    expect(buildMetrics(timed([finish('stop')], [1])).timing).toEqual({
      usable: false,
      reason: 'a single chunk has no timeline',
    })
  })

  it('null and zero times are skipped: gaps run between the chunks that have one', () => {
    const metrics = buildMetrics(timed(stream, [1000, null, 0, 1100, 1150, 1200]))
    expect(metrics.timing).toMatchObject({
      usable: true,
      excluded: 'left out of timing: 1 zero time, 1 chunk without a time',
      durationMs: 200,
      ttftNote: 'the first token has no time',
    })
  })

  it('a long stream is bucketed: each bar is the longest gap in its bucket', () => {
    const chunks = Array.from({ length: 10_001 }, () => td(0, 'x'))
    const times = chunks.map((_, pos) => 1_000_000 + pos * 2 + (pos >= 5000 ? 500 : 0))
    const timing = buildMetrics(timed(chunks, times)).timing
    if (!timing.usable) throw new Error(timing.reason)
    expect(timing.buckets).toHaveLength(MAX_BUCKETS)
    expect(timing.buckets[0]!.from).toBe(1)
    expect(timing.buckets.at(-1)!.to).toBe(10_001)
    const peak = timing.buckets.find((bucket) => bucket.max === 502)!
    expect(peak.maxPos).toBe(5000)
    expect(peak.from <= 5000 && 5000 < peak.to).toBe(true)
    expect(timing.buckets.filter((bucket) => bucket.max === 2)).toHaveLength(MAX_BUCKETS - 1)
  })
})

describe('format', () => {
  it('durations and numbers read at a glance', () => {
    expect([0.5, 840, 2345, 14_230, 185_000].map(formatDuration)).toEqual([
      '0.5 ms',
      '840 ms',
      '2.35 s',
      '14.2 s',
      '3 min 5 s',
    ])
    expect([3, 12.345, 1234.5].map(formatNumber)).toEqual(['3', '12.3', '1,235'])
  })
})

describe('median', () => {
  it('selection agrees with sorting, odd and even lengths, duplicates included', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 60 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b)
        const n = sorted.length
        const expected = n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2
        expect(median(Float64Array.from(values))).toBe(expected)
      }),
    )
  })
})

describe('counting in slices', () => {
  // The panel counts a long stream over several idle slices: where the slices end must not change a figure.
  const inPieces = (chunks: readonly SourcedChunk[], cuts: readonly number[]) => {
    const counter = new MetricsCounter(chunks)
    for (const cut of [...cuts].sort((a, b) => a - b)) counter.countTo(cut)
    counter.countTo(chunks.length)
    return counter.done ? counter.result() : null
  }

  it('gives what one pass gives, on corpus streams cut anywhere', () => {
    const attempts = [
      ...streams('headless-agent-tool-outcome-unknown-session.jsonl'),
      ...streams('acp-agent-escalation-approved-session.jsonl'),
    ]
    fc.assert(
      fc.property(fc.nat(attempts.length - 1), fc.array(fc.nat(), { maxLength: 6 }), (which, cuts) => {
        const chunks = attempts[which]!.chunks
        expect(
          inPieces(
            chunks,
            cuts.map((cut) => cut % (chunks.length + 1)),
          ),
        ).toEqual(buildMetrics(chunks))
      }),
    )
  })

  it('gives what one pass gives, on random streams with random times', () => {
    fc.assert(
      fc.property(
        anyStream(40),
        fc.array(fc.option(fc.integer({ min: -5, max: 1_000_000 })), { maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 5 }),
        (chunks, times, cuts) => {
          const stream = timed(chunks, times)
          expect(inPieces(stream, cuts)).toEqual(buildMetrics(stream))
        },
      ),
    )
  })
})
