import { useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react'
import { useT } from '../i18n/useT'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { useChunkscopeStore } from '../StoreContext'
import type { LaneModel } from './buildLaneModel'
import {
  LANE_HEIGHT,
  PALETTE,
  RULER,
  chunkAt,
  contentHeight,
  cursorBand,
  drawBrush,
  drawCursor,
  drawLanes,
  gutterFor,
  laneAt,
  positionAt,
  prepare,
  type Geometry,
} from './drawLanes'
import { windowShowing, type LaneWindow } from './laneWindow'
import { useLaneControls, type Brush } from './useLaneControls'
import { useIsDark } from './useIsDark'

type Props = {
  readonly engine: ReplayEngine
  readonly model: LaneModel
  /** Text alternative of the picture. */
  readonly label: string
  readonly window: LaneWindow
  readonly onWindow: (window: LaneWindow) => void
  readonly brush: Brush | null
  readonly onBrush: (brush: Brush | null) => void
  readonly onHover: (hover: { readonly pos: number; readonly lane: number } | null) => void
}

/**
 * The lanes on two stacked canvases: the picture (redrawn on resize, scroll, zoom, theme, engine) and the cursor
 * layer with the brush (redrawn from `store.subscribe` on every cursor move, without a React render). Lanes beyond
 * the view scroll under a fixed ruler: the canvases are sticky inside a scroller as tall as all the lanes. The
 * cursor layer is the keyboard's way in: a slider over the cursor (see `useLaneControls.ts` for the keys).
 */
export function LaneCanvas({ engine, model, label, window: view, onWindow, brush, onBrush, onHover }: Props) {
  const store = useChunkscopeStore()
  const t = useT()
  const palette = PALETTE[useIsDark() ? 'dark' : 'light']
  const scrollRef = useRef<HTMLDivElement>(null)
  const baseRef = useRef<HTMLCanvasElement>(null)
  const cursorRef = useRef<HTMLCanvasElement>(null)
  const [size, setSize] = useState({ width: 0, height: 0 })
  const gutter = useMemo(() => gutterFor(model), [model])
  const geometryRef = useRef<Geometry>({ width: 0, height: 0, gutter, scrollTop: 0 })
  const controls = useLaneControls({ model, view, onWindow, brush, onBrush, geometryRef, cursorRef })

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el === null) return
    const observer = new ResizeObserver(() => setSize({ width: el.clientWidth, height: el.clientHeight }))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  useLayoutEffect(() => {
    const scroller = scrollRef.current
    const base = baseRef.current
    const overlay = cursorRef.current
    if (scroller === null || base === null || overlay === null || size.width === 0) return
    // The scroll offset is tracked from scroll events: reading scrollTop on every cursor move would force a layout.
    let scrollTop = scroller.scrollTop
    const geometry = (): Geometry => ({ ...size, gutter, scrollTop, from: view.from, to: view.to })
    geometryRef.current = geometry()
    const paintBase = () => {
      const ctx = prepare(base, geometry())
      if (ctx === null) return
      drawLanes(ctx, model, geometry(), palette)
      ctx.restore()
    }
    const describe = (k: number) =>
      overlay.setAttribute('aria-valuetext', t('lanes.position', { k, total: model.total }))
    const onFocus = () => describe(store.getState().k)
    overlay.addEventListener('focus', onFocus)
    // The position the cursor layer shows; null until it is painted whole (after a resize or a new ratio).
    let painted: number | null = null
    const paintCursor = (k: number) => {
      const g = geometry()
      const ctx = prepare(overlay, g, painted === null ? undefined : cursorBand(model, g, painted, k))
      if (ctx === null) return
      if (brush !== null) drawBrush(ctx, model, g, palette, brush)
      drawCursor(ctx, model, g, palette, k)
      ctx.restore()
      painted = k
      overlay.setAttribute('aria-valuenow', String(k))
      // Worded only while the slider has focus (and on focus, below): formatting it costs a step's key-to-paint.
      if (document.activeElement === overlay) describe(k)
    }
    // Bring the lane of the chunk just applied into view when it is scrolled away; pan the zoomed window to it.
    const follow = (k: number) => {
      const shown = windowShowing(view, model.total, k)
      if (shown !== view) onWindow(shown)
      const chunk = engine.chunks.at(k - 1)?.chunk
      const index = chunk !== undefined && 'index' in chunk ? chunk.index : undefined
      const order = typeof index === 'number' ? engine.life(index)?.order : undefined
      if (order === undefined) return
      const height = size.height - RULER
      const top = order * LANE_HEIGHT
      if (top >= scrollTop && top + LANE_HEIGHT <= scrollTop + height) return
      scroller.scrollTop = top - height / 2 + LANE_HEIGHT / 2
    }
    let frame = 0
    const onScroll = () => {
      scrollTop = scroller.scrollTop
      geometryRef.current = geometry()
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(paintBase)
    }
    paintBase()
    paintCursor(store.getState().k)
    follow(store.getState().k)
    scroller.addEventListener('scroll', onScroll, { passive: true })
    // A move to a screen with another pixel ratio keeps the CSS size (no resize): repaint at the new ratio.
    const resolution = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`)
    const onResolution = () => {
      painted = null
      paintBase()
      paintCursor(store.getState().k)
    }
    resolution.addEventListener('change', onResolution)
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.k === previous.k) return
      paintCursor(state.k)
      follow(state.k)
    })
    return () => {
      unsubscribe()
      overlay.removeEventListener('focus', onFocus)
      scroller.removeEventListener('scroll', onScroll)
      resolution.removeEventListener('change', onResolution)
      cancelAnimationFrame(frame)
    }
  }, [engine, model, size, gutter, palette, store, view, onWindow, brush, t])

  const pointer = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect()
    const g = geometryRef.current
    const x = event.clientX - rect.left
    return {
      inPlot: x >= gutter,
      pos: chunkAt(model, g, x),
      at: positionAt(model, g, x),
      lane: laneAt(model, g, event.clientY - rect.top),
    }
  }

  return (
    <div ref={scrollRef} className="h-full overflow-x-hidden overflow-y-auto">
      <div className="sticky top-0" style={{ height: size.height }}>
        <canvas
          ref={baseRef}
          // A canvas is an image to assistive tech only with role="img" and a label (no <img> can draw this).
          // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role
          role="img"
          aria-label={label}
          className="absolute inset-0"
          style={{ width: size.width, height: size.height }}
        />
        {/* Pointer and keyboard layer: click or drag seeks, Shift+drag brushes, Ctrl+wheel zooms. */}
        <canvas
          ref={cursorRef}
          // A canvas drawn by hand is the slider's surface: the slider role gives it a name, a value and keys.
          // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role
          role="slider"
          tabIndex={0}
          aria-label={t('lanes.slider')}
          aria-valuemin={0}
          aria-valuemax={model.total}
          // Kept current by the cursor layer's painter (no render per step); a render writes the same value.
          aria-valuenow={store.getState().k}
          aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight W A S D + - Escape"
          title={t('lanes.keysHint')}
          data-lanes-cursor
          className="absolute inset-0 cursor-crosshair touch-none rounded-sm focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sky-500"
          style={{ width: size.width, height: size.height }}
          onKeyDown={controls.onKeyDown}
          onPointerDown={(event) => {
            const at = pointer(event)
            if (event.button !== 0 || !at.inPlot || model.total === 0) return
            event.currentTarget.focus({ preventScroll: true })
            event.currentTarget.setPointerCapture(event.pointerId)
            controls.pointerDown(at.pos, event.shiftKey)
          }}
          onPointerMove={(event) => {
            const at = pointer(event)
            onHover(at.inPlot && model.total > 0 ? { pos: at.pos, lane: at.lane } : null)
            controls.pointerMove(at.pos)
          }}
          onPointerUp={controls.pointerUp}
          onPointerCancel={controls.pointerUp}
          onPointerLeave={() => onHover(null)}
        />
      </div>
      <div style={{ height: Math.max(0, contentHeight(model) - size.height) }} />
    </div>
  )
}
