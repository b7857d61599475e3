import { describe, expect, it } from 'vitest'
import { formatPlace, parsePlace } from './urlState'

describe('URL fragment place', () => {
  it('round-trips stream, cursor and source', () => {
    const place = { file: 'my log.jsonl', stream: '1/t1.s2.a1', k: 41 }
    expect(formatPlace(place)).toBe('#f=my+log.jsonl&s=1/t1.s2.a1&k=41')
    expect(parsePlace(formatPlace(place))).toEqual(place)
    expect(parsePlace('#ex=seed&s=stream&k=0')).toEqual({ example: 'seed', stream: 'stream', k: 0 })
  })

  it('names the live captures as #live', () => {
    const place = { live: true, stream: '1/t1.s1.a2', k: 12 } as const
    expect(formatPlace(place)).toBe('#live&s=1/t1.s1.a2&k=12')
    expect(parsePlace('#live&s=1/t1.s1.a2&k=12')).toEqual(place)
    expect(formatPlace({ live: true })).toBe('#live')
  })

  it('ignores a cursor that is not a whole number', () => {
    expect(parsePlace('#s=stream&k=-3')).toEqual({ stream: 'stream' })
    expect(parsePlace('#k=abc')).toEqual({})
  })
})
