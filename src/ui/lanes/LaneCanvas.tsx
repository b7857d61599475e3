import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import type { LaneModel } from './buildLaneModel'
import {
  LANE_HEIGHT,
  PALETTE,
  RULER,
  chunkAt,
  contentHeight,
  drawCursor,
  drawLanes,
  gutterFor,
  laneAt,
  prepare,
  type Geometry,
} from './drawLanes'
import { useIsDark } from './useIsDark'

type Props = {
  readonly engine: ReplayEngine
  readonly model: LaneModel
  /** Text alternative of the picture. */
  readonly label: string
  readonly onHover: (hover: { readonly pos: number; readonly lane: number } | null) => void
}

/**
 * The lanes on two stacked canvases: the picture (redrawn on resize, scroll, theme, engine) and the cursor layer
 * (redrawn from `store.subscribe` on every cursor move, without a React render). Lanes beyond the view scroll
 * under a fixed ruler: the canvases are sticky inside a scroller as tall as all the lanes.
 */
export function LaneCanvas({ engine, model, label, onHover }: Props) {
  const store = useChunkscopeStore()
  const { seekTo } = useChunkscope((s) => s.actions)
  const palette = PALETTE[useIsDark() ? 'dark' : 'light']
  const scrollRef = useRef<HTMLDivElement>(null)
  const baseRef = useRef<HTMLCanvasElement>(null)
  const cursorRef = useRef<HTMLCanvasElement>(null)
  const [size, setSize] = useState({ width: 0, height: 0 })
  const gutter = useMemo(() => gutterFor(model), [model])
  const dragging = useRef(false)
  const pendingSeek = useRef<{ k: number; frame: number } | null>(null)
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
    const geometry = (): Geometry => ({ ...size, gutter, scrollTop })
    const paintBase = () => {
      const ctx = prepare(base, geometry())
      if (ctx !== null) drawLanes(ctx, model, geometry(), palette)
    }
    const paintCursor = (k: number) => {
      const ctx = prepare(overlay, geometry())
      if (ctx !== null) drawCursor(ctx, model, geometry(), palette, k)
    }
    // Bring the lane of the chunk just applied into view when it is scrolled away.
    const follow = (k: number) => {
      const chunk = engine.chunks[k - 1]?.chunk
      const index = chunk !== undefined && 'index' in chunk ? chunk.index : undefined
      const order = typeof index === 'number' ? engine.life(index)?.order : undefined
      if (order === undefined) return
      const view = size.height - RULER
      const top = order * LANE_HEIGHT
      if (top >= scrollTop && top + LANE_HEIGHT <= scrollTop + view) return
      scroller.scrollTop = top - view / 2 + LANE_HEIGHT / 2
    }
    let frame = 0
    const onScroll = () => {
      scrollTop = scroller.scrollTop
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
      scroller.removeEventListener('scroll', onScroll)
      resolution.removeEventListener('change', onResolution)
      cancelAnimationFrame(frame)
    }
  }, [engine, model, size, gutter, palette, store])

  const pointer = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect()
    const g: Geometry = { ...size, gutter, scrollTop: scrollRef.current?.scrollTop ?? 0 }
    const x = event.clientX - rect.left
    return {
      inPlot: x >= gutter,
      pos: chunkAt(model, g, x),
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
        {/* Pointer layer: click or drag seeks so the chunk under the pointer is the last one applied. */}
        <canvas
          ref={cursorRef}
          aria-hidden
          data-lanes-cursor
          className="absolute inset-0 cursor-crosshair touch-none"
          style={{ width: size.width, height: size.height }}
          onPointerDown={(event) => {
            const at = pointer(event)
            if (event.button !== 0 || !at.inPlot || model.total === 0) return
            dragging.current = true
            event.currentTarget.setPointerCapture(event.pointerId)
            seekTo(at.pos + 1)
          }}
          onPointerMove={(event) => {
            const at = pointer(event)
            onHover(at.inPlot && model.total > 0 ? { pos: at.pos, lane: at.lane } : null)
            if (dragging.current) seekSoon(at.pos + 1)
          }}
          onPointerUp={() => (dragging.current = false)}
          onPointerCancel={() => (dragging.current = false)}
          onPointerLeave={() => onHover(null)}
        />
      </div>
      <div style={{ height: Math.max(0, contentHeight(model) - size.height) }} />
    </div>
  )
}
