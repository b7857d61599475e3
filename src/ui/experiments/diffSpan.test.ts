import { describe, expect, it } from 'vitest'
import { diffSpans } from './diffSpan'

const whole = (p: { before: string; changed: string; after: string }) => p.before + p.changed + p.after

describe('diffSpans', () => {
  it('marks what lies between the common prefix and suffix, on each side', () => {
    expect(diffSpans('Hello', 'Help')).toEqual({
      a: { before: 'Hel', changed: 'lo', after: '' },
      b: { before: 'Hel', changed: 'p', after: '' },
    })
    // A repeated letter: the suffix stops where the prefix ends, so nothing is counted twice.
    expect(diffSpans('aa', 'aaa')).toEqual({
      a: { before: 'aa', changed: '', after: '' },
      b: { before: 'aa', changed: 'a', after: '' },
    })
    expect(diffSpans('same', 'same').a.changed).toBe('')
  })

  it('never cuts a surrogate pair', () => {
    // 😀 (d83d de00) and 😁 (d83d de01) share their high surrogate.
    const { a, b } = diffSpans('x😀y', 'x😁y')
    expect(a).toEqual({ before: 'x', changed: '😀', after: 'y' })
    expect(b).toEqual({ before: 'x', changed: '😁', after: 'y' })
  })

  it('random strings: each side reads back whole when short, and the spans sit where the strings differ', () => {
    let seed = 7
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed)
    const word = () => Array.from({ length: next() % 12 }, () => 'ab'[next() % 2]).join('')
    for (let i = 0; i < 500; i++) {
      const a = word()
      const b = word()
      const spans = diffSpans(a, b)
      expect(whole(spans.a)).toBe(a)
      expect(whole(spans.b)).toBe(b)
      expect(spans.a.before).toBe(spans.b.before)
      expect(spans.a.after).toBe(spans.b.after)
      expect(spans.a.changed === spans.b.changed).toBe(a === b)
    }
  })

  it('elides a long shared context', () => {
    const long = 'x'.repeat(1000)
    const { a } = diffSpans(`${long}A${long}`, `${long}B${long}`)
    expect(a.changed).toBe('A')
    expect(a.before).toBe(`…${'x'.repeat(80)}`)
    expect(a.after).toBe(`${'x'.repeat(80)}…`)
  })
})
