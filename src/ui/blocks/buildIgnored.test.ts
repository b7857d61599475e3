import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { bs, be, sourced, tcd, td, text, toolCall } from '../../test/chunks'
import { describeIgnored } from './buildIgnored'

describe('describeIgnored', () => {
  it('says which earlier chunk decided each ignored chunk', () => {
    const engine = new ReplayEngine(
      sourced([
        bs(0, 'text'), // 0
        td(0, 'one'), // 1
        bs(0, 'reasoning'), // 2  duplicate start
        be(0, text('one')), // 3
        td(0, 'late'), // 4  straggler
        be(0, text('again')), // 5  re-close
        tcd(1, 'c1', 'echo', '{}'), // 6  implicit
        bs(1, 'tool-call'), // 7  duplicate start of an implicit block
        be(1, toolCall('c1', 'echo', '{}')), // 8
        tcd(1, 'c1', 'evil', 'oops'), // 9  straggler
      ]),
    )
    expect(engine.ignored.map((item) => `${item.seq} ${item.kind}: ${describeIgnored(item, engine)}`))
      .toMatchInlineSnapshot(`
        [
          "2 duplicate-start: block 0 was already seen at seq 0; a second block-start never retypes or reopens it",
          "4 straggler-delta: block 0 was frozen by block-end at seq 3; a text-delta after it changes nothing",
          "5 re-close: first close wins: block 0 was closed at seq 3",
          "7 duplicate-start: block 1 was already seen at seq 6 (by a tool-call-delta); a second block-start never retypes or reopens it",
          "9 straggler-delta: block 1 was frozen by block-end at seq 8; a tool-call-delta after it changes nothing",
        ]
      `)
  })

  it('uses the session seq, not the position', () => {
    const chunks = sourced([bs(0, 'text'), be(0, text('')), be(0, text('x'))]).map((c) => ({
      ...c,
      seq: c.seq + 100,
    }))
    const engine = new ReplayEngine(chunks)
    expect(describeIgnored(engine.ignored[0]!, engine)).toBe(
      'first close wins: block 0 was closed at seq 101',
    )
  })
})
