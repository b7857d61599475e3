import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from './analyzeStream'
import { BlockAssembler } from './BlockAssembler'
import { ReplayBuilder, ReplayEngine } from './ReplayEngine'
import { anyStream, seekMoves, seekTargets } from '../test/arbitraries'
import { be, bs, finish, rd, reasoning, sourced, td, text, usage } from '../test/chunks'
import { printFrame } from '../test/printFrame'

const straggler = sourced([
  bs(0, 'reasoning'),
  rd(0, 'weigh'),
  bs(1, 'text'),
  td(1, 'Hel'),
  be(0, reasoning('weigh')),
  td(1, 'lo'),
  be(1, text('Hello')),
  td(1, 'STRAGGLER'),
  usage(3, 2),
  finish('stop'),
])

/** The frame as a fresh replay of the first k chunks would show it, without the engine. */
function freshFrame(chunks: ReturnType<typeof sourced>, k: number) {
  const result = analyzeStream(chunks.slice(0, k))
  const { ignored, findings, ...read } = result
  void ignored
  void findings
  return read
}

describe('ReplayEngine', () => {
  it('shows each block’s partial state, frozen blocks and the ignored straggler at chosen cursors', () => {
    const engine = new ReplayEngine(straggler)
    expect(printFrame(engine.seek(0))).toMatchInlineSnapshot(`
      "k=0/10
        message: []
        finish: none; usage: null
        last: -
        findings: 0; ignored: 0"
    `)
    expect(printFrame(engine.seek(4))).toMatchInlineSnapshot(`
      "k=4/10
        [0] reasoning (open) "weigh"
        [1] text (open) "Hel"
        message: [{"type":"reasoning","text":"weigh"},{"type":"text","text":"Hel"}]
        finish: none; usage: null
        last: append-text@3
        findings: 1; ignored: 0"
    `)
    expect(printFrame(engine.seek(8))).toMatchInlineSnapshot(`
      "k=8/10
        [0] reasoning (frozen) "weigh"
        [1] text (frozen) "Hello"
        message: [{"type":"reasoning","text":"weigh"},{"type":"text","text":"Hello"}]
        finish: none; usage: null
        last: ignored-straggler@7
        findings: 2; ignored: 1"
    `)
    expect(engine.seek(10).findingCount).toBe(engine.findings.length)
    expect(engine.findings.map((f) => `${f.rule}@${f.seq}`)).toEqual([
      'blocks-overlap@2',
      'delta-after-end@7',
    ])
  })

  it('records block lives and per-chunk effects from one pass', () => {
    const engine = new ReplayEngine(straggler)
    expect(
      engine.lives.map((l) => [l.index, l.openedAt, l.closedAt, l.touches.length, l.acceptedDeltas]),
    ).toEqual([
      [0, 0, 4, 3, 1],
      [1, 2, 6, 5, 2],
    ])
    expect(engine.effectAt(7)).toEqual({ kind: 'ignored-straggler', implicit: false })
  })

  it('marks a frozen block whose block-end differs from its deltas', () => {
    const engine = new ReplayEngine(sourced([bs(0, 'text'), td(0, 'streamed'), be(0, text('stored'))]))
    const block = engine.seek(3).partials[0]
    expect(block?.differs).toBe(true)
    expect(block?.streamed).toEqual(text('streamed'))
    expect(block?.block).toEqual(text('stored'))
  })

  it('seek(k) equals a fresh replay of the first k chunks, in any seek order', () => {
    fc.assert(
      fc.property(anyStream(40), seekMoves, fc.integer({ min: 1, max: 8 }), (chunks, moves, every) => {
        const stream = sourced(chunks)
        const engine = new ReplayEngine(stream, { checkpointEvery: every })
        for (const k of seekTargets(moves, stream.length)) {
          const frame = engine.seek(k)
          const { k: _k, total, partials, last, findingCount, ignoredCount, ...read } = frame
          void [_k, total, findingCount, ignoredCount]
          expect(read).toEqual(freshFrame(stream, k))
          const fresh = new BlockAssembler()
          const effects = stream.slice(0, k).map((s) => fresh.push(s.chunk))
          expect(partials.map((p) => p.life.index)).toEqual(fresh.indexes)
          // Each block as the fresh assembler holds it, and the last chunk's effect.
          expect(
            partials.map(({ text, toolCallArguments, toolCallId, toolCallName, block }) => ({
              text,
              toolCallArguments,
              toolCallId,
              toolCallName,
              block,
            })),
          ).toEqual(
            fresh.indexes.map((index) => {
              const { text, toolCallArguments, toolCallId, toolCallName, block } = fresh.partial(index)!
              return { text, toolCallArguments, toolCallId, toolCallName, block }
            }),
          )
          expect(last?.effect ?? null).toEqual(k === 0 ? null : effects[k - 1])
        }
      }),
    )
  })

  it('seeking anywhere costs at most checkpointEvery pushes', () => {
    const chunks = sourced(Array.from({ length: 5000 }, (_, i) => td(i % 3, 'x')))
    const engine = new ReplayEngine(chunks, { checkpointEvery: 64 })
    let worst = 0
    for (const k of [4999, 3, 2500, 2501, 64, 65, 0, 5000, 1234, 1233, 4000]) {
      const before = engine.pushes
      engine.seek(k)
      worst = Math.max(worst, engine.pushes - before)
    }
    expect(worst).toBeLessThanOrEqual(64)
    // Stepping forward one chunk reuses the live state: one push.
    engine.seek(1000)
    const before = engine.pushes
    engine.seek(1001)
    expect(engine.pushes - before).toBe(1)
  })

  it('checkpoints copy only open blocks, so closed one-chunk blocks keep seeks at checkpointEvery pushes', () => {
    const chunks = sourced(Array.from({ length: 20000 }, (_, i) => be(i, text('b'))))
    const engine = new ReplayEngine(chunks, { checkpointEvery: 16 })
    const before = engine.pushes
    engine.seek(19999)
    expect(engine.pushes - before).toBeLessThanOrEqual(16)
    expect(engine.seek(20000).blocks).toHaveLength(20000)
  })

  it('spaces checkpoints by a quarter of the open blocks when a delta-only stream never closes any', () => {
    const chunks = sourced(Array.from({ length: 20000 }, (_, i) => td(i, 'x')))
    const engine = new ReplayEngine(chunks, { checkpointEvery: 16 })
    const before = engine.pushes
    engine.seek(19999)
    expect(engine.pushes - before).toBeLessThanOrEqual(20000 / 4)
    expect(engine.seek(12345)).toMatchObject({ blocks: expect.any(Array) })
    expect(engine.seek(12345).blocks).toHaveLength(12345)
  })

  it('builds the same engine when the first pass runs in slices', () => {
    const chunks = sourced([...straggler.map((s) => s.chunk), td(5, 'x'), be(5, text('y'))])
    const builder = new ReplayBuilder(chunks, { checkpointEvery: 2 })
    const progress: number[] = []
    while (!builder.advance(3)) progress.push(builder.processed)
    expect(progress).toEqual([3, 6, 9])
    const sliced = new ReplayEngine(builder)
    const whole = new ReplayEngine(chunks, { checkpointEvery: 2 })
    expect(sliced.findings).toEqual(whole.findings)
    for (let k = 0; k <= chunks.length; k++)
      expect(printFrame(sliced.seek(k))).toBe(printFrame(whole.seek(k)))
  })
})
