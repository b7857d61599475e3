import { IntlMessageFormat } from 'intl-messageformat'
import type { Lang } from '../../app/i18n/lang'
import en from './messages/en.json'
import ja from './messages/ja.json'
import zhCN from './messages/zh-CN.json'

/** Every message id; English is the reference catalogue (the test checks the others against it). */
export type MessageKey = keyof typeof en

/** Values for a message's ICU placeholders: `{count, plural, one {# block} other {# blocks}}`, `{seq}`. */
export type MessageParams = Readonly<Record<string, string | number>>

export type Catalogue = Readonly<Record<string, string>>

export const CATALOGUES: Record<Lang, Catalogue> = { en, 'zh-CN': zhCN, ja }

const compiled = new Map<string, IntlMessageFormat>()

/**
 * Formatted messages by language, key and parameter values. Formatting a message with a number goes through
 * `Intl.NumberFormat.formatToParts`, ~20 µs a call: a step re-renders the timeline rows, block cards and transport
 * with the same few labels ("append +5 chars"), about a millisecond of a step's key-to-paint (bench/README.md,
 * uiViews). Emptied when full; formatting is a pure function of these, so a hit is always the same text.
 */
const formatted = new Map<string, string>()
const FORMATTED_AT_MOST = 4096

function formattedKey(id: string, params: MessageParams | undefined): string {
  if (params === undefined) return id
  let key = id
  for (const name in params) key += `\u0000${name}\u0001${typeof params[name]}\u0001${params[name]}`
  return key
}

/**
 * One message in `lang`, its ICU placeholders filled (plurals by the language's own rules, through
 * `Intl.PluralRules`). A key the catalogue lacks falls back to English; a message that fails to format shows its
 * English text rather than throwing into React.
 *
 * @example
 * translate('ja', 'toolbar.openFile') // 'ファイルを開く'
 */
export function translate(lang: Lang, key: MessageKey, params?: MessageParams): string {
  const source = CATALOGUES[lang][key] ?? en[key]
  const id = `${lang}\u0000${key}`
  const cacheKey = formattedKey(id, params)
  const hit = formatted.get(cacheKey)
  if (hit !== undefined) return hit
  let format = compiled.get(id)
  if (format === undefined) {
    format = new IntlMessageFormat(source, lang)
    compiled.set(id, format)
  }
  try {
    const text = String(format.format(params))
    if (formatted.size >= FORMATTED_AT_MOST) formatted.clear()
    formatted.set(cacheKey, text)
    return text
  } catch {
    return lang === 'en' ? source : translate('en', key, params)
  }
}

/** A translator bound to one language: what `useT()` returns and pure builders take as a parameter. */
export type T = (key: MessageKey, params?: MessageParams) => string

/** The English translator: the default of pure builders, so their tests read English. */
export const english: T = (key, params) => translate('en', key, params)

/** Whether `key` names a message (for ids that come from data, such as rule ids). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key)
}
