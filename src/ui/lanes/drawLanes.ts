import { BLOCK_ACCENT, OTHER_ACCENT } from '../chunkStyle'
import { partitionPoint } from '../../core/base/partitionPoint'
import type { Lane, LaneModel } from './buildLaneModel'

export const LANE_HEIGHT = 18
/** The position ruler along the top; it stays put while the lanes scroll under it. */
export const RULER = 16
const PAD_RIGHT = 8
const FONT = '11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace'

export type Palette = {
  readonly label: string
  readonly rule: string
  readonly ruleText: string
  readonly laneLine: string
  readonly cursor: string
  readonly cursorText: string
  /** Laid over the part of the stream not applied yet. */
  readonly pending: string
  readonly ignored: string
  readonly freezeEdge: string
  /** Laid over the brushed range. */
  readonly brush: string
}

export const PALETTE: Record<'light' | 'dark', Palette> = {
  light: {
    label: '#334155',
    rule: '#cbd5e1',
    ruleText: '#64748b',
    laneLine: '#f1f5f9',
    cursor: '#0284c7',
    cursorText: '#ffffff',
    pending: 'rgba(255, 255, 255, 0.55)',
    ignored: '#dc2626',
    freezeEdge: '#0f172a',
    brush: 'rgba(2, 132, 199, 0.16)',
  },
  dark: {
    label: '#cbd5e1',
    rule: '#334155',
    ruleText: '#94a3b8',
    laneLine: '#1e293b',
    cursor: '#38bdf8',
    cursorText: '#0f172a',
    pending: 'rgba(15, 23, 42, 0.6)',
    ignored: '#f87171',
    freezeEdge: '#f8fafc',
    brush: 'rgba(56, 189, 248, 0.2)',
  },
}

/** Where things are on the canvas, in CSS pixels. */
export type Geometry = {
  readonly width: number
  readonly height: number
  /** Width of the label column left of the plot. */
  readonly gutter: number
  /** How far the lanes are scrolled under the ruler. */
  readonly scrollTop: number
  /** The positions shown across the plot, [from, to) (`laneWindow.ts`); the whole stream when left out. */
  readonly from?: number
  readonly to?: number
}

const spanOf = (model: LaneModel, g: Geometry): { from: number; span: number } => {
  const from = g.from ?? 0
  return { from, span: Math.max(1e-9, (g.to ?? Math.max(1, model.total)) - from) }
}

/** Label column wide enough for "12 tool-call", within bounds. */
export function gutterFor(model: LaneModel): number {
  const longest = model.lanes.reduce((max, lane) => Math.max(max, lane.label.length), 0)
  return Math.min(140, Math.max(64, Math.ceil(longest * 6.7) + 14))
}

export function contentHeight(model: LaneModel): number {
  return RULER + model.lanes.length * LANE_HEIGHT + 2
}

const plotWidth = (g: Geometry): number => Math.max(1, g.width - g.gutter - PAD_RIGHT)

/** x of position p (0…total; a chunk at pos spans [pos, pos + 1)). */
export function xOf(model: LaneModel, g: Geometry, p: number): number {
  const { from, span } = spanOf(model, g)
  return g.gutter + ((p - from) / span) * plotWidth(g)
}

/** The chunk under x (clamped to the stream), so a click can make it the last one applied. */
export function chunkAt(model: LaneModel, g: Geometry, x: number): number {
  const { from, span } = spanOf(model, g)
  const pos = Math.floor(from + ((x - g.gutter) / plotWidth(g)) * span)
  return Math.min(model.total - 1, Math.max(0, pos))
}

/** The position (fractional) under x, for zooming around the pointer. */
export function positionAt(model: LaneModel, g: Geometry, x: number): number {
  const { from, span } = spanOf(model, g)
  return from + ((Math.min(Math.max(x, g.gutter), g.gutter + plotWidth(g)) - g.gutter) / plotWidth(g)) * span
}

/** The lane under y, or −1 over the ruler or below the last lane. */
export function laneAt(model: LaneModel, g: Geometry, y: number): number {
  if (y < RULER) return -1
  const lane = Math.floor((y - RULER + g.scrollTop) / LANE_HEIGHT)
  return lane < model.lanes.length ? lane : -1
}

/**
 * Prepares a canvas for drawing in CSS pixels at the device's pixel ratio: cleared whole, or only the columns
 * [band.left, band.right) with drawing clipped to them (the caller restores the context after drawing).
 */
export function prepare(
  canvas: HTMLCanvasElement,
  g: Geometry,
  band?: { readonly left: number; readonly right: number },
): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1
  const w = Math.max(1, Math.round(g.width * dpr))
  const h = Math.max(1, Math.round(g.height * dpr))
  if (canvas.width !== w) canvas.width = w
  if (canvas.height !== h) canvas.height = h
  const ctx = canvas.getContext('2d')
  if (ctx === null) return null
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
  ctx.save()
  if (band === undefined) {
    ctx.clearRect(0, 0, g.width, g.height)
    return ctx
  }
  ctx.beginPath()
  ctx.rect(band.left, 0, band.right - band.left, g.height)
  ctx.clip()
  ctx.clearRect(band.left, 0, band.right - band.left, g.height)
  return ctx
}

