import { useEffect } from 'react'
import type { Theme } from '../../app/store'
import type { MessageKey } from '../i18n/translate'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'

const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' }
const LABEL: Record<Theme, MessageKey> = { system: 'theme.system', light: 'theme.light', dark: 'theme.dark' }

/** Light / dark / follow the system; the choice is kept in localStorage and applied as a class on <html>. */
export function ThemeSwitch() {
  const t = useT()
  const theme = useChunkscope((s) => s.theme)
  const { setTheme } = useChunkscope((s) => s.actions)
  useEffect(() => {
    const saved = localStorage.getItem('chunkscope.theme')
    if (saved === 'light' || saved === 'dark' || saved === 'system') setTheme(saved)
  }, [setTheme])
  useEffect(() => {
    const root = document.documentElement
    root.classList.toggle('dark', theme === 'dark')
    root.classList.toggle('light', theme === 'light')
    localStorage.setItem('chunkscope.theme', theme)
  }, [theme])
  return (
    <button
      type="button"
      className="btn"
      onClick={() => setTheme(NEXT[theme])}
      aria-label={t('theme.label', { theme })}
      title={t('theme.switch')}
    >
      {t(LABEL[theme])}
    </button>
  )
}
