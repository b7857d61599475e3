import { useMemo } from 'react'
import { describeHiddenChars } from './hiddenChars'
import { useT } from './i18n/useT'

/**
 * A warning badge for text that holds bidirectional or zero-width characters (shown as ⟨RLO⟩-style marks in the
 * text itself): they can make text read differently from what it is, so they are flagged where they appear.
 */
export function HiddenCharsBadge({ texts }: { readonly texts: readonly string[] }) {
  const t = useT()
  // Panels re-render on every step while their texts mostly stay the same objects: count once per texts array.
  const found = useMemo(() => texts.map(describeHiddenChars).filter((d) => d !== ''), [texts])
  if (found.length === 0) return null
  const what = found.join('; ')
  return (
    <span
      role="note"
      title={t('hidden.title', { what })}
      className="ml-1 rounded bg-amber-100 px-1 py-px text-[10px] leading-none font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
    >
      {t('hidden.badge', { what })}
    </span>
  )
}
