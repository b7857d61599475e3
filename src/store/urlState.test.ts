import { describe, expect, it } from 'vitest'
import { formatPlace, parsePlace } from './urlState'

describe('URL fragment place', () => {
  it('round-trips stream, cursor and source', () => {
    const place = { file: 'my log.jsonl', stream: '1/t1.s2.a1', k: 41 }
    expect(formatPlace(place)).toBe('#f=my+log.jsonl&s=1/t1.s2.a1&k=41')
    expect(parsePlace(formatPlace(place))).toEqual(place)
    expect(parsePlace('#ex=seed&s=stream&k=0')).toEqual({ example: 'seed', stream: 'stream', k: 0 })
  })

  it('ignores a cursor that is not a whole number', () => {
    expect(parsePlace('#s=stream&k=-3')).toEqual({ stream: 'stream' })
    expect(parsePlace('#k=abc')).toEqual({})
  })
})
