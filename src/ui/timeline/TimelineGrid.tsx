import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { useChunkscope } from '../StoreContext'
import {
  ROW_RUN,
  ROW_RUN_HEAD,
  lastPosOf,
  rowAtOrBefore,
  rowOf,
  scrollScale,
  seekTargetOf,
  type TimelineRows,
} from './buildTimelineRows'
import { COLUMNS, ROW_HEIGHT, TimelineRow, type RowState } from './TimelineRow'

const HEADER = ROW_HEIGHT
const COLUMN_NAMES = ['seq', 'Δt', 'type', 'idx', 'payload', 'effect'] as const

/**
 * The chunk rows, virtualized. The row at the cursor (the last applied chunk) is current; later rows are dimmed.
 * Scrolling follows the cursor only when its row leaves the view, so playback does not scroll every frame.
 *
 * Chromium caps an element's height at 33,554,430 px. Up to MAX_SCROLL_PX (30M px, ~1.36M rows of 22 px) rows
 * are laid out as they are; beyond it the scrolled body is clamped to 30M px and one scrolled pixel stands for
 * `scale` content pixels: the virtualizer works in the clamped space (rows of 22/scale px) and each rendered row is
 * shifted back to its true 22 px pitch relative to the top of the view.
 */
export function TimelineGrid({
  engine,
  rows,
}: {
  readonly engine: ReplayEngine
  readonly rows: TimelineRows
}) {
  const k = useChunkscope((s) => s.k)
  const { seekTo, toggleRun } = useChunkscope((s) => s.actions)
  const prefix = useId()
  const scrollRef = useRef<HTMLDivElement>(null)
  const [viewport, setViewport] = useState(600)
  const content = rows.count * ROW_HEIGHT
  const scale = scrollScale(content, viewport - HEADER)
  const pitch = ROW_HEIGHT / scale
  // Scrolled to the bottom (body − view), the top of the view must show content − view: the last rows.
  const body = scale === 1 ? content : viewport - HEADER + (content - viewport + HEADER) / scale

  // Not memoized by a compiler here: the virtualizer's functions are only called during this render.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => pitch,
    scrollMargin: HEADER,
    overscan: 12,
  })

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el === null) return
    const observer = new ResizeObserver(() => setViewport(el.clientHeight))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  // Keep the current row in view, moving only when it is out of view (centred after a far jump). The view's size
  // and offset come from the ResizeObserver and the virtualizer's scroll tracking: reading them from the element
  // here would force a layout on every step.
  const offset = virtualizer.scrollOffset ?? 0
  const offsetRef = useRef(offset)
  useLayoutEffect(() => {
    offsetRef.current = offset
  }, [offset])
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el === null || rows.count === 0 || k === 0) return
    const row = Math.max(0, rowAtOrBefore(rows, k - 1))
    const view = viewport - HEADER
    const top = offsetRef.current * scale
    const y = row * ROW_HEIGHT
    if (y >= top && y + ROW_HEIGHT <= top + view) return
    const far = y < top - view || y > top + 2 * view
    const next = Math.max(0, far ? y - view / 2 : y < top ? y : y + ROW_HEIGHT - view) / scale
    offsetRef.current = next
    el.scrollTop = next
  }, [k, rows, scale, viewport])

  const onSeek = useCallback((row: number) => seekTo(seekTargetOf(rows, row)), [rows, seekTo])

  const current = rowOf(rows, k - 1)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || rows.count === 0) return
    const at = rowAtOrBefore(rows, k - 1)
    const page = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 0) - HEADER) / ROW_HEIGHT) - 1)
    const move = (row: number) => (row < 0 ? seekTo(0) : onSeek(Math.min(rows.count - 1, row)))
    const before = at >= 0 && current === at ? at - 1 : at
    switch (event.key) {
      case 'ArrowDown':
        move(at + 1)
        break
      case 'ArrowUp':
        move(before)
        break
      case 'PageDown':
        move(at + page)
        break
      case 'PageUp':
        move(before - page + 1)
        break
      case 'Enter':
        if (current < 0 || (rows.kinds[current] !== ROW_RUN && rows.kinds[current] !== ROW_RUN_HEAD)) return
        toggleRun(rows.kinds[current] === ROW_RUN ? rows.positions[current]! - 1 : rows.positions[current]!)
        break
      default:
        return
    }
    event.preventDefault()
  }

  const stateOf = (row: number): RowState =>
    row === current ? 'current' : lastPosOf(rows, row) < k ? 'applied' : 'pending'
  return (
    <div ref={scrollRef} className="h-full overflow-auto">
      {/* Table elements laid out as CSS grid rows: the virtual rows are absolutely positioned in the body. */}
      <table
        aria-label="Chunks"
        aria-rowcount={rows.count + 1}
        aria-colcount={COLUMN_NAMES.length}
        aria-activedescendant={current >= 0 ? `${prefix}-${current}` : undefined}
        // Focusable as a whole: ↑/↓ move the cursor row by row, PageUp/PageDown by a page, Enter toggles a run.
        // ARIA in HTML allows role=grid on <table>: an interactive table keeps its table semantics.
        // oxlint-disable-next-line jsx-a11y/no-noninteractive-element-to-interactive-role
        role="grid"
        tabIndex={0}
        onKeyDown={onKeyDown}
        className="block w-full outline-offset-[-2px]"
      >
        <thead className="sticky top-0 z-10 block">
          <tr
            aria-rowindex={1}
            style={{ height: HEADER }}
            className={`${COLUMNS} items-center border-b border-slate-200 bg-slate-50 text-[11px] text-slate-500 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-400`}
          >
            {COLUMN_NAMES.map((name, column) => (
              <th
                key={name}
                scope="col"
                className={`font-normal ${column === 0 || column === 1 || column === 3 ? 'text-right' : 'text-left'}`}
              >
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="relative block" style={{ height: body }}>
          {virtualizer.getVirtualItems().map((item) => (
            <TimelineRow
              key={rows.positions[item.index]}
              id={`${prefix}-${item.index}`}
              engine={engine}
              rows={rows}
              row={item.index}
              top={item.index * ROW_HEIGHT - offset * (scale - 1)}
              state={stateOf(item.index)}
              onSeek={onSeek}
              onToggle={toggleRun}
            />
          ))}
        </tbody>
      </table>
    </div>
  )
}