/**
 * How far from the cursor line its label can reach, in CSS pixels: the widest label ("k 10,000,000", ~85 px),
 * which sits centred on the line except at the canvas's edges, where it is pushed inside whole.
 */
const CURSOR_REACH = 96

/**
 * The columns a cursor move from position `from` to `to` changes on the cursor layer: the cursor line and its
 * label at both places, and the pending shade between them (the shade right of both is the same before and
 * after). A step at a million chunks moves the cursor by a fraction of a pixel: repainting this band, not the
 * whole layer, keeps a step's canvas work small.
 */
export function cursorBand(
  model: LaneModel,
  g: Geometry,
  from: number,
  to: number,
): { readonly left: number; readonly right: number } {
  const a = xOf(model, g, from)
  const b = xOf(model, g, to)
  return {
    left: Math.max(0, Math.floor(Math.min(a, b)) - CURSOR_REACH),
    right: Math.min(g.width, Math.ceil(Math.max(a, b)) + CURSOR_REACH),
  }
}

/** The static picture: ruler, labels, and for each visible lane its bar, delta ticks, open, freeze, ignored. */
export function drawLanes(
  ctx: CanvasRenderingContext2D,
  model: LaneModel,
  g: Geometry,
  palette: Palette,
): void {
  drawRuler(ctx, model, g, palette)
  ctx.save()
  ctx.beginPath()
  ctx.rect(0, RULER, g.width, g.height - RULER)
  ctx.clip()
  const first = Math.max(0, Math.floor(g.scrollTop / LANE_HEIGHT))
  const last = Math.min(model.lanes.length - 1, Math.ceil((g.scrollTop + g.height - RULER) / LANE_HEIGHT))
  for (let i = first; i <= last; i++) {
    drawLane(ctx, model, g, palette, model.lanes[i]!, RULER + i * LANE_HEIGHT - g.scrollTop)
  }
  ctx.restore()
  // Seqs missing from the log: a dashed line across every lane just before the chunk they would precede.
  ctx.save()
  ctx.strokeStyle = palette.ignored
  ctx.setLineDash([3, 2])
  for (const pos of model.holes ?? []) {
    const x = Math.round(xOf(model, g, pos)) + 0.5
    ctx.beginPath()
    ctx.moveTo(x, 0)
    ctx.lineTo(x, g.height)
    ctx.stroke()
  }
  ctx.restore()
}

function drawLane(
  ctx: CanvasRenderingContext2D,
  model: LaneModel,
  g: Geometry,
  palette: Palette,
  lane: Lane,
  y: number,
): void {
  const fill = BLOCK_ACCENT[lane.blockType]?.fill ?? OTHER_ACCENT.fill
  const x = (p: number) => xOf(model, g, p)
  ctx.fillStyle = palette.laneLine
  ctx.fillRect(g.gutter, y + LANE_HEIGHT - 1, plotWidth(g), 1)

  ctx.font = FONT
  ctx.textBaseline = 'middle'
  ctx.fillStyle = palette.label
  ctx.save()
  ctx.beginPath()
  ctx.rect(0, y, g.gutter - 6, LANE_HEIGHT)
  ctx.clip()
  ctx.fillText(lane.label, 6, y + LANE_HEIGHT / 2 + 0.5)
  ctx.restore()

  const x0 = x(lane.openedAt)
  const x1 = x(lane.end)
  ctx.fillStyle = fill
  ctx.globalAlpha = 0.22
  ctx.fillRect(x0, y + 4, Math.max(1, x1 - x0), LANE_HEIGHT - 8)

  // Delta ticks. Zoomed in to fewer chunks than a few per pixel, every accepted delta in view is drawn; otherwise
  // the per-bucket counts are, one tick per pixel column (many buckets share a column in long streams).
  ctx.globalAlpha = 0.9
  const { from, span } = spanOf(model, g)
  const pitch = plotWidth(g) / span
  const tick = Math.max(1, Math.min(3, Math.floor(pitch) - 1))
  let lastColumn = -1
  if (span <= plotWidth(g) * 4) {
    const deltas = lane.deltas
    let i = partitionPoint(deltas.length, (d) => deltas[d]! < from - 1)
    for (; i < deltas.length && deltas[i]! <= from + span; i++) {
      const column = Math.floor(x(deltas[i]! + 0.5) - tick / 2)
      if (column === lastColumn) continue
      lastColumn = column
      ctx.fillRect(column, y + 5, tick, LANE_HEIGHT - 10)
    }
  } else {
    const perBucket = Math.max(1, model.total) / model.buckets
    const bucketTick = Math.max(1, Math.min(3, Math.floor(pitch * perBucket) - 1))
    for (let b = 0; b < lane.ticks.length; b++) {
      if (lane.ticks[b] === 0) continue
      const column = Math.floor(x((lane.firstBucket + b + 0.5) * perBucket) - bucketTick / 2)
      if (column === lastColumn || column < g.gutter - 3 || column > g.width) continue
      lastColumn = column
      ctx.fillRect(column, y + 5, bucketTick, LANE_HEIGHT - 10)
    }
  }
  ctx.globalAlpha = 1

  // Open: solid cap after a block-start, hollow when a delta or block-end opened it implicitly.
  if (lane.implicit) {
    ctx.strokeStyle = fill
    ctx.lineWidth = 1.5
    ctx.strokeRect(x0 + 0.75, y + 3.75, 4, LANE_HEIGHT - 7.5)
  } else {
    ctx.fillRect(x0, y + 3, 2.5, LANE_HEIGHT - 6)
  }

  // Freeze: a solid block at the winning block-end.
  if (lane.closedAt !== null) {
    const xc = x(lane.closedAt + 0.5)
    ctx.fillRect(xc - 2.5, y + 2, 5, LANE_HEIGHT - 4)
    ctx.strokeStyle = palette.freezeEdge
    ctx.lineWidth = 1
    ctx.strokeRect(xc - 2.5, y + 2.5, 5, LANE_HEIGHT - 5)
  }

  // Ignored chunks (stragglers, re-closes, duplicate starts): red crosses.
  ctx.strokeStyle = palette.ignored
  ctx.lineWidth = 1.5
  lastColumn = -1
  for (const pos of lane.ignored) {
    const xi = Math.round(x(pos + 0.5))
    if (xi === lastColumn) continue
    lastColumn = xi
    ctx.beginPath()
    ctx.moveTo(xi - 3, y + 5)
    ctx.lineTo(xi + 3, y + LANE_HEIGHT - 5)
    ctx.moveTo(xi + 3, y + 5)
    ctx.lineTo(xi - 3, y + LANE_HEIGHT - 5)
    ctx.stroke()
  }
}

