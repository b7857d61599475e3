import { useT } from '../i18n/useT'
import type { MessageKey } from '../i18n/translate'
import type { OutlineFilter, OutlineView } from './filterOutline'

const FILTERS: readonly { readonly value: OutlineFilter; readonly label: MessageKey }[] = [
  { value: 'all', label: 'outline.filter.all' },
  { value: 'mismatch', label: 'outline.filter.mismatch' },
  { value: 'findings', label: 'outline.filter.findings' },
  { value: 'errors', label: 'outline.filter.errors' },
]

type Props = {
  readonly view: OutlineView
  readonly onView: (view: OutlineView) => void
  readonly onExpandAll: () => void
  readonly onCollapseAll: () => void
  /** Shown items out of all, while a filter or search narrows the tree. */
  readonly shown: { readonly streams: number; readonly total: number } | null
}

/** Above the outline: search turns and tool names, filter the attempts, expand or collapse everything. */
export function OutlineToolbar({ view, onView, onExpandAll, onCollapseAll, shown }: Props) {
  const t = useT()
  return (
    <div className="flex flex-wrap items-center gap-1 border-b border-slate-200 px-1 py-1 dark:border-slate-700">
      <input
        type="search"
        aria-label={t('outline.search')}
        placeholder={t('outline.searchPlaceholder')}
        className="field min-w-0 flex-1 basis-24"
        value={view.query}
        onChange={(event) => onView({ ...view, query: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && view.query !== '') {
            event.preventDefault()
            event.stopPropagation()
            onView({ ...view, query: '' })
          }
        }}
      />
      <select
        aria-label={t('outline.filter')}
        className={`field ${view.filter === 'all' ? '' : 'border-sky-500 dark:border-sky-400'}`}
        value={view.filter}
        onChange={(event) => onView({ ...view, filter: event.target.value as OutlineFilter })}
      >
        {FILTERS.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="btn px-1"
        aria-label={t('outline.expandAll')}
        title={t('outline.expandAll')}
        onClick={onExpandAll}
      >
        ⊞
      </button>
      <button
        type="button"
        className="btn px-1"
        aria-label={t('outline.collapseAll')}
        title={t('outline.collapseAll')}
        onClick={onCollapseAll}
      >
        ⊟
      </button>
      {shown !== null && (
        <output aria-live="polite" className="w-full px-1 text-[11px] text-slate-500 dark:text-slate-400">
          {shown.streams === 0
            ? t('outline.noMatch')
            : t('outline.shown', { shown: shown.streams, total: shown.total })}
        </output>
      )}
    </div>
  )
}
