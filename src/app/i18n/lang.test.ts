import { describe, expect, it } from 'vitest'
import { matchLang, pickLang, withLangParam } from './lang'

describe('matchLang', () => {
  it('maps browser tags onto the three languages', () => {
    expect(
      ['en-US', 'EN', 'zh', 'zh-CN', 'zh-Hans-CN', 'zh-SG', 'ja', 'ja-JP', 'zh-TW', 'zh-Hant', 'fr', ''].map(
        matchLang,
      ),
    ).toEqual(['en', 'en', 'zh-CN', 'zh-CN', 'zh-CN', 'zh-CN', 'ja', 'ja', null, null, null, null])
  })
})

describe('pickLang', () => {
  it('prefers the URL, then the saved choice, then the browser, then English', () => {
    expect(pickLang('?lang=ja', 'zh-CN', ['en-US'])).toBe('ja')
    expect(pickLang('?lang=xx', 'zh-CN', ['ja'])).toBe('zh-CN')
    expect(pickLang('', null, ['fr-FR', 'ja-JP', 'en'])).toBe('ja')
    expect(pickLang('?src=a', null, ['de'])).toBe('en')
  })
})

describe('withLangParam', () => {
  it('keeps the other query parameters', () => {
    expect(withLangParam('?src=https%3A%2F%2Fx%2Fa.jsonl&lang=en', 'zh-CN')).toBe(
      '?src=https%3A%2F%2Fx%2Fa.jsonl&lang=zh-CN',
    )
    expect(withLangParam('', 'ja')).toBe('?lang=ja')
  })
})
