import { describe, expect, it } from 'vitest'
import { td, tcd } from '../test/chunks'
import { describeHiddenChars, hasHiddenChars, markHiddenChars, splitHiddenChars } from './hiddenChars'
import { payloadPreview } from './timeline/describeChunk'

const TROJAN = 'if (isAdmin) {\u202e } \u2066// check later\u2069 {'
/** Unicode's own list of bidirectional controls (property Bidi_Control), independent of ours. */
const BIDI_CONTROL = /\p{Bidi_Control}/u

describe('hidden characters', () => {
  it('marks every bidi control Unicode lists, and the zero-width characters, all of them format characters', () => {
    const ours: string[] = []
    const unmarked: string[] = []
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code)
      if (BIDI_CONTROL.test(c) && !hasHiddenChars(c)) unmarked.push(code.toString(16))
      if (hasHiddenChars(c)) ours.push(c)
    }
    expect(unmarked).toEqual([])
    const zeroWidth = ours.filter((c) => !BIDI_CONTROL.test(c))
    expect(zeroWidth.map((c) => c.charCodeAt(0).toString(16))).toEqual([
      '200b',
      '200c',
      '200d',
      '2060',
      'feff',
    ])
    expect(zeroWidth.every((c) => /\p{Cf}/u.test(c))).toBe(true)
  })

  it('shows the Trojan Source line in the order its characters are, with no control left in it', () => {
    const shown = markHiddenChars(TROJAN)
    expect(shown).toBe('if (isAdmin) {⟨RLO⟩ } ⟨LRI⟩// check later⟨PDI⟩ {')
    expect(BIDI_CONTROL.test(shown)).toBe(false)
    expect(describeHiddenChars(TROJAN)).toBe('1 RLO, 1 LRI, 1 PDI')
    expect(describeHiddenChars('plain')).toBe('')
  })

  it('splits text around the marks, losing no other character', () => {
    const pieces = splitHiddenChars('a\u200bb\u200f')
    expect(pieces).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'hidden', mark: '⟨ZWSP⟩', title: 'U+200B zero-width space' },
      { kind: 'text', text: 'b' },
      { kind: 'hidden', mark: '⟨RLM⟩', title: 'U+200F right-to-left mark' },
    ])
  })

  it('shows them in the timeline payload column, whitespace marks included, tool names too', () => {
    expect(payloadPreview(td(0, TROJAN))).toBe('"if·(isAdmin)·{⟨RLO⟩·}·⟨LRI⟩//·check·later⟨PDI⟩·{"')
    expect(payloadPreview(tcd(1, 'id', 'ru\u202en', '{}'))).toBe('id ru⟨RLO⟩n "{}"')
  })
})

describe('text that is not a string', () => {
  it('passes through: a chunk may carry a number or an object where text belongs', () => {
    const odd = [5, { toString: 1 }, null] as unknown as string[]
    for (const value of odd) {
      expect(hasHiddenChars(value)).toBe(false)
      expect(markHiddenChars(value)).toBe(value)
      expect(describeHiddenChars(value)).toBe('')
    }
  })
})
