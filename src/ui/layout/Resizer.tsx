import { useCallback, useRef, type KeyboardEvent, type PointerEvent } from 'react'

type Props = {
  /** 'x' resizes a column (drag left/right), 'y' a row. */
  readonly axis: 'x' | 'y'
  readonly label: string
  readonly value: number
  readonly min: number
  readonly max: number
  /** +1 when dragging right/down grows the pane, −1 when it shrinks it. */
  readonly sign?: 1 | -1
  readonly onChange: (value: number) => void
}

/** A draggable splitter between two panes; arrow keys move it by 16 px, so it works without a mouse too. */
export function Resizer({ axis, label, value, min, max, sign = 1, onChange }: Props) {
  const start = useRef<{ pointer: number; value: number } | null>(null)
  const clamp = useCallback((v: number) => Math.min(max, Math.max(min, v)), [min, max])

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId)
    start.current = { pointer: axis === 'x' ? event.clientX : event.clientY, value }
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return
    const delta = (axis === 'x' ? event.clientX : event.clientY) - start.current.pointer
    onChange(clamp(start.current.value + sign * delta))
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const grow = axis === 'x' ? 'ArrowRight' : 'ArrowDown'
    const shrink = axis === 'x' ? 'ArrowLeft' : 'ArrowUp'
    if (event.key !== grow && event.key !== shrink) return
    event.preventDefault()
    event.stopPropagation()
    onChange(clamp(value + (event.key === grow ? 16 : -16) * sign))
  }

  return (
    <div
      // A focusable window splitter (WAI-ARIA "separator" with a value): an <hr> cannot take focus or keys.
      // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role
      role="separator"
      aria-label={label}
      aria-orientation={axis === 'x' ? 'vertical' : 'horizontal'}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (start.current = null)}
      onKeyDown={onKeyDown}
      className={`shrink-0 bg-slate-200 hover:bg-sky-400 focus-visible:bg-sky-500 focus-visible:outline-none dark:bg-slate-700 ${
        axis === 'x' ? 'w-1 cursor-col-resize' : 'h-1 cursor-row-resize'
      }`}
    />
  )
}
