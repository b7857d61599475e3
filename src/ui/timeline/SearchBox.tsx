import { useEffect, useState } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { useT } from '../i18n/useT'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import { adjacentRow, buildTimelineRows, seekTargetOf, type TimelineRows } from './buildTimelineRows'

/** Typing settles this long before the O(N) filter runs again. */
const DEBOUNCE_MS = 150

/**
 * The payload search: filters the rows to matching chunks (after a short debounce), says how many match, and
 * Enter / Shift+Enter seek to the next / previous match after the cursor, wrapping like a browser's find bar.
 */
export function SearchBox({ engine, rows }: { readonly engine: ReplayEngine; readonly rows: TimelineRows }) {
  const t = useT()
  const store = useChunkscopeStore()
  const search = useChunkscope((s) => s.filter.search)
  const { setFilter, seekTo } = useChunkscope((s) => s.actions)
  const [query, setQuery] = useState(search)
  const [applied, setApplied] = useState(search)
  // The store's search changed (our own debounced write, or a reset by a new source): show it in the box.
  if (search !== applied) {
    setApplied(search)
    setQuery(search)
  }
  useEffect(() => {
    if (query === store.getState().filter.search) return
    const timer = setTimeout(() => setFilter({ search: query }), DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [query, setFilter, store])

  const jump = (direction: 1 | -1) => {
    const { filter, k } = store.getState()
    let matches = rows
    if (filter.search !== query) {
      // Enter before the debounce fired: search now rather than jump through stale rows.
      matches = buildTimelineRows(engine, { ...filter, search: query })
      setFilter({ search: query })
    }
    if (!matches.searching) return
    const row = adjacentRow(matches, k - 1, direction)
    if (row >= 0) seekTo(seekTargetOf(matches, row))
  }

  const settled = query === search && rows.searching
  return (
    <div className="flex items-center gap-1">
      <input
        type="search"
        data-search="timeline"
        aria-label={t('timeline.search')}
        placeholder={t('timeline.searchPlaceholder')}
        className="field w-40 font-mono"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            jump(event.shiftKey ? -1 : 1)
          } else if (event.key === 'Escape' && query !== '') {
            event.preventDefault()
            setQuery('')
          }
        }}
      />
      {settled ? (
        <>
          <output
            aria-live="polite"
            className="min-w-16 text-xs text-slate-600 tabular-nums dark:text-slate-300"
          >
            {t('timeline.matches', { count: rows.count })}
          </output>
          <button
            type="button"
            className="btn px-1"
            disabled={rows.count === 0}
            onClick={() => jump(-1)}
            aria-label={t('timeline.prevMatch')}
            title={t('timeline.prevMatchTitle')}
          >
            ↑
          </button>
          <button
            type="button"
            className="btn px-1"
            disabled={rows.count === 0}
            onClick={() => jump(1)}
            aria-label={t('timeline.nextMatch')}
            title={t('timeline.nextMatchTitle')}
          >
            ↓
          </button>
        </>
      ) : null}
    </div>
  )
}
