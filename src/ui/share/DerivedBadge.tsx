import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'

/**
 * "edited" beside a stream made by what-if edits, wherever it came from (the workbench, a share link of any scope):
 * the label is LoadedSource.derived, which share links carry (docs/protocol.md §13). Its title says how.
 */
export function DerivedBadge() {
  const t = useT()
  const derived = useChunkscope((s) => s.source?.derived)
  if (derived === undefined) return null
  return (
    <span
      data-testid="derived-badge"
      title={t('edited.title', { how: derived })}
      className="shrink-0 rounded border border-amber-300 bg-amber-50 px-1 text-[11px] leading-4 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      {t('edited.badge')}
    </span>
  )
}
