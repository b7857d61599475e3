import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { flushSync } from 'react-dom'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { useWhatIfContext } from '../experiments/WhatIfContext'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import {
  ROW_RUN,
  ROW_RUN_HEAD,
  lastPosOf,
  rowAtOrBefore,
  rowOf,
  seekTargetOf,
  type TimelineRows,
} from './buildTimelineRows'
import { RowMenu, type RowMenuAt } from './RowMenu'
import {
  contentTop,
  echoOf,
  followTop,
  rowsInView,
  scrollSpace,
  scrollTopFor,
  type Scroll,
  type ScrollSpace,
} from './scrollSpace'
import { ROW_HEIGHT, TimelineRow, showClippedText, type RowState } from './TimelineRow'

const HEADER = ROW_HEIGHT
const COLUMN_NAMES = ['seq', 'Δt', 'type', 'idx', 'payload', 'effect'] as const

/** Rows rendered below the view, so a short scroll shows rows already laid out. */
const OVERSCAN = 2
/**
 * The table is this much taller than its rows, and the end is scrolled to that far: past 16M px Chromium keeps scroll
 * offsets in 2 px steps and places the sticky body ±1 px off, which cut the last row by a pixel (bench/README.md).
 */
const END_SLACK = 1
/** How far below the body's height its rows can lie: the slots past the view, and the row its transform lifts. */
const REACH = (OVERSCAN + 2) * ROW_HEIGHT

/**
 * The chunk rows, virtualized. The row at the cursor (the last applied chunk) is current; later rows are dimmed.
 * Scrolling follows the cursor only when its row leaves the view, so playback does not scroll every frame.
 *
 * Only the rows in view are rendered, in a body that sticks to the top of the view: the scrolled length comes from
 * the table's height, so no element sits millions of pixels down. Each row element keeps its place in the window
 * (keyed by it, its `top` fixed for its life), and the body is shifted by the first row's distance from the view's
 * top, so scrolling by less than a row changes one transform and re-renders no row, and a scroll rewrites the rows'
 * text and classes but never a row's own style: changing every row's inline `top` (rows keyed by row mod the window,
 * as before) cost Chromium's style recalculation 7.6 ms a frame of a fling at 1M and 22.5 ms at 10M, against ~1.4 ms
 * of style and layout in all now (bench/README.md, the timeline's fling).
 *
 * Chromium caps an element's height at 33,554,430 px. Up to MAX_SCROLL_PX (30M px, ~1.36M rows of 22 px) one
 * scrolled pixel is one content pixel; beyond it the scrolled length is clamped and one scrolled pixel stands for
 * `scale` content pixels, so the last rows are still reached at the bottom (scrollSpace.ts). A user's file opens at
 * most a million chunks per stream today (workers/budget.ts); the UI bench checks every way of moving at 10M rows
 * through its own build's page hook (src/bench/ui.bench.ts).
 */
