import { showValue } from '../../core/checks'
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useRef } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { Panel } from '../layout/Panel'
import type { T } from '../i18n/translate'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { describeIgnored } from './buildIgnored'

/** The panel header's height plus a border: the list's own height is added to it. */
const HEADER = 30
const BADGE =
  'rounded bg-red-100 px-1 py-px text-[10px] font-medium text-red-900 dark:bg-red-900/60 dark:text-red-100'

/**
 * Every chunk the assembler ignored up to the cursor, with why. Rows are read from `engine.ignored` by index range
 * (the visible ones only), never sliced per step; a click moves the cursor to just after that chunk.
 */
export function IgnoredPanel() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const count = useChunkscope((s) => s.frame?.ignoredCount ?? 0)
  // The ignored chunk that is the cursor's own (the last one applied), or −1: a step re-renders the panel only
  // when that changes, not on every move (README.md, "Budgets": a step's key-to-paint).
  const current = useChunkscope((s) => {
    const seen = s.frame?.ignoredCount ?? 0
    return seen > 0 && s.engine?.ignored[seen - 1]?.pos === s.k - 1 ? seen - 1 : -1
  })
  const { seekTo } = useChunkscope((s) => s.actions)
  const scrollRef = useRef<HTMLDivElement>(null)
  // No React Compiler in this build: the virtualizer's functions are read fresh on every render.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 40,
    overscan: 6,
  })
  const total = engine?.ignored.length ?? 0

  // As tall as its rows up to a third of the column (then the list scrolls); just the empty note when empty.
  const height = count > 0 ? `min(35%, ${virtualizer.getTotalSize() + HEADER}px)` : undefined
  return (
    <div
      className="flex shrink-0 flex-col border-t border-slate-200 dark:border-slate-700"
      style={{ height }}
    >
      <Panel
        title={t('ignored.title')}
        className="min-h-0 flex-1"
        actions={
          total > 0 ? (
            <span className="font-mono text-[11px] text-slate-600 dark:text-slate-300">
              {count} / {total}
            </span>
          ) : (
            // A stream with nothing ignored says so in the header line alone: below the wide layout the blocks
            // share this column, and a body for an empty note took them half a card (at 200% zoom, all of it).
            engine !== null && (
              <span className="text-[11px] font-normal text-slate-600 dark:text-slate-300">
                {t('ignored.none')}
              </span>
            )
          )
        }
      >
        <div ref={scrollRef} className="h-full overflow-auto">
          {engine === null || total === 0 ? null : count === 0 ? (
            <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('ignored.notYet', { total })}</p>
          ) : (
            <ul className="relative" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((item) => (
                <IgnoredRow
                  key={item.key}
                  engine={engine}
                  position={item.index}
                  start={item.start}
                  current={item.index === current}
                  measure={virtualizer.measureElement}
                  onSeek={seekTo}
                  t={t}
                />
              ))}
            </ul>
          )}
        </div>
      </Panel>
    </div>
  )
}

type RowProps = {
  readonly engine: ReplayEngine
  readonly position: number
  readonly start: number
  readonly current: boolean
  readonly measure: (element: HTMLElement | null) => void
  readonly onSeek: (k: number) => void
  readonly t: T
}

/** Memoized: a step changes at most the current row, so the others keep their rendering. */
const IgnoredRow = memo(function IgnoredRow({
  engine,
  position,
  start,
  current,
  measure,
  onSeek,
  t,
}: RowProps) {
  const item = engine.ignored[position]!
  return (
    <li
      data-index={position}
      ref={measure}
      className="absolute inset-x-0 border-b border-slate-100 dark:border-slate-800"
      style={{ transform: `translateY(${start}px)` }}
    >
      <button
        type="button"
        aria-current={current ? 'step' : undefined}
        title={t('ignored.seek')}
        className="w-full px-2 py-1 text-left hover:bg-slate-50 aria-[current=step]:bg-sky-50 dark:hover:bg-slate-800 dark:aria-[current=step]:bg-sky-950"
        onClick={() => onSeek(item.pos + 1)}
      >
        <span className="flex items-center gap-1.5 text-xs">
          <span className="font-mono text-[11px] text-slate-600 dark:text-slate-300">
            {t('findings.seq', { seq: item.seq })}
          </span>
          <span className={BADGE}>{item.kind}</span>
          <span className="text-[11px]">{t('ignored.block', { index: showValue(item.index) })}</span>
        </span>
        <span className="block text-[11px] leading-snug text-slate-600 dark:text-slate-300">
          {describeIgnored(item, engine, t)}
        </span>
      </button>
    </li>
  )
})
