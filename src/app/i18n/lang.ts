/** The interface languages. Catalogues: `src/ui/i18n/messages/<lang>.json` (docs/i18n.md). */
export const LANGS = ['en', 'zh-CN', 'ja'] as const

export type Lang = (typeof LANGS)[number]

/** Each language named in itself, as the toolbar's switch lists it. */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', 'zh-CN': '简体中文', ja: '日本語' }

/** The query parameter that carries the language in a URL (`?lang=ja#v5.…`), so a shared link opens in it. */
export const LANG_PARAM = 'lang'

/** localStorage key of the language chosen with the switch. */
export const LANG_STORAGE_KEY = 'chunkscope.lang'

/**
 * A BCP 47 tag as a language we have: `zh`, `zh-Hans`, `zh-CN`, `zh-SG` → `zh-CN`; `ja-JP` → `ja`; `en-GB` → `en`.
 * Traditional Chinese (`zh-TW`, `zh-HK`, `zh-Hant`) is not offered as 简体中文: it falls through to the next choice.
 *
 * @example
 * matchLang('ja-JP') // 'ja'
 */
export function matchLang(tag: string | null | undefined): Lang | null {
  if (tag === null || tag === undefined) return null
  const lower = tag.trim().toLowerCase()
  if (lower === 'en' || lower.startsWith('en-')) return 'en'
  if (lower === 'ja' || lower.startsWith('ja-')) return 'ja'
  if (lower === 'zh' || lower.startsWith('zh-')) {
    return /^zh-(tw|hk|mo|hant)\b/.test(lower) ? null : 'zh-CN'
  }
  return null
}

/**
 * The language to start in: the URL's `?lang=` (a shared link opens in its language), else the one chosen here
 * before, else the browser's first language we have, else English.
 */
export function pickLang(search: string, saved: string | null, browserLangs: readonly string[]): Lang {
  const fromUrl = matchLang(new URLSearchParams(search).get(LANG_PARAM))
  if (fromUrl !== null) return fromUrl
  const fromSaved = matchLang(saved)
  if (fromSaved !== null) return fromSaved
  for (const tag of browserLangs) {
    const lang = matchLang(tag)
    if (lang !== null) return lang
  }
  return 'en'
}

/** `search` with `?lang=` set to `lang` (other parameters, such as `?src=` or `?feed=`, kept). */
export function withLangParam(search: string, lang: Lang): string {
  const params = new URLSearchParams(search)
  params.set(LANG_PARAM, lang)
  return `?${params.toString()}`
}
