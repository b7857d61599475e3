import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { useT } from '../i18n/useT'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { useChunkscope } from '../StoreContext'
import type { Outline, OutlineNode } from './buildOutline'
import { filterOutline, type OutlineView } from './filterOutline'
import { flattenOutline, groupIds, keepUnchangedRows, pathTo, type OutlineRow } from './flattenOutline'
import { OutlineRowView, ROW_HEIGHT } from './OutlineRowView'
import { OutlineToolbar } from './OutlineToolbar'
import { useAttemptSummaries } from './useAttemptSummaries'
import { useTreeKeys } from './useTreeKeys'

/** Outlines up to this many nodes start fully expanded; bigger ones open only the way to the selected stream. */
const EXPAND_ALL_UP_TO = 400

/**
 * The outline as a WAI-ARIA tree: ↑/↓ move, → opens or enters a group, ← closes or goes to the parent,
 * Home/End jump, Enter/Space select an attempt or toggle a group. One row is tabbable (roving tabindex).
 *
 * Virtualized: only the rows in view exist (a 100 MB log has ~10,000 nodes), each with its aria-level, -setsize and
 * -posinset, so assistive tech still hears where it is; the tabbable row is always rendered, in view or not, so Tab
 * reaches the tree. A filter or a search shows its matches expanded; the user's own expansion returns when cleared.
 */
