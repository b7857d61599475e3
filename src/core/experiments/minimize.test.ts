import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../analyzeStream'
import { RULES, type RuleId } from '../checks'
import { loadSource } from '../../formats/load'
import { anyStream } from '../../test/arbitraries'
import { be, bs, finish, sourced, td, text, usage } from '../../test/chunks'
import { readCorpus } from '../../test/corpus'
import { ddmin } from './ddmin'
import { keepTest, parseKeep, renumbered, type KeepProperty } from './keep'
import { minimizeStream } from './minimize'

describe('ddmin', () => {
  it('finds the two items a test needs, whatever the rest', () => {
    const items = Array.from({ length: 64 }, (_, i) => i)
    const result = ddmin(items, (xs) => xs.includes(17) && xs.includes(42))
    expect(result.items).toEqual([17, 42])
    expect(result.kept).toEqual([17, 42])
  })

  it('never tests the same subset twice and stops when asked', () => {
    const seen = new Set<string>()
    let calls = 0
    const result = ddmin(
      Array.from({ length: 40 }, (_, i) => i),
      (xs) => {
        const key = xs.join(',')
        expect(seen.has(key)).toBe(false)
        seen.add(key)
        calls += 1
        return xs.includes(3)
      },
      { shouldStop: () => calls >= 3 },
    )
    expect(result.cancelled).toBe(true)
    expect(result.steps).toBe(3)
    expect(result.items).toContain(3)
  })
})

/** Whether removing any single chunk of a minimal stream loses the property (1-minimality). */
function isOneMinimal(chunks: ReturnType<typeof sourced>, test: (c: ReturnType<typeof sourced>) => boolean) {
  return chunks.every((_, drop) => !test(renumbered(chunks.filter((__, i) => i !== drop))))
}

describe('minimizeStream', () => {
  it('is 1-minimal and keeps the property on random streams where a rule fires', () => {
    const rules = Object.keys(RULES).filter((rule) => rule !== 'recorded-mismatch') as RuleId[]
    fc.assert(
      fc.property(anyStream(40), fc.nat(), (chunks, pick) => {
        const stream = sourced(chunks)
        const fired = [...new Set(analyzeStream(stream).findings.map((f) => f.rule))].filter((r) =>
          rules.includes(r),
        )
        fc.pre(fired.length > 0)
        const property: KeepProperty = { kind: 'finding', rule: fired[pick % fired.length]! }
        const result = minimizeStream(stream, null, property)
        if (typeof result === 'string') throw new Error(result)
        const test = keepTest(property, null, stream) as (c: typeof stream) => boolean
        expect(test(result.chunks)).toBe(true)
        expect(isOneMinimal(result.chunks, test)).toBe(true)
        expect(result.chunks.length).toBeLessThanOrEqual(stream.length)
      }),
      { numRuns: 150 },
    )
  })

  it('keeps a straggler stream down to the chunks that make delta-after-end', () => {
    const stream = sourced([
      bs(0, 'text'),
      td(0, 'Hel'),
      td(0, 'lo'),
      be(0, text('Hello')),
      td(0, '!'),
      usage(3, 2),
      finish('stop'),
    ])
    const result = minimizeStream(stream, null, { kind: 'finding', rule: 'delta-after-end' })
    expect(typeof result === 'string' ? result : result.chunks.map((c) => c.chunk.type)).toEqual([
      'block-end',
      'text-delta',
    ])
  })

  it('shrinks a recorded mismatch of the corpus and keeps its field and cause', () => {
    const source = loadSource(readCorpus('web-cordis-tool-round-legacy-session.jsonl'))
    const attempt = source.sessions[0]!.streams.find((a) => {
      if (a.recorded === null) return false
      const test = keepTest({ kind: 'recorded-mismatch' }, a.recorded, a.chunks)
      return typeof test !== 'string' && test(renumbered(a.chunks))
    })!
    const result = minimizeStream(attempt.chunks, attempt.recorded, { kind: 'recorded-mismatch' })
    if (typeof result === 'string') throw new Error(result)
    const test = keepTest({ kind: 'recorded-mismatch' }, attempt.recorded, attempt.chunks)
    if (typeof test === 'string') throw new Error(test)
    expect(result.chunks.length).toBeLessThan(attempt.chunks.length)
    expect(test(result.chunks)).toBe(true)
    expect(isOneMinimal(result.chunks, test)).toBe(true)
  })

  it('says so when the stream lacks the property or has no record', () => {
    const stream = sourced([bs(0, 'text'), td(0, 'hi'), be(0, text('hi')), usage(1, 1), finish('stop')])
    expect(minimizeStream(stream, null, { kind: 'throws' })).toBe(
      'the stream does not have the property throws: nothing to keep',
    )
    expect(minimizeStream(stream, null, { kind: 'recorded-mismatch' })).toMatch(/no recorded message/)
  })
})

describe('parseKeep', () => {
  it('reads the four forms and names what is wrong', () => {
    expect(parseKeep('text:hello')).toEqual({ kind: 'text', text: 'hello' })
    expect(parseKeep('throws')).toEqual({ kind: 'throws' })
    expect(parseKeep('finding:start-duplicate')).toEqual({ kind: 'finding', rule: 'start-duplicate' })
    expect(parseKeep('finding:nope')).toMatch(/^unknown rule "nope"/)
    expect(parseKeep('whatever')).toMatch(/^unknown property "whatever": expected recorded-mismatch/)
  })
})
