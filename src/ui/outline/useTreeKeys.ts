import type { Virtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useRef, type KeyboardEvent, type RefObject } from 'react'
import type { OutlineRow } from './flattenOutline'
import { ROW_HEIGHT } from './OutlineRowView'

type Options = {
  readonly rows: readonly OutlineRow[]
  readonly virtualizer: Virtualizer<HTMLDivElement, Element>
  readonly scrollRef: RefObject<HTMLDivElement | null>
  readonly toggle: (id: string, open: boolean) => void
  readonly activate: (row: OutlineRow) => void
  readonly setFocusedId: (id: string) => void
}

/**
 * The WAI-ARIA tree keys over the flattened rows (↑/↓, →/←, Home/End, PageUp/PageDown, Enter/Space). Moving focus
 * to a row scrolls it into view first: in a virtual list the row may not exist until then (the tree renders the
 * tabbable row always, so it does once the focus id is set).
 */
export function useTreeKeys({ rows, virtualizer, scrollRef, toggle, activate, setFocusedId }: Options) {
  /** The row to move DOM focus to once it is rendered. */
  const pending = useRef<string | null>(null)

  useEffect(() => {
    const id = pending.current
    if (id === null) return
    pending.current = null
    const index = rows.findIndex((row) => row.node.id === id)
    if (index < 0) return
    virtualizer.scrollToIndex(index, { align: 'auto' })
    scrollRef.current
      ?.querySelector<HTMLElement>(`[data-key="${CSS.escape(id)}"]`)
      ?.focus({ preventScroll: true })
  })

  const focusRow = (row: OutlineRow | undefined) => {
    if (row === undefined) return
    pending.current = row.node.id
    setFocusedId(row.node.id)
  }

  const onKeyDown = (event: KeyboardEvent, row: OutlineRow) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return
    const index = rows.indexOf(row)
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1)
    switch (event.key) {
      case 'ArrowDown':
        focusRow(rows[index + 1])
        break
      case 'ArrowUp':
        focusRow(rows[index - 1])
        break
      case 'PageDown':
        focusRow(rows[Math.min(rows.length - 1, index + page)])
        break
      case 'PageUp':
        focusRow(rows[Math.max(0, index - page)])
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
  // One function for every render, reading this render's rows: the tree's rows are memoized, and a handler made
  // per render would re-render every row on each of the tree's renders (a scroll, an expand).
  const latest = useRef(onKeyDown)
  useLayoutEffect(() => {
    latest.current = onKeyDown
  })
  return useCallback((event: KeyboardEvent, row: OutlineRow) => latest.current(event, row), [])
}