function drawRuler(ctx: CanvasRenderingContext2D, model: LaneModel, g: Geometry, palette: Palette): void {
  ctx.fillStyle = palette.rule
  ctx.fillRect(g.gutter, RULER - 1, plotWidth(g), 1)
  ctx.font = FONT
  ctx.textBaseline = 'alphabetic'
  ctx.fillStyle = palette.ruleText
  ctx.fillText('pos', 6, RULER - 4)
  const { from, span } = spanOf(model, g)
  const step = niceStep(span / Math.max(1, plotWidth(g) / 90))
  for (let p = Math.ceil(from / step) * step; p <= Math.min(model.total, from + span); p += step) {
    const x = Math.round(xOf(model, g, p))
    ctx.fillStyle = palette.rule
    ctx.fillRect(x, RULER - 5, 1, 4)
    ctx.fillStyle = palette.ruleText
    const label = p.toLocaleString('en-US')
    const w = ctx.measureText(label).width
    if (x + 2 + w < g.width - 2) ctx.fillText(label, x + 2, RULER - 5)
  }
}

/** 1, 2 or 5 × a power of ten, at least `raw` (and at least 1). */
export function niceStep(raw: number): number {
  if (!(raw > 1)) return 1
  const power = 10 ** Math.floor(Math.log10(raw))
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power
  return 10 * power
}

/** The cursor layer: the not-yet-applied part veiled, and a line at position k with its value on the ruler. */
export function drawCursor(
  ctx: CanvasRenderingContext2D,
  model: LaneModel,
  g: Geometry,
  palette: Palette,
  k: number,
): void {
  const x = xOf(model, g, k)
  const end = g.gutter + plotWidth(g)
  ctx.fillStyle = palette.pending
  ctx.fillRect(x, RULER, Math.max(0, end - x + 1), g.height - RULER)
  ctx.fillStyle = palette.cursor
  ctx.fillRect(Math.round(x) - 1, 0, 2, g.height)
  ctx.font = FONT
  ctx.textBaseline = 'alphabetic'
  const label = `k ${k.toLocaleString('en-US')}`
  const w = ctx.measureText(label).width + 6
  const left = Math.min(Math.max(0, Math.round(x) - w / 2), g.width - w)
  ctx.fillRect(left, 0, w, RULER - 2)
  ctx.fillStyle = palette.cursorText
  ctx.fillText(label, left + 3, RULER - 5)
}

/** The brushed range [from, to) of chunks: shaded across the lanes, with edges, on the cursor layer. */
export function drawBrush(
  ctx: CanvasRenderingContext2D,
  model: LaneModel,
  g: Geometry,
  palette: Palette,
  brush: { readonly from: number; readonly to: number },
): void {
  const left = Math.max(g.gutter, xOf(model, g, brush.from))
  const right = Math.min(g.gutter + plotWidth(g), xOf(model, g, brush.to))
  if (right < left) return
  ctx.fillStyle = palette.brush
  ctx.fillRect(left, RULER, Math.max(1, right - left), g.height - RULER)
  ctx.fillStyle = palette.cursor
  ctx.fillRect(Math.round(left), RULER, 1, g.height - RULER)
  ctx.fillRect(Math.round(right) - 1, RULER, 1, g.height - RULER)
}
