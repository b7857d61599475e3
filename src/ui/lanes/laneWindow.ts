/**
 * The stretch of positions the lanes show, [from, to) in chunk positions (fractional while zooming): the whole
 * stream unzoomed. Zoom keeps the position under an anchor (the pointer, or the cursor for keys) where it is on
 * screen, as Perfetto's timeline does; pan moves by a fraction of the width. Both stay inside [0, total].
 */
export type LaneWindow = { readonly from: number; readonly to: number }

/** Zoomed in no further than this many chunks across the plot. */
export const MIN_SPAN = 8

export const fullWindow = (total: number): LaneWindow => ({ from: 0, to: Math.max(1, total) })

/**
 * The window scaled by `factor` (< 1 zooms in) around `anchor`, clamped to the stream.
 *
 * @example
 * zoomWindow({ from: 0, to: 1000 }, 1000, 0.5, 500) // { from: 250, to: 750 }
 */
export function zoomWindow(window: LaneWindow, total: number, factor: number, anchor: number): LaneWindow {
  const full = Math.max(1, total)
  const span = Math.min(full, Math.max(Math.min(MIN_SPAN, full), (window.to - window.from) * factor))
  const share = window.to > window.from ? (anchor - window.from) / (window.to - window.from) : 0.5
  return clampWindow(anchor - share * span, span, full)
}

/** The window moved by `fraction` of its width (negative: towards the start). */
export function panWindow(window: LaneWindow, total: number, fraction: number): LaneWindow {
  const span = window.to - window.from
  return clampWindow(window.from + fraction * span, span, Math.max(1, total))
}

/** The window moved (not resized) so `pos` is inside it, or itself when it already is. */
export function windowShowing(window: LaneWindow, total: number, pos: number): LaneWindow {
  if (pos >= window.from && pos <= window.to) return window
  const span = window.to - window.from
  return clampWindow(pos - span / 2, span, Math.max(1, total))
}

export const isZoomed = (window: LaneWindow, total: number): boolean =>
  window.from > 0 || window.to < Math.max(1, total)

function clampWindow(from: number, span: number, total: number): LaneWindow {
  const start = Math.min(Math.max(0, from), total - span)
  return { from: start, to: start + span }
}
