import { useVirtualizer } from '@tanstack/react-virtual'
import { useT } from '../i18n/useT'
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { Attempt, WireTrace } from '../../core/session'
import type { Diagnostic } from '../../formats/types'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import { AdapterPair, type PairState } from './AdapterPair'
import {
  adapterCounts,
  buildAdapterRows,
  PAIR_WINDOW,
  rowOfChunk,
  seekTargetOfRow,
  windowStart,
} from './buildAdapterRows'
import { NotMapped } from './NotMapped'

/**
 * The "Adapter" view: every raw wire event next to the chunks it became (none, one or many), so an adapter author
 * sees which byte of the capture made which chunk. The pair holding the cursor's chunk is current.
 */
export function AdapterView({ attempt, trace }: { readonly attempt: Attempt; readonly trace: WireTrace }) {
  const t = useT()
  const source = useChunkscope((s) => s.source)
  const k = useChunkscope((s) => s.k)
  const { seekTo } = useChunkscope((s) => s.actions)
  const rows = useMemo(() => buildAdapterRows(trace, attempt.chunks.length), [trace, attempt])
  const counts = useMemo(() => adapterCounts(rows), [rows])
  const diagnostics = source?.diagnostics ?? []
  // Notes carry the line of the event they are about when the trace's text is the file itself (SSE, NDJSON).
  const notesByLine = useMemo(() => {
    const map = new Map<number, Diagnostic[]>()
    if (source === null || source.format !== trace.format) return map
    for (const d of source.diagnostics) {
      if (d.line === undefined) continue
      const list = map.get(d.line)
      if (list) list.push(d)
      else map.set(d.line, [d])
    }
    return map
  }, [source, trace])

  const current = rowOfChunk(rows, k - 1)
  // A window of pairs around the cursor (all of them up to PAIR_WINDOW): list index i is pair base + i.
  const [base, setBase] = useState(0)
  const wanted = windowStart(rows.count, current, base)
  if (wanted !== base) setBase(wanted)
  const shown = Math.min(rows.count, PAIR_WINDOW)

  const scrollRef = useRef<HTMLDivElement>(null)
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 40,
    overscan: 8,
  })

  // Scroll only when the current pair is out of view, so stepping through a visible pair does not move the list.
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el === null || current < 0 || current < wanted || current >= wanted + shown) return
    const item = virtualizer.measurementsCache[current - wanted]
    const top = el.scrollTop
    if (item !== undefined && item.start >= top && item.end <= top + el.clientHeight) return
    virtualizer.scrollToIndex(current - wanted, { align: 'center' })
  }, [current, wanted, shown, virtualizer])

  const onSeek = useCallback((row: number) => seekTo(seekTargetOfRow(rows, row)), [rows, seekTo])
  const stateOf = (row: number): PairState =>
    row === current ? 'current' : k > 0 && rows.to[row]! <= k ? 'applied' : 'pending'

  return (
    <Panel
      title={t('adapter.title')}
      className="flex-1"
      actions={
        <span className="text-[11px] font-normal text-slate-600 tabular-nums dark:text-slate-300">
          {t('adapter.summary', { events: trace.count, chunks: attempt.chunks.length, empty: counts.empty })}
          {counts.synthesised > 0 ? ` · ${t('adapter.synthesisedCount', { count: counts.synthesised })}` : ''}
          {rows.count > shown ? ` · ${t('adapter.pairs', { from: wanted + 1, to: wanted + shown })}` : ''}
        </span>
      }
    >
      <div className="flex h-full min-h-0 flex-col">
        <div className="grid shrink-0 grid-cols-2 gap-x-3 border-b border-slate-200 px-2 py-0.5 text-[11px] font-medium text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <span>{t('adapter.rawEvent', { format: trace.format })}</span>
          <span>{t('adapter.chunksItBecame')}</span>
        </div>
        <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto">
          <ol
            aria-label={t('adapter.wireEvents')}
            style={{ height: virtualizer.getTotalSize() }}
            className="relative"
          >
            {virtualizer.getVirtualItems().map((item) => {
              const row = wanted + item.index
              return (
                <AdapterPair
                  key={row}
                  index={item.index}
                  row={row}
                  trace={trace}
                  chunks={attempt.chunks}
                  event={rows.event[row]!}
                  from={rows.from[row]!}
                  to={rows.to[row]!}
                  state={stateOf(row)}
                  notes={notesByLine.get(trace.line[rows.event[row]!] ?? -1)}
                  finishReasonAt={rows.finishReasonAt}
                  onSeek={onSeek}
                  measure={virtualizer.measureElement}
                  top={item.start}
                />
              )
            })}
          </ol>
        </div>
        <NotMapped diagnostics={diagnostics} />
      </div>
    </Panel>
  )
}
