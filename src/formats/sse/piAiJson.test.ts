import {
  getOverflowPatterns,
  parseJsonWithRepair as piParse,
  parseStreamingJson as piStreaming,
} from '@earendil-works/pi-ai'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PI_AI_OVERFLOW_PATTERNS } from './piAiFailure'
import { parseJsonWithRepair, parseStreamingJson } from './piAiJson'

/** Our reading of pi-ai's JSON against pi-ai's own exports (docs/protocol.md §9, "The harness's pi-ai route"). */
const outcome = (f: () => unknown) => {
  try {
    return { value: JSON.stringify(f()) ?? 'undefined' }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

// JSON values, then cut anywhere and sprinkled with the characters that exercise the repair and partial rules.
const jsonText = fc.jsonValue().map((value) => JSON.stringify(value, null, 1))
const noisy = fc
  .tuple(
    jsonText,
    fc.nat(),
    fc.constantFrom('', '\t', '\n', '\\q', '\\', '"', ',', '}', ']', 'nu', '-', 'e', '1.'),
  )
  .map(([text, cut, noise]) => text.slice(0, cut % (text.length + 1)) + noise)
const arbitrary = fc.oneof(
  noisy,
  jsonText,
  fc.string({
    unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', '-', 'e', 'n', 't', 'a', ' ', '\\', '\t'),
  }),
)

describe('pi-ai JSON', () => {
  it('parseStreamingJson gives what pi-ai gives on cut and noisy JSON', () => {
    fc.assert(
      fc.property(arbitrary, (text) => {
        expect(outcome(() => parseStreamingJson(text))).toEqual(outcome(() => piStreaming(text)))
      }),
      { numRuns: 3000 },
    )
  })

  it('parseJsonWithRepair gives what pi-ai gives, errors included', () => {
    fc.assert(
      fc.property(arbitrary, (text) => {
        expect(outcome(() => parseJsonWithRepair(text))).toEqual(outcome(() => piParse(text)))
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['{"path": "src", "n": 1', { path: 'src', n: 1 }],
    ['{"a": [1, 2', { a: [1, 2] }],
    ['{"a": "tab\there"}', { a: 'tab\there' }],
    ['{"a": nu', { a: null }],
    ['', {}],
  ])('reads %j as %j', (text, expected) => {
    expect(parseStreamingJson(text)).toEqual(expected)
  })
})

describe('pi-ai context-overflow wording', () => {
  it('is the same list of patterns pi-ai checks', () => {
    expect(PI_AI_OVERFLOW_PATTERNS.map(String)).toEqual(getOverflowPatterns().map(String))
  })
})
