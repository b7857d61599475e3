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
  let format = compiled.get(id)
  if (format === undefined) {
    format = new IntlMessageFormat(source, lang)
    compiled.set(id, format)
  }
  try {
    return String(format.format(params))
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
