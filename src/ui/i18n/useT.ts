import { useCallback } from 'react'
import type { Lang } from '../../app/i18n/lang'
import { useChunkscope } from '../StoreContext'
import { translate, type T } from './translate'

export type { T } from './translate'

/**
 * The translator for the store's current language: `const t = useT(); t('toolbar.openFile')`. Components
 * re-render when the language changes, and only then.
 */
export function useT(): T {
  const lang = useChunkscope((s) => s.lang)
  return useCallback((key, params) => translate(lang, key, params), [lang])
}

/** The current language, for `Intl` formatting or pure builders that take it as a parameter. */
export function useLang(): Lang {
  return useChunkscope((s) => s.lang)
}