export function OutlineTree({ outline }: { readonly outline: Outline }) {
  const t = useT()
  const streamKey = useChunkscope((s) => s.streamKey)
  const engine = useChunkscope((s) => s.engine)
  const results = useChunkscope((s) => s.results)
  const { selectStream } = useChunkscope((s) => s.actions)
  const summaryOf = useAttemptSummaries(outline.attempts, results, engine)
  const [view, setView] = useState<OutlineView>({ filter: 'all', query: '' })
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(
    () =>
      new Set(
        outline.size <= EXPAND_ALL_UP_TO
          ? groupIds(outline.roots)
          : streamKey === null
            ? []
            : pathTo(outline.roots, streamKey),
      ),
  )
  // While filtering, everything found is open except what the user closes (a fresh set per filter).
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set())
  const filtering = view.filter !== 'all' || view.query.trim() !== ''
  const roots = useMemo(() => filterOutline(outline.roots, view, summaryOf), [outline, view, summaryOf])
  const open = useMemo(
    () => (filtering ? new Set(groupIds(roots).filter((id) => !closed.has(id))) : expanded),
    [filtering, roots, closed, expanded],
  )
  // The rows last shown: a row that did not change keeps its object (and its memoized row view).
  const shownRows = useRef<readonly OutlineRow[]>([])
  const rows = useMemo(() => keepUnchangedRows(flattenOutline(roots, open), shownRows.current), [roots, open])
  useLayoutEffect(() => {
    shownRows.current = rows
  }, [rows])
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const scrollRef = useRef<HTMLDivElement>(null)

  // A newly selected stream (from a link, a click, a key) is revealed: adjusted while rendering, React's pattern
  // for state derived from a changed prop, so the tree never paints with the selection hidden.
  const [revealed, setRevealed] = useState<string | null>(null)
  if (streamKey !== null && streamKey !== revealed) {
    setRevealed(streamKey)
    const path = pathTo(outline.roots, streamKey)
    if (!path.every((id) => expanded.has(id))) setExpanded(new Set([...expanded, ...path]))
    if (path.some((id) => closed.has(id))) setClosed(new Set([...closed].filter((id) => !path.includes(id))))
    // The roving tabindex follows the selection (DOM focus stays where it is).
    setFocusedId(streamKey)
  }

  const focusedIndex = rows.findIndex((row) => row.node.id === focusedId)
  const tabbable = focusedIndex >= 0 ? focusedIndex : 0
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range)
      if (tabbable < rows.length && !indexes.includes(tabbable)) indexes.push(tabbable)
      return indexes.sort((a, b) => a - b)
    },
    [tabbable, rows.length],
  )
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    rangeExtractor,
    // A scroll's re-render (rows entering the range) is not forced into the frame that reports the scroll: that
    // frame paints first, from the rows already there (the overscan covers ten rows past each edge), and the new
    // rows follow in the next task. Forced, it rendered inside the frame of a click that follows a scroll and
    // delayed that click's paint (bench/README.md, the outline's expand).
    useFlushSync: false,
  })

  const selectedIndex = streamKey === null ? -1 : rows.findIndex((row) => row.node.id === streamKey)
  useEffect(() => {
    const scroller = scrollRef.current
    if (selectedIndex < 0 || scroller === null) return undefined
    const reveal = () => {
      const top = selectedIndex * ROW_HEIGHT
      const inView =
        top >= scroller.scrollTop && top + ROW_HEIGHT <= scroller.scrollTop + scroller.clientHeight
      if (!inView) virtualizer.scrollToIndex(selectedIndex, { align: 'center' })
    }
    reveal()
    // In a narrow window the outline lives in a closed drawer: reveal the selection again when it opens.
    let shown = scroller.clientHeight > 0
    const observer = new ResizeObserver(() => {
      if (scroller.clientHeight > 0 && !shown) reveal()
      shown = scroller.clientHeight > 0
    })
    observer.observe(scroller)
    return () => observer.disconnect()
    // Only a new selection scrolls: expanding or filtering leaves the view where the user put it.
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [streamKey, selectedIndex < 0])

  const toggle = useCallback(
    (id: string, isOpen: boolean) => {
      const set = (current: ReadonlySet<string>, add: boolean) => {
        const next = new Set(current)
        if (add) next.add(id)
        else next.delete(id)
        return next
      }
      if (filtering) setClosed((current) => set(current, !isOpen))
      else setExpanded((current) => set(current, isOpen))
    },
    [filtering],
  )
  const activate = useCallback(
    (row: OutlineRow) => {
      if (row.node.kind === 'attempt') void selectStream(row.node.id)
      else if (row.expanded !== null) toggle(row.node.id, !row.expanded)
    },
    [selectStream, toggle],
  )
  const onKeyDown = useTreeKeys({ rows, virtualizer, scrollRef, toggle, activate, setFocusedId })

  const expandAll = () => (filtering ? setClosed(new Set()) : setExpanded(new Set(groupIds(outline.roots))))
  const collapseAll = () => {
    if (filtering) setClosed(new Set(groupIds(roots)))
    else setExpanded(new Set())
    // The focused row may be inside a group that closes: the roving tabindex moves to the first row.
    setFocusedId(null)
  }
  const shown = filtering ? { streams: countAttempts(roots), total: outline.attempts.length } : null
  // The rendered range lies in the list's flow below a padding as tall as the rows above it, so an expand moves the
  // rows under the opened group by layout alone: they keep their props and do not re-render. Only the tabbable row
  // kept outside the range (rangeExtractor) is placed on its own.
  const items = virtualizer.getVirtualItems()
  const apart = (at: number, next: number | undefined) =>
    items[at]?.index === tabbable && next !== undefined && Math.abs(next - tabbable) !== 1
  const before = items.length > 1 && apart(0, items[1]?.index) ? items[0]!.index : -1
  const after = items.length > 1 && apart(items.length - 1, items.at(-2)?.index) ? items.at(-1)!.index : -1
  const flowStart = items.find((item) => item.index !== before && item.index !== after)?.start ?? 0

  return (
    <div className="flex h-full min-h-0 flex-col">
      <OutlineToolbar
        view={view}
        onView={(next) => {
          setView(next)
          setClosed(new Set())
        }}
        onExpandAll={expandAll}
        onCollapseAll={collapseAll}
        shown={shown}
      />
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-auto">
        {rows.length === 0 ? (
          filtering ? null : (
            <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('outline.noStreams')}</p>
          )
        ) : (
          <ul
            role="tree"
            aria-label={t('outline.tree')}
            className="relative my-0.5"
            style={{ height: virtualizer.getTotalSize(), paddingTop: flowStart }}
          >
            {items.map((item) => {
              const row = rows[item.index]!
              return (
                <OutlineRowView
                  key={row.node.id}
                  row={row}
                  top={item.index === before || item.index === after ? item.start : null}
                  summary={row.node.kind === 'attempt' ? summaryOf(row.node) : null}
                  selected={row.node.id === streamKey}
                  focused={item.index === tabbable}
                  onActivate={activate}
                  onFocusRow={setFocusedId}
                  onKeyDown={onKeyDown}
                />
              )
            })}
          </ul>
        )}
      </div>
    </div>
  )
}

function countAttempts(nodes: readonly OutlineNode[]): number {
  let count = 0
  for (const node of nodes) {
    if (node.kind === 'attempt') count += 1
    else if ('children' in node) count += countAttempts(node.children)
  }
  return count
}