export function TimelineGrid({
  engine,
  rows,
  missing,
}: {
  readonly engine: ReplayEngine
  readonly rows: TimelineRows
  /** Sorted seqs missing from the log that the recorded message cites. */
  readonly missing: readonly number[]
}) {
  const t = useT()
  const k = useChunkscope((s) => s.k)
  const { seekTo, toggleRun } = useChunkscope((s) => s.actions)
  const prefix = useId()
  const scrollRef = useRef<HTMLDivElement>(null)
  const [viewport, setViewport] = useState(600)
  const [scroll, setScroll] = useState<Scroll>({ scrollTop: 0, top: null })
  const view = Math.max(ROW_HEIGHT, viewport - HEADER)
  // Memoized: the cursor-follow effect below must not run again on every scroll.
  const space = useMemo(() => scrollSpace(rows.count, ROW_HEIGHT, view), [rows.count, view])
  const top = Math.min(space.bottom, scroll.top ?? contentTop(space, view, scroll.scrollTop))

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el === null) return
    // The view's height at once, before the first paint: the cursor-follow below places the view from it, and a
    // follow decided on a guessed height left the view that much short of the last row when a file opened at its end.
    setViewport(el.clientHeight)
    const observer = new ResizeObserver(() => setViewport(el.clientHeight))
    observer.observe(el)
    // Rendered within the scroll event, before the frame paints: the rows never trail the scrollbar by a frame.
    const onScroll = () => flushSync(() => setScroll((previous) => echoOf(previous, el.scrollTop)))
    el.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      observer.disconnect()
      el.removeEventListener('scroll', onScroll)
    }
  }, [])

  // Keep the current row in view, moving only when it is out of view (then centred, scrollSpace.ts). Decided while
  // rendering, when the cursor, the rows or the view's size change (React's "adjust state when a prop changes"),
  // so a step that scrolls renders and lays out the rows once, not once for the step and again for the scroll.
  // The view's size and offset come from the ResizeObserver and the scroll listener: reading them from the
  // element would force a layout on every step. At the start (k = 0, no row current) the first row is kept in view,
  // as the row the next step applies: Home shows the start in its own frame. It used to leave the view where it was,
  // so the first → after Home from the end scrolled the whole window and re-rendered every row in a step's frame
  // (the worst step of the ui bench's 30, a 12.8 ms key task; bench/README.md, the → step).
  const [followed, setFollowed] = useState<{ k: number; rows: TimelineRows; space: ScrollSpace } | null>(null)
  if (followed === null || followed.k !== k || followed.rows !== rows || followed.space !== space) {
    setFollowed({ k, rows, space })
    const row = rows.count === 0 ? -1 : Math.max(0, rowAtOrBefore(rows, k - 1))
    const next = row < 0 ? null : followTop(space, view, top, row * ROW_HEIGHT, ROW_HEIGHT)
    // The content offset is kept as asked, not as the browser rounds the scroll offset (see echoOf).
    if (next !== null)
      setScroll({
        scrollTop: scrollTopFor(space, view, next) + (next >= space.bottom ? END_SLACK : 0),
        top: next,
      })
  }
  const applied = useRef<Scroll | null>(null)
  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el === null || scroll.top === null || applied.current === scroll) return
    applied.current = scroll
    el.scrollTop = scroll.scrollTop
  }, [scroll])

  const onSeek = useCallback((row: number) => seekTo(seekTargetOf(rows, row)), [rows, seekTo])

  // The row menu: one instance, hung from the row it acts on (right-click, the ContextMenu key or Shift+F10 on the
  // grid, or the current row's ⋯ button). Closing hands focus back to the grid, which keeps the row as its cursor.
  const whatIf = useWhatIfContext()
  const [menu, setMenu] = useState<RowMenuAt | null>(null)
  const gridRef = useRef<HTMLTableElement>(null)
  const onActions = useCallback(
    (row: number, anchor: Element) => {
      const box = anchor.getBoundingClientRect()
      setMenu({ pos: rows.positions[row]!, x: box.right - 160, y: box.bottom })
    },
    [rows],
  )
  const closeMenu = useCallback(() => {
    setMenu(null)
    gridRef.current?.focus()
  }, [])

  const current = rowOf(rows, k - 1)
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
      const row = current >= 0 ? current : 0
      const el = document.getElementById(`${prefix}-${row}`)
      if (el !== null && whatIf !== null) {
        event.preventDefault()
        onActions(row, el)
      }
      return
    }
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
  const { first } = rowsInView(rows.count, ROW_HEIGHT, view, top, OVERSCAN)
  const slots = Math.ceil(view / ROW_HEIGHT) + OVERSCAN + 1
  // Every slot filled (the rows in view and at least OVERSCAN below, rowsInView's end never passes it): a scroll by
  // a row then neither mounts nor unmounts one, it only rewrites the rows' text.
  const end = Math.min(rows.count, first + slots)
  const shown: number[] = []
  for (let row = first; row < end; row++) shown.push(row)
  return (
    <div ref={scrollRef} className="timeline-grid h-full overflow-auto">
      {/* Table elements laid out as blocks and CSS grid rows; the table's height is the scrolled length. */}
      <table
        ref={gridRef}
        aria-label={t('timeline.chunks')}
        aria-rowcount={rows.count + 1}
        aria-colcount={COLUMN_NAMES.length}
        aria-activedescendant={current >= 0 ? `${prefix}-${current}` : undefined}
        // Focusable as a whole: ↑/↓ move the cursor row by row, PageUp/PageDown by a page, Enter toggles a run.
        // ARIA in HTML allows role=grid on <table>: an interactive table keeps its table semantics.
        // oxlint-disable-next-line jsx-a11y/no-noninteractive-element-to-interactive-role
        role="grid"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerOver={(event) => showClippedText(event.target)}
        onContextMenu={(event) => {
          const tr = (event.target as Element).closest('tr.timeline-row')
          const row = Number(tr?.getAttribute('aria-rowindex')) - 2
          // The ContextMenu key's own event lands on the grid: the menu the key opened stands for it.
          if (whatIf !== null && event.target === gridRef.current) event.preventDefault()
          if (whatIf === null || tr === null || !(row >= 0)) return
          event.preventDefault()
          setMenu({ pos: rows.positions[row]!, x: event.clientX, y: event.clientY })
        }}
        style={{ height: HEADER + space.body + END_SLACK }}
        className="block w-full min-w-[36rem] overflow-clip outline-offset-[-2px]"
      >
        <thead className="sticky top-0 z-10 block">
          <tr
            aria-rowindex={1}
            style={{ height: HEADER }}
            className="timeline-columns border-b border-slate-200 bg-slate-50 text-[11px] text-slate-600 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-300"
          >
            {COLUMN_NAMES.map((name, column) => (
              <th
                key={name}
                scope="col"
                className={`font-normal ${column === 0 || column === 1 || column === 3 ? 'text-right' : 'text-left'}`}
              >
                {name === 'payload' ? t('timeline.payload') : name === 'effect' ? t('timeline.effect') : name}
              </th>
            ))}
          </tr>
        </thead>
        {/* Stuck under the header; the partly scrolled-out top row slides under the header's opaque background. */}
        <tbody
          className="timeline-body sticky block"
          style={{
            top: HEADER,
            height: view,
            transform: `translateY(${first * ROW_HEIGHT - top}px)`,
            ['--timeline-reach' as string]: `${REACH}px`,
          }}
        >
          {shown.map((row) => (
            <TimelineRow
              key={row - first}
              id={`${prefix}-${row}`}
              engine={engine}
              rows={rows}
              missing={missing}
              row={row}
              top={(row - first) * ROW_HEIGHT}
              state={stateOf(row)}
              onSeek={onSeek}
              onToggle={toggleRun}
              onActions={whatIf !== null && row === current ? onActions : undefined}
              t={t}
            />
          ))}
        </tbody>
      </table>
      {menu !== null && whatIf !== null && engine.chunks.at(menu.pos) !== undefined && (
        <RowMenu
          at={menu}
          chunk={engine.chunks.at(menu.pos)!.chunk}
          total={engine.total}
          whatIf={whatIf}
          onClose={closeMenu}
          t={t}
        />
      )}
    </div>
  )
}
