import { LANG_NAMES, LANG_STORAGE_KEY, LANGS, matchLang } from '../../app/i18n/lang'
import { useChunkscope } from '../StoreContext'
import { useT } from './useT'

/** The toolbar's language switch; each language is named in itself. The choice is remembered by this browser. */
export function LangSwitch() {
  const t = useT()
  const lang = useChunkscope((s) => s.lang)
  const { setLang } = useChunkscope((s) => s.actions)
  return (
    <select
      className="btn"
      aria-label={t('toolbar.language')}
      title={t('toolbar.language')}
      value={lang}
      onChange={(event) => {
        const next = matchLang(event.target.value)
        if (next === null) return
        setLang(next)
        try {
          localStorage.setItem(LANG_STORAGE_KEY, next)
        } catch {
          // Not remembered, but still applied.
        }
      }}
    >
      {LANGS.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANG_NAMES[code]}
        </option>
      ))}
    </select>
  )
}
