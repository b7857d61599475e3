import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../core/protocol'
import { ReplayEngine } from '../../core/ReplayEngine'
import { EXAMPLES } from '../../examples'
import { loadSource } from '../../formats/load'
import { knownStream } from '../../test/arbitraries'
import { be, bs, finish, sourced, td, text, usage } from '../../test/chunks'
import { buildPrediction, type Outcome } from './buildPrediction'

/**
 * The assembler's rules as the seed chapter (seeds/002) states them, written out independently of the engine: the
 * first sight of an index opens it (`ensure`), a frozen block ignores deltas and further block-ends, a second
 * block-start is ignored, the last usage and finish win.
 */
function byTheRules(chunks: readonly StreamChunk[]): Outcome[] {
  const frozen = new Map<number, boolean>()
  let usageSeen = false
  let finishSeen = false
  return chunks.map((chunk): Outcome => {
    switch (chunk.type) {
      case 'block-start':
        if (frozen.has(chunk.index)) return 'ignored-duplicate-start'
        frozen.set(chunk.index, false)
        return 'open'
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta': {
        const state = frozen.get(chunk.index)
        if (state === undefined) frozen.set(chunk.index, false)
        return state === undefined ? 'open-append' : state ? 'ignored-straggler' : 'append'
      }
      case 'block-end': {
        const state = frozen.get(chunk.index)
        frozen.set(chunk.index, true)
        return state === undefined ? 'open-freeze' : state ? 'ignored-reclose' : 'freeze'
      }
      case 'usage':
        return usageSeen ? 'usage-replaced' : ((usageSeen = true), 'usage-set')
      case 'finish':
        return finishSeen ? 'finish-replaced' : ((finishSeen = true), 'finish-set')
    }
  })
}

const predictions = (engine: ReplayEngine) =>
  Array.from({ length: engine.total }, (_, k) => buildPrediction(engine, k)!)

describe('predict the next chunk: the answer comes from the replay, the choices from the chunk type', () => {
  it('a straggler, a re-close and a duplicate start, as the rules say', () => {
    const chunks = [
      bs(0, 'text'),
      td(0, 'a'),
      be(0, text('a')),
      td(0, 'late'),
      be(0, text('other')),
      bs(0, 'reasoning'),
      td(1, 'implicit'),
      usage(1, 1),
      usage(2, 2),
      finish('stop'),
    ]
    const engine = new ReplayEngine(sourced(chunks))
    expect(predictions(engine).map((p) => p.answer)).toEqual([
      'open',
      'append',
      'freeze',
      'ignored-straggler',
      'ignored-reclose',
      'ignored-duplicate-start',
      'open-append',
      'usage-set',
      'usage-replaced',
      'finish-set',
    ])
    expect(buildPrediction(engine, 3)).toMatchObject({
      seq: 3,
      chunkType: 'text-delta',
      index: 0,
      choices: ['append', 'open-append', 'ignored-straggler'],
    })
    expect(buildPrediction(engine, engine.total)).toBeNull()
  })

  it('random streams: the answer is always among the choices and agrees with the rules', () => {
    fc.assert(
      fc.property(knownStream, (chunks) => {
        const engine = new ReplayEngine(sourced(chunks))
        const all = predictions(engine)
        for (const p of all) expect(p.choices).toContain(p.answer)
        expect(all.map((p) => p.answer)).toEqual(byTheRules(chunks))
      }),
      { numRuns: 300 },
    )
  })

  it('every built-in lesson, every step: two or more choices, the answer among them', () => {
    for (const example of EXAMPLES) {
      for (const stream of loadSource(example.source()).sessions.flatMap((s) => s.streams)) {
        for (const p of predictions(new ReplayEngine(stream.chunks))) {
          expect(p.choices.length).toBeGreaterThanOrEqual(2)
          expect(p.choices).toContain(p.answer)
        }
      }
    }
  })
})
