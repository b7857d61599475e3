import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useChunkscope } from '../StoreContext'
import type { Outline } from './buildOutline'
import { flattenOutline, groupIds, pathTo, type OutlineRow } from './flattenOutline'
import { OutlineRowView } from './OutlineRowView'
import { useAttemptSummaries } from './useAttemptSummaries'

/** Outlines up to this many nodes start fully expanded; bigger ones open only the way to the selected stream. */
const EXPAND_ALL_UP_TO = 400

/**
 * The outline as a WAI-ARIA tree: ↑/↓ move, → opens or enters a group, ← closes or goes to the parent,
 * Home/End jump, Enter/Space select an attempt or toggle a group. One row is tabbable (roving tabindex).
 */
export function OutlineTree({ outline }: { readonly outline: Outline }) {
  const streamKey = useChunkscope((s) => s.streamKey)
  const engine = useChunkscope((s) => s.engine)
  const results = useChunkscope((s) => s.results)
  const { selectStream } = useChunkscope((s) => s.actions)
  const summaryOf = useAttemptSummaries(outline.attempts, results, engine)
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
  const [focusedId, setFocusedId] = useState<string | null>(null)
  const moveFocus = useRef(false)
  const listRef = useRef<HTMLUListElement>(null)
  const rows = useMemo(() => flattenOutline(outline.roots, expanded), [outline, expanded])

  // A newly selected stream (from a link, a click, a key) is revealed: adjusted while rendering, React's pattern
  // for state derived from a changed prop, so the tree never paints with the selection hidden.
  const [revealed, setRevealed] = useState<string | null>(null)
  if (streamKey !== null && streamKey !== revealed) {
    setRevealed(streamKey)
    const path = pathTo(outline.roots, streamKey)
    if (!path.every((id) => expanded.has(id))) setExpanded(new Set([...expanded, ...path]))
    // The roving tabindex follows the selection (DOM focus stays where it is).
    setFocusedId(streamKey)
  }
  useEffect(() => {
    const list = listRef.current
    if (streamKey === null || list === null) return undefined
    const reveal = () => {
      const row = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(streamKey)}"]`)
      if (row !== null && !fullyVisible(row)) row.scrollIntoView({ block: 'center' })
    }
    reveal()
    // In a narrow window the outline lives in a closed drawer: reveal the selection again when it opens.
    let shown = list.clientHeight > 0
    const observer = new ResizeObserver(() => {
      if (list.clientHeight > 0 && !shown) reveal()
      shown = list.clientHeight > 0
    })
    observer.observe(list)
    return () => observer.disconnect()
  }, [streamKey])
  useEffect(() => {
    if (!moveFocus.current || focusedId === null) return
    moveFocus.current = false
    listRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusedId)}"]`)?.focus()
  }, [focusedId, rows])

  const tabbable = rows.some((row) => row.node.id === focusedId) ? focusedId : (rows[0]?.node.id ?? null)

  const toggle = (id: string, open: boolean) =>
    setExpanded((current) => {
      const next = new Set(current)
      if (open) next.add(id)
      else next.delete(id)
      return next
    })
  const focusRow = (row: OutlineRow | undefined) => {
    if (row === undefined) return
    moveFocus.current = true
    setFocusedId(row.node.id)
  }
  const activate = (row: OutlineRow) => {
    if (row.node.kind === 'attempt') void selectStream(row.node.id)
    else if (row.expanded !== null) toggle(row.node.id, !row.expanded)
  }
  const onKeyDown = (event: KeyboardEvent, row: OutlineRow) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return
    const index = rows.indexOf(row)
    switch (event.key) {
      case 'ArrowDown':
        focusRow(rows[index + 1])
        break
      case 'ArrowUp':
        focusRow(rows[index - 1])
        break
      case 'ArrowRight':
        if (row.expanded === false) toggle(row.node.id, true)
        else if (row.expanded === true) focusRow(rows[index + 1])
        break
      case 'ArrowLeft':
        if (row.expanded === true) toggle(row.node.id, false)
        else focusRow(rows.find((candidate) => candidate.node.id === row.parentId))
        break
      case 'Home':
        focusRow(rows[0])
        break
      case 'End':
        focusRow(rows.at(-1))
        break
      case 'Enter':
      case ' ':
        activate(row)
        break
      default:
        return
    }
    // Handled here: the workbench's global keys (←/→ step, Home/End, Space play) must not act as well.
    event.preventDefault()
    event.stopPropagation()
  }

  if (rows.length === 0) {
    return <p className="p-2 text-xs text-slate-600 dark:text-slate-300">No streams in this source.</p>
  }
  return (
    <ul ref={listRef} role="tree" aria-label="Streams" className="py-0.5">
      {rows.map((row) => (
        <OutlineRowView
          key={row.node.id}
          row={row}
          summary={row.node.kind === 'attempt' ? summaryOf(row.node) : null}
          selected={row.node.id === streamKey}
          focused={row.node.id === tabbable}
          onActivate={activate}
          onFocusRow={setFocusedId}
          onKeyDown={onKeyDown}
        />
      ))}
    </ul>
  )
}

/** Whether the row is wholly inside its scrolling ancestor (then it stays put: no jump on a click). */
function fullyVisible(row: HTMLElement): boolean {
  let scroller = row.parentElement
  while (scroller !== null && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) {
    scroller = scroller.parentElement
  }
  if (scroller === null) return true
  const box = row.getBoundingClientRect()
  const view = scroller.getBoundingClientRect()
  return box.top >= view.top && box.bottom <= view.bottom
}
