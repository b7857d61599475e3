import { describe, expect, it } from 'vitest'
import { be, bs, finish, sourced, td, text } from '../../test/chunks'
import { buildOverlaidLanes } from './buildOverlaidLanes'

describe('buildOverlaidLanes', () => {
  it('puts block 0 of each stream on one lane whatever its index, by position when times are unusable', () => {
    const a = sourced([bs(0, 'text'), td(0, 'a'), be(0, text('a')), finish('stop')])
    const b = sourced([bs(5, 'text'), td(5, 'a'), td(5, 'b'), be(5, text('ab')), finish('stop')])
    const lanes = buildOverlaidLanes(a, b)
    expect(lanes.axis).toBe('position in the stream')
    expect(lanes.rows).toEqual([{ a: [0, 0.25, 0.5], b: [0, 0.25, 0.5, 0.75] }])
  })

  it('uses time since the first chunk when both streams have a usable clock', () => {
    const at = (chunks: ReturnType<typeof sourced>, times: number[]) =>
      chunks.map((c, i) => ({ ...c, time: times[i]! }))
    const a = at(sourced([td(0, 'a'), td(1, 'b')]), [1000, 1100])
    const b = at(sourced([td(0, 'a'), td(1, 'b')]), [5000, 5200])
    expect(buildOverlaidLanes(a, b)).toEqual({
      axis: 'time since the first chunk',
      rows: [
        { a: [0], b: [0] },
        { a: [0.5], b: [1] },
      ],
    })
  })
})
