import { useMemo } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import type { TimelineFilter } from '../../app/store'
import { findStream } from '../../formats/streamRefs'
import { Panel } from '../layout/Panel'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { buildTimelineRows } from './buildTimelineRows'
import { SearchBox } from './SearchBox'
import { TimelineGrid } from './TimelineGrid'
import { TypeMenu } from './TypeMenu'

/** Every chunk of the selected stream as a row: what it carried and what it did, with the cursor's row current. */
export function Timeline() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const filter = useChunkscope((s) => s.filter)
  // One O(N) pass per (engine, filter); cursor moves never rebuild it.
  const rows = useMemo(() => (engine === null ? null : buildTimelineRows(engine, filter)), [engine, filter])
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  // Seqs the recorded message cites that the log lacks: marked inline before the chunk they would precede.
  const missing = useMemo(() => {
    const cited = findStream(source, streamKey)?.attempt.recorded?.citation.missing ?? []
    return [...cited].sort((a, b) => a - b)
  }, [source, streamKey])

  return (
    <Panel
      title={t('timeline.title')}
      className="flex-1"
      actions={engine !== null && rows !== null ? <Filters engine={engine} filter={filter} /> : null}
    >
      {engine === null || rows === null ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('timeline.empty')}</p>
      ) : rows.count === 0 ? (
        <EmptyFilter total={engine.total} />
      ) : (
        <TimelineGrid engine={engine} rows={rows} missing={missing} />
      )}
    </Panel>
  )
}

function Filters({ engine, filter }: { readonly engine: ReplayEngine; readonly filter: TimelineFilter }) {
  const t = useT()
  const { setFilter } = useChunkscope((s) => s.actions)
  // Only numeric indexes can be chosen (the filter holds a number); a chunk file may carry any JSON as an index.
  const indexes = useMemo(
    () => engine.lives.filter((life) => typeof life.index === 'number').sort((a, b) => a.index - b.index),
    [engine],
  )
  return (
    <>
      <SearchBox engine={engine} />
      <TypeMenu types={filter.types} onChange={(types) => setFilter({ types })} />
      {indexes.length > INDEX_OPTIONS ? (
        <IndexField engine={engine} filter={filter} count={indexes.length} />
      ) : (
        <select
          className={`field ${filter.index === null ? '' : 'border-sky-500 dark:border-sky-400'}`}
          aria-label={t('timeline.indexFilter')}
          title={t('timeline.indexFilterTitle')}
          value={filter.index ?? ''}
          onChange={(event) =>
            setFilter({ index: event.target.value === '' ? null : Number(event.target.value) })
          }
        >
          <option value="">{t('timeline.allBlocks')}</option>
          {indexes.map((life) => (
            <option key={life.index} value={life.index}>
              {life.index} {life.blockType}
            </option>
          ))}
        </select>
      )}
      <label
        className="flex items-center gap-1 text-xs whitespace-nowrap text-slate-600 dark:text-slate-300"
        title={t('timeline.collapseRunsTitle')}
      >
        <input
          type="checkbox"
          checked={filter.collapseRuns}
          onChange={() => setFilter({ collapseRuns: !filter.collapseRuns, expanded: [] })}
        />
        {t('timeline.collapseRuns')}
      </label>
    </>
  )
}

/**
 * Above this many blocks the index filter is a number field, not a menu: a `<select>` of 50,000 options took
 * seconds of layout on every load (and one of a million would not open at all).
 */
const INDEX_OPTIONS = 500

function IndexField({
  engine,
  filter,
  count,
}: {
  readonly engine: ReplayEngine
  readonly filter: TimelineFilter
  readonly count: number
}) {
  const t = useT()
  const { setFilter } = useChunkscope((s) => s.actions)
  const unknown = filter.index !== null && engine.life(filter.index) === undefined
  return (
    <input
      type="number"
      className={`field w-28 ${filter.index === null ? '' : unknown ? 'border-red-500' : 'border-sky-500 dark:border-sky-400'}`}
      aria-label={t('timeline.indexFilter')}
      title={t('timeline.indexFieldTitle', { count: count.toLocaleString('en') })}
      placeholder={t('timeline.indexPlaceholder', { count: count.toLocaleString('en') })}
      value={filter.index ?? ''}
      onChange={(event) => {
        const value = event.target.value
        setFilter({ index: value === '' || !Number.isFinite(Number(value)) ? null : Number(value) })
      }}
    />
  )
}

function EmptyFilter({ total }: { readonly total: number }) {
  const t = useT()
  const { setFilter } = useChunkscope((s) => s.actions)
  if (total === 0)
    return <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('timeline.noChunks')}</p>
  return (
    <p className="flex items-center gap-2 p-2 text-xs text-slate-600 dark:text-slate-300">
      {t('timeline.noMatch')}
      <button
        type="button"
        className="btn"
        onClick={() => setFilter({ types: [], index: null, search: '', expanded: [] })}
      >
        {t('timeline.clearFilters')}
      </button>
    </p>
  )
}
