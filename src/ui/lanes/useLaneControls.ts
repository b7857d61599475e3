import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import type { LaneModel } from './buildLaneModel'
import { positionAt, type Geometry } from './drawLanes'
import { panWindow, zoomWindow, type LaneWindow } from './laneWindow'

/** A brushed range of chunks [from, to): what the lanes' selection figures are about. */
export type Brush = { readonly from: number; readonly to: number }

type Options = {
  readonly model: LaneModel
  readonly view: LaneWindow
  readonly onWindow: (window: LaneWindow) => void
  readonly brush: Brush | null
  readonly onBrush: (brush: Brush | null) => void
  readonly geometryRef: RefObject<Geometry>
  readonly cursorRef: RefObject<HTMLCanvasElement | null>
}

/** One key press zooms by this factor (Perfetto's W/S feel); a wheel notch of 100 px by about as much. */
const ZOOM_STEP = 0.7
/** A/D pan by this share of the view. */
const PAN_STEP = 0.2

/**
 * How the lanes answer the pointer and the keys, as in Perfetto: Ctrl+wheel zooms around the pointer, Shift+wheel
 * (or a sideways wheel) pans; W / S or + / − zoom around the cursor, A / D pan; ← / → step; Shift+← / → and
 * Shift+drag brush a range with the cursor at its moving end; a plain click or drag seeks; Esc drops the brush.
 */
export function useLaneControls({ model, view, onWindow, brush, onBrush, geometryRef, cursorRef }: Options) {
  const store = useChunkscopeStore()
  const { seekTo, stepBy } = useChunkscope((s) => s.actions)
  /** Where the brush started: a cursor position, fixed while its other end moves. */
  const anchor = useRef<number | null>(null)
  const drag = useRef<'seek' | 'brush' | null>(null)
  const pendingSeek = useRef<{ k: number; frame: number } | null>(null)
  const latest = useRef({ view, brush })
  useEffect(() => {
    latest.current = { view, brush }
  }, [view, brush])

  // Dragging seeks at most once per frame, to the newest position (older requests are dropped).
  const seekSoon = (k: number) => {
    if (pendingSeek.current !== null) {
      pendingSeek.current.k = k
      return
    }
    const request = { k, frame: 0 }
    request.frame = requestAnimationFrame(() => {
      pendingSeek.current = null
      if (store.getState().k !== request.k) seekTo(request.k)
    })
    pendingSeek.current = request
  }
  useEffect(() => () => cancelAnimationFrame(pendingSeek.current?.frame ?? 0), [])

  const brushTo = (k: number) => {
    const from = anchor.current ?? k
    onBrush(from === k ? null : { from: Math.min(from, k), to: Math.max(from, k) })
  }

  // The wheel: a listener of our own, since React's is passive and Ctrl+wheel must not zoom the page.
  useEffect(() => {
    const canvas = cursorRef.current
    if (canvas === null) return undefined
    const onWheel = (event: WheelEvent) => {
      const { view } = latest.current
      const g = geometryRef.current
      const sideways = event.shiftKey ? event.deltaY || event.deltaX : event.deltaX
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault()
        const anchorAt = positionAt(model, g, event.clientX - canvas.getBoundingClientRect().left)
        onWindow(zoomWindow(view, model.total, Math.exp(event.deltaY * 0.0035), anchorAt))
      } else if (sideways !== 0 && Math.abs(sideways) >= Math.abs(event.shiftKey ? 0 : event.deltaY)) {
        event.preventDefault()
        const plot = Math.max(1, g.width - g.gutter)
        onWindow(panWindow(view, model.total, sideways / plot))
      }
    }
    canvas.addEventListener('wheel', onWheel, { passive: false })
    return () => canvas.removeEventListener('wheel', onWheel)
  }, [cursorRef, geometryRef, model, onWindow])

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return
    const k = store.getState().k
    const zoom = (factor: number) => onWindow(zoomWindow(view, model.total, factor, k))
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowLeft': {
        const delta = event.key === 'ArrowRight' ? 1 : -1
        if (!event.shiftKey) {
          stepBy(delta)
          break
        }
        if (brush === null || anchor.current === null) anchor.current = k
        const next = Math.min(model.total, Math.max(0, k + delta))
        seekTo(next)
        brushTo(next)
        break
      }
      case 'w':
      case 'W':
      case '+':
      case '=':
        zoom(ZOOM_STEP)
        break
      case 's':
      case 'S':
      case '-':
        zoom(1 / ZOOM_STEP)
        break
      case 'a':
      case 'A':
        onWindow(panWindow(view, model.total, -PAN_STEP))
        break
      case 'd':
      case 'D':
        onWindow(panWindow(view, model.total, PAN_STEP))
        break
      case 'Escape':
        if (brush === null) return
        onBrush(null)
        anchor.current = null
        break
      default:
        return
    }
    // Handled here: the workbench's global keys (Shift+← / → to block boundaries) must not act as well.
    event.preventDefault()
    event.stopPropagation()
  }

  return {
    onKeyDown,
    /** A press on chunk `pos`: seek to just after it, or with Shift start a brush there. */
    pointerDown(pos: number, shift: boolean) {
      if (shift) {
        drag.current = 'brush'
        anchor.current = pos
        onBrush({ from: pos, to: pos + 1 })
        seekTo(pos + 1)
        return
      }
      drag.current = 'seek'
      anchor.current = null
      onBrush(null)
      seekTo(pos + 1)
    },
    pointerMove(pos: number) {
      if (drag.current === 'seek') seekSoon(pos + 1)
      if (drag.current !== 'brush' || anchor.current === null) return
      // The range covers the chunks from the press to the pointer, both included; the cursor follows the pointer.
      const start = anchor.current
      onBrush(pos >= start ? { from: start, to: pos + 1 } : { from: pos, to: start + 1 })
      seekSoon(pos + 1)
    },
    pointerUp() {
      drag.current = null
    },
  }
}
