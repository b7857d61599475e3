import { useLayoutEffect, useRef } from 'react'
import { LANG_PARAM, LANG_STORAGE_KEY, pickLang, withLangParam } from '../../app/i18n/lang'
import { useChunkscope } from '../StoreContext'

/**
 * Starts in the URL's, the saved or the browser's language (`pickLang`), then keeps `<html lang>` (screen readers,
 * CJK font choice), localStorage and the URL's `?lang=` equal to the current one. A layout effect: the first paint
 * is already in the right language. The query string, not the fragment: the router owns the fragment and a share
 * link's `#v5.` payload must stay byte for byte.
 */
export function useLangSync(): void {
  const lang = useChunkscope((s) => s.lang)
  const { setLang } = useChunkscope((s) => s.actions)
  const started = useRef(false)
  useLayoutEffect(() => {
    let saved: string | null = null
    try {
      saved = localStorage.getItem(LANG_STORAGE_KEY)
    } catch {
      // Storage can be disabled; the URL and the browser still decide.
    }
    setLang(pickLang(window.location.search, saved, navigator.languages ?? [navigator.language]))
    started.current = true
  }, [setLang])
  useLayoutEffect(() => {
    document.documentElement.lang = lang
    if (!started.current) return
    const search = window.location.search
    // Written only once a language is in the URL or differs from English, so plain English URLs stay as they were.
    if (new URLSearchParams(search).has(LANG_PARAM) || lang !== 'en') {
      const next = withLangParam(search, lang)
      if (next !== search)
        window.history.replaceState(window.history.state, '', `${next}${window.location.hash}`)
    }
  }, [lang])
}
