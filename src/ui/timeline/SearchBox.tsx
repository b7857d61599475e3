import { useEffect, useRef, useState } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { partitionPoint } from '../../core/base/partitionPoint'
import { useT } from '../i18n/useT'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import { useChunkSearch } from './useChunkSearch'

type Found = { readonly query: string; readonly hits: Int32Array }
/** What the answer to the query being typed does when it comes: go to the first hit from the cursor, or the last. */
type Jump = 1 | -1

/**
 * The payload search, a find bar: the query runs in a worker as it is typed (`app/search/chunkSearch.ts`), the
 * cursor goes to the first matching chunk from where it is, "n of N" says which, and Enter / Shift+Enter move to
 * the next / previous match, wrapping like a browser's find bar. The timeline keeps every row.
 */
export function SearchBox({ engine }: { readonly engine: ReplayEngine }) {
  const t = useT()
  const store = useChunkscopeStore()
  const [query, setQuery] = useState('')
  // The cursor matters only for "n of N": without a query a step does not re-render the box.
  const k = useChunkscope((s) => (query === '' ? 0 : s.k))
  const { seekTo } = useChunkscope((s) => s.actions)
  const search = useChunkSearch(engine)
  const [found, setFound] = useState<Found | null>(null)
  const jumpRef = useRef<Jump>(1)

  const go = (hits: Int32Array, direction: Jump, inclusive: boolean) => {
    if (hits.length === 0) return
    const at = store.getState().k - 1
    // First hit after the cursor's chunk (at it too when `inclusive`), or the last one before it; wrapping.
    const after = partitionPoint(hits.length, (i) => (inclusive ? hits[i]! < at : hits[i]! <= at))
    const before = partitionPoint(hits.length, (i) => (inclusive ? hits[i]! <= at : hits[i]! < at)) - 1
    const hit = direction > 0 ? hits[after % hits.length]! : hits[before < 0 ? hits.length - 1 : before]!
    seekTo(hit + 1)
  }

  useEffect(() => {
    if (query === '') return undefined
    let live = true
    void search()
      .find(query)
      .then((hits) => {
        if (!live || hits === null) return
        setFound({ query, hits })
        go(hits, jumpRef.current, true)
        jumpRef.current = 1
      })
    return () => {
      live = false
    }
    // `go` reads the cursor from the store when the answer comes; it is not a reason to search again.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [search, query])

  const current = found !== null && found.query === query ? found : null
  const step = (direction: Jump) => {
    if (current !== null) go(current.hits, direction, false)
    else jumpRef.current = direction
  }
  const index = current === null ? -1 : partitionPoint(current.hits.length, (i) => current.hits[i]! < k - 1)
  const onHit = current !== null && current.hits[index] === k - 1

  return (
    <div className="flex items-center gap-1">
      <input
        type="search"
        data-search="timeline"
        aria-label={t('timeline.search')}
        placeholder={t('timeline.searchPlaceholder')}
        className="field w-40 font-mono"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value)
          if (event.target.value === '') setFound(null)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault()
            step(event.shiftKey ? -1 : 1)
          } else if (event.key === 'Escape' && query !== '') {
            event.preventDefault()
            setQuery('')
            setFound(null)
          }
        }}
      />
      {query !== '' && (
        <>
          <output
            aria-live="polite"
            aria-label={t('timeline.searchMatches')}
            className="min-w-16 text-xs whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-300"
          >
            {current === null
              ? t('timeline.searching')
              : current.hits.length === 0
                ? t('timeline.noMatches')
                : onHit
                  ? t('timeline.nOfN', { n: index + 1, count: current.hits.length })
                  : t('timeline.matches', { count: current.hits.length })}
          </output>
          <button
            type="button"
            className="btn px-1"
            disabled={current?.hits.length === 0}
            onClick={() => step(-1)}
            aria-label={t('timeline.prevMatch')}
            title={t('timeline.prevMatchTitle')}
          >
            ↑
          </button>
          <button
            type="button"
            className="btn px-1"
            disabled={current?.hits.length === 0}
            onClick={() => step(1)}
            aria-label={t('timeline.nextMatch')}
            title={t('timeline.nextMatchTitle')}
          >
            ↓
          </button>
        </>
      )}
    </div>
  )
}
