import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { findExample } from '../../examples'
import { loadSource } from '../../formats/load'
import { buildNarration, questionsAt } from './buildNarration'

const straggler = loadSource(findExample('straggler')!.source())
const engine = new ReplayEngine(straggler.sessions[0]!.streams[0]!.chunks)

describe('the presenter’s narration', () => {
  it('the lesson’s words for the chunk just applied and the explanation, both in the interface language', () => {
    const frame = engine.seek(6)
    const ja = buildNarration(engine, frame, straggler.lesson, 'stream', 'ja')
    expect(ja.said).toMatch(/^アダプターが block-end の後に「0 failed.」を再送します/)
    expect(ja.did).toContain('ブロック 0 は seq 4 の block-end で確定済み')
    expect(buildNarration(engine, frame, straggler.lesson, 'stream', 'zh-CN').said).toMatch(
      /^适配器在 block-end/,
    )
    // A chunk the lesson says nothing about, another stream, or no lesson: the explanation alone.
    expect(buildNarration(engine, engine.seek(2), straggler.lesson, 'stream', 'en').said).toBeNull()
    expect(
      buildNarration(engine, frame, { ...straggler.lesson!, stream: 'other' }, 'stream', 'en').said,
    ).toBeNull()
    expect(buildNarration(engine, frame, undefined, 'stream', 'en')).toEqual({
      said: null,
      did: 'seq 5: text-delta for block 0 ignored — block 0 was frozen by block-end at seq 4.',
    })
  })

  it('questions come after their seq, the rest at the end', () => {
    expect(questionsAt(engine, 4, straggler.lesson, 'stream')).toEqual([])
    expect(questionsAt(engine, 5, straggler.lesson, 'stream').map((q) => q.after)).toEqual([4])
    const seed = loadSource(findExample('seed')!.source())
    const seedEngine = new ReplayEngine(seed.sessions[0]!.streams[0]!.chunks)
    expect(questionsAt(seedEngine, seedEngine.total, seed.lesson, 'stream').map((q) => q.after)).toEqual([
      null,
    ])
  })
})
