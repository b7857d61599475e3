import { IntlMessageFormat } from 'intl-messageformat'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../app/i18n/lang'
import { RULES } from '../../core/checks'
import { CATALOGUES, translate } from './translate'

type Node = { type: number; value?: string; options?: Record<string, { value: Node[] }>; children?: Node[] }

/**
 * The names of a message's ICU arguments. Names, not kinds: English may need `{n, plural, …}` for a word form that
 * Chinese and Japanese write once with a plain `{n}`.
 */
function placeholders(message: string, lang: string): string[] {
  const found = new Set<string>()
  const walk = (nodes: readonly Node[]) => {
    for (const node of nodes) {
      // Type 0 is literal text, 7 the `#` of a plural; the others carry an argument name in `value`.
      if (node.value !== undefined && node.type !== 0 && node.type !== 7) found.add(node.value)
      for (const option of Object.values(node.options ?? {})) walk(option.value)
      if (node.children) walk(node.children)
    }
  }
  walk(new IntlMessageFormat(message, lang).getAst() as unknown as Node[])
  return [...found].sort()
}

/** Words of the protocol that no translation may change: chunk types, rule ids, finish reasons. */
const PROTOCOL_WORDS = [
  'block-start',
  'text-delta',
  'reasoning-delta',
  'tool-call-delta',
  'block-end',
  'replayState',
  'interruptedBlocks()',
  ...Object.keys(RULES),
]

const english = CATALOGUES.en

describe('message catalogues', () => {
  for (const lang of LANGS) {
    it(`${lang} has every English key, no other, each with the same placeholders`, () => {
      const catalogue = CATALOGUES[lang]
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort())
      for (const [key, message] of Object.entries(english)) {
        const translated = catalogue[key] ?? ''
        expect(translated.trim(), `${lang} ${key}`).not.toBe('')
        expect(placeholders(translated, lang), `${lang} ${key}`).toEqual(placeholders(message, 'en'))
      }
    })

    it(`${lang} keeps the protocol's words untranslated`, () => {
      for (const [key, message] of Object.entries(english)) {
        for (const word of PROTOCOL_WORDS) {
          if (!message.includes(word)) continue
          expect(CATALOGUES[lang][key], `${lang} ${key} must keep "${word}"`).toContain(word)
        }
      }
    })
  }

  it('formats plurals by each language’s rules', () => {
    expect(translate('en', 'findings.count', { count: 1 })).toBe('1 finding')
    expect(translate('en', 'findings.count', { count: 3 })).toBe('3 findings')
    expect(translate('ja', 'findings.count', { count: 3 })).toBe('3 件の指摘')
    expect(translate('zh-CN', 'findings.count', { count: 3 })).toBe('3 条发现')
  })

  it('keeps each formatted message to its own language, key and values (formatted messages are remembered)', () => {
    for (const count of [1, 3, 1, 3]) {
      expect(translate('en', 'findings.count', { count })).toBe(count === 1 ? '1 finding' : '3 findings')
      expect(translate('ja', 'findings.count', { count })).toBe(`${count} 件の指摘`)
    }
    // The same values under swapped names are another message.
    const a = translate('en', 'text.earlierHidden', { count: '5', limit: '7' })
    const b = translate('en', 'text.earlierHidden', { count: '7', limit: '5' })
    expect(a).not.toBe(b)
    expect(a).toContain('5')
    expect(translate('en', 'text.earlierHidden', { count: '5', limit: '7' })).toBe(a)
  })
})
