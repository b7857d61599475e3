import { describe, expect, it } from 'vitest'
import { loadSource } from '../formats/load'
import { corpusFiles, readCorpus } from '../test/corpus'
import { be, bs, finish, rd, sourced, tcd, td, text, toolCall, reasoning } from '../test/chunks'
import type { SourcedChunk } from './protocol'
import { compareRecorded } from './session'
import { describeCause, differingBlocks, firstDivergence } from './firstDivergence'

/** Seqs 0, 1, 2… except where `seqs` says otherwise. */
function withSeqs(chunks: SourcedChunk[], seqs: number[]): SourcedChunk[] {
  return chunks.map((c, i) => ({ ...c, seq: seqs[i] ?? c.seq }))
}

describe('first divergence on the corpus', () => {
  it('cordis t1.s1.a1: the block-end at seq 99, the deltas between seq 5 and seq 87 missing', () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const attempt = loadSource(readCorpus(file), file).sessions[0]!.streams[0]!
    const recorded = attempt.recorded!
    const found = firstDivergence({
      chunks: attempt.chunks,
      expected: recorded.content,
      missing: recorded.citation.missing,
    })
    // The log (read by hand): block-start 0 at seq 5, block-start 1 at 87, block-end 0 at 99 with a text that is
    // not how the recorded reasoning begins; the message cites seqs 6–86 and 88–98, absent from the log.
    expect(found).toMatchObject({ seq: 99, block: 0, field: 'text' })
    expect(found!.cause).toEqual({ kind: 'seq-gap', missing: expect.arrayContaining([[6, 86]]) })
    expect(describeCause(found!.cause)).toMatch(/^seqs 6–86, 88–98/)
    // Both blocks differ, and the finding names both.
    const comparison = compareRecorded(attempt)!
    expect(differingBlocks(comparison.assembled!, comparison.expected).map((d) => d.block)).toEqual([0, 1])
  })

  it('every matching corpus attempt has none; every mismatching one has one inside the attempt', () => {
    for (const file of corpusFiles()) {
      for (const attempt of loadSource(readCorpus(file), file).sessions[0]!.streams) {
        const comparison = compareRecorded(attempt)
        if (comparison === null) continue
        const found = firstDivergence({
          chunks: attempt.chunks,
          expected: attempt.recorded!.content,
          interrupted: attempt.recorded!.interrupted,
          missing: attempt.recorded!.citation.missing,
        })
        // Matching: none. Mismatching: a chunk of the attempt itself.
        const seqs = attempt.chunks.map((c) => c.seq)
        const inside = found !== null && seqs.includes(found.seq)
        expect(found === null ? 'none' : inside, `${file} ${attempt.id}`).toBe(
          comparison.match ? 'none' : true,
        )
      }
    }
  })
})

describe('first divergence by cause', () => {
  it('a seq gap inside a block: the first delta after the hole', () => {
    const chunks = withSeqs(
      sourced([bs(0, 'text'), td(0, 'Hel'), td(0, 'orld'), be(0, text('Helorld')), finish('stop')]),
      [0, 1, 5, 6, 7],
    )
    const found = firstDivergence({ chunks, expected: [text('Hello world')], missing: [2, 3, 4] })
    expect(found).toEqual({
      pos: 2,
      seq: 5,
      block: 0,
      field: 'text',
      cause: { kind: 'seq-gap', missing: [[2, 4]] },
    })
  })

  it('a straggler holding the recorded end', () => {
    const chunks = sourced([bs(0, 'text'), td(0, 'Hi'), be(0, text('Hi')), td(0, ' there'), finish('stop')])
    const found = firstDivergence({ chunks, expected: [text('Hi there')] })
    expect(found).toEqual({ pos: 2, seq: 2, block: 0, field: 'text', cause: { kind: 'straggler', seq: 3 } })
  })

  it('a first close that differs from the deltas the record follows', () => {
    const chunks = sourced([bs(0, 'text'), td(0, 'abc'), be(0, text('abX')), finish('stop')])
    const found = firstDivergence({ chunks, expected: [text('abc')] })
    expect(found).toMatchObject({ pos: 2, field: 'text', cause: { kind: 'first-close-differs' } })
  })

  it('a later close the record took: the first one wins', () => {
    const chunks = sourced([
      bs(0, 'reasoning'),
      be(0, reasoning('one')),
      be(0, reasoning('two')),
      finish('stop'),
    ])
    const found = firstDivergence({ chunks, expected: [reasoning('two')] })
    expect(found).toMatchObject({ pos: 1, cause: { kind: 'first-close-differs' } })
  })

  it('a tool call dropped by max-tokens', () => {
    const call = toolCall('c1', 'run', '{"a":1}')
    const chunks = sourced([
      bs(0, 'text'),
      td(0, 'ok'),
      be(0, text('ok')),
      bs(1, 'tool-call'),
      tcd(1, 'c1', 'run', '{"a":1}'),
      be(1, call),
      finish('max-tokens'),
    ])
    const found = firstDivergence({ chunks, expected: [text('ok'), call] })
    expect(found).toEqual({ pos: 6, seq: 6, block: 1, field: 'block', cause: { kind: 'max-tokens-drop' } })
  })

  it('a block-end re-serialising the same arguments', () => {
    const chunks = sourced([
      bs(0, 'tool-call'),
      tcd(0, 'c1', 'run', '{"a": 1}'),
      be(0, toolCall('c1', 'run', '{"a":1}')),
      finish('tool-calls'),
    ])
    const found = firstDivergence({ chunks, expected: [toolCall('c1', 'run', '{"a": 1}')] })
    // The deltas built exactly the record, so the first close is what differs; re-serialisation names how.
    expect(found).toMatchObject({ pos: 2, field: 'arguments', cause: { kind: 'first-close-differs' } })
    const other = firstDivergence({
      chunks: sourced([bs(0, 'tool-call'), be(0, toolCall('c1', 'run', '{"a":1}')), finish('tool-calls')]),
      expected: [toolCall('c1', 'run', '{ "a" : 1 }')],
    })
    expect(other).toMatchObject({ pos: 1, field: 'arguments', cause: { kind: 're-serialised-block-end' } })
  })

  it('reasoning that stops being a prefix mid-stream, no known cause', () => {
    const chunks = sourced([rd(0, 'I think'), rd(0, ' not'), finish('stop')])
    expect(firstDivergence({ chunks, expected: [reasoning('I think so')] })).toEqual({
      pos: 1,
      seq: 1,
      block: 0,
      field: 'text',
      cause: null,
    })
  })
})
