import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { heldChunkCode } from '../core/columnWriter'
import { eachFlatRun } from './flatRuns'
import { flatRunText } from '../test/flatRunLines'
import { eachLine } from './json'

type Outcome = { taken: true; value: unknown } | { taken: false; number: number; line: string }

/** What eachFlatRun gives: each value a run took, each line it visited alone, in order. */
function runs(text: string): Outcome[] {
  const out: Outcome[] = []
  eachFlatRun(text, (line, number) => out.push({ taken: false, number, line }), {
    code: heldChunkCode,
    take: (value, code) => {
      expect(code).toBe(heldChunkCode(value))
      out.push({ taken: true, value })
    },
  })
  return out
}

/** The same text line by line (eachLine and JSON.parse of each line alone), as the outcomes runs may give. */
function alone(text: string): { number: number; line: string; value?: unknown }[] {
  const out: { number: number; line: string; value?: unknown }[] = []
  eachLine(text, (line, number) => {
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      return void out.push({ number, line })
    }
    out.push({ number, line, value })
  })
  return out
}

describe('runs of lines parsed in one JSON.parse call ≡ each line parsed alone', () => {
  it('on random chunk NDJSON with lines made to merge, split or fool a run', () => {
    let taken = 0
    fc.assert(
      fc.property(flatRunText, (text) => {
        const got = runs(text)
        const want = alone(text)
        taken += got.filter((outcome) => outcome.taken).length
        // A value taken from a run: the line alone parses to an equal value (−0 and key order included), held.
        const seen = got.map((outcome) =>
          outcome.taken
            ? { held: true, value: outcome.value, keys: Object.keys(outcome.value as object) }
            : outcome,
        )
        const expected = got.map((outcome, k) => {
          const line = want[k]
          if (!outcome.taken || line === undefined)
            return line && { taken: false, number: line.number, line: line.line }
          const held = 'value' in line && heldChunkCode(line.value) !== 0
          return { held, value: line.value, keys: held ? Object.keys(line.value as object) : [] }
        })
        expect(seen).toStrictEqual(expected)
        expect(got).toHaveLength(want.length)
      }),
      { numRuns: 300 },
    )
    expect(taken).toBeGreaterThan(5_000)
  })

  it('takes a file of held chunks without visiting a line, and visits every line of a run one line spoils', () => {
    const line = '{"type":"text-delta","index":0,"text":"a"}'
    const text = `${line}\n`.repeat(300)
    expect(runs(text).every((outcome) => outcome.taken)).toBe(true)
    // Two values on one line parse inside a run (as two elements) but not alone: its whole run goes line by line.
    const spoiled = runs(`${line}\n${line},${line}\n${line}\n`)
    expect(spoiled.map((outcome) => outcome.taken)).toEqual([false, false, false])
  })
})
