import { useVirtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { useT } from '../i18n/useT'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import type { FindingList } from './buildFindings'
import { markHiddenChars } from '../hiddenChars'
import { findingText } from './findingText'
import { SEVERITY_ICON } from './severity'

type Props = {
  readonly list: FindingList
  /** Positions in `list` to show, or null for all of them. */
  readonly positions: Int32Array | null
}

/** The findings as a virtual list: only the rows on screen exist, so a million findings cost what twenty do. */
export function FindingsList({ list, positions }: Props) {
  const t = useT()
  const findingCount = useChunkscope((s) => s.frame?.findingCount ?? 0)
  const atEnd = useChunkscope((s) => s.k >= (s.engine?.total ?? 0))
  // The rendered rows' list positions, so the cursor's own finding can be told apart without re-rendering the list
  // on every step: only when the row that is the cursor's changes (README.md, "Budgets": a step's key-to-paint).
  // A render (for this or for a scroll) reads the cursor from the store, so rows scrolled into view are right too.
  const shownRef = useRef<number[]>([])
  useChunkscope((s) => shownRef.current.find((position) => list.at(position).pos === s.k - 1) ?? -1)
  const cursor = useChunkscopeStore().getState().k
  const { seekTo } = useChunkscope((s) => s.actions)
  const scrollRef = useRef<HTMLDivElement>(null)
  const count = positions === null ? list.length : positions.length
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 36,
    overscan: 8,
  })

  const shown = virtualizer.getVirtualItems()
  shownRef.current = shown.map((item) => (positions === null ? item.index : positions[item.index]!))

  return (
    <div ref={scrollRef} className="h-full overflow-auto">
      <ol
        aria-label={t('findings.list')}
        className="relative w-full"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {shown.map((item) => {
          const position = positions === null ? item.index : positions[item.index]!
          const finding = list.at(position)
          const reached = list.reached(position, findingCount, atEnd)
          const here = finding.pos === cursor - 1
          const icon = SEVERITY_ICON[finding.severity]
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="absolute inset-x-0 top-0"
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <button
                type="button"
                onClick={() => seekTo(finding.pos + 1)}
                aria-current={here ? 'true' : undefined}
                // Not reached yet: italic, not faded, so the text keeps its 4.5:1 contrast (WCAG 1.4.3).
                title={t('findings.goTo', {
                  seq: finding.seq,
                  position: finding.pos + 1,
                  reached: reached ? 'yes' : 'no',
                })}
                className={`flex w-full gap-1.5 border-b border-slate-100 px-2 py-1 text-left text-xs dark:border-slate-800 ${
                  here ? 'bg-sky-50 dark:bg-sky-950' : 'hover:bg-slate-50 dark:hover:bg-slate-800'
                } ${reached ? '' : 'italic'}`}
              >
                <span aria-hidden className={`w-3 shrink-0 text-center ${icon.color}`}>
                  {icon.icon}
                </span>
                <span className="sr-only">{t(`severity.${finding.severity}`)}</span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline gap-2">
                    <span className="truncate font-mono text-[11px] font-semibold">{finding.rule}</span>
                    <span className="ml-auto shrink-0 font-mono text-[10px] text-slate-600 tabular-nums dark:text-slate-300">
                      {t('findings.seq', { seq: finding.seq })}
                    </span>
                  </span>
                  <span className="block break-words text-[11px] leading-4 text-slate-700 dark:text-slate-300">
                    {markHiddenChars(findingText(finding, t))}
                  </span>
                </span>
              </button>
            </li>
          )
        })}
      </ol>
    </div>
  )
}
