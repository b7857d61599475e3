import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LaneModel } from './buildLaneModel'
import {
  LANE_HEIGHT,
  RULER,
  chunkAt,
  PALETTE,
  contentHeight,
  cursorBand,
  drawCursor,
  gutterFor,
  laneAt,
  niceStep,
  xOf,
  type Geometry,
} from './drawLanes'

const lane = (label: string) => ({ label }) as LaneModel['lanes'][number]
const model: LaneModel = {
  total: 100,
  buckets: 100,
  lanes: [lane('0 reasoning'), lane('1 text'), lane('2 tool-call')],
}
// Plot from x = 100 to 500 (400 px; 8 px of right padding): 4 px per chunk.
const g: Geometry = { width: 508, height: 80, gutter: 100, scrollTop: 0 }

describe('lane geometry', () => {
  it('maps positions to x and x back to the chunk under it', () => {
    expect(xOf(model, g, 0)).toBe(100)
    expect(xOf(model, g, 100)).toBe(500)
    expect(chunkAt(model, g, 101)).toBe(0)
    expect(chunkAt(model, g, 143)).toBe(10)
    // Clamped to the stream: the label column and the right edge still name a chunk.
    expect(chunkAt(model, g, 20)).toBe(0)
    expect(chunkAt(model, g, 507)).toBe(99)
  })

  it('finds the lane under y below the ruler, scrolled or not', () => {
    expect(laneAt(model, g, RULER - 1)).toBe(-1)
    expect(laneAt(model, g, RULER + 1)).toBe(0)
    expect(laneAt(model, g, RULER + LANE_HEIGHT * 2 + 1)).toBe(2)
    expect(laneAt(model, g, RULER + LANE_HEIGHT * 3 + 1)).toBe(-1)
    expect(laneAt(model, { ...g, scrollTop: LANE_HEIGHT }, RULER + 1)).toBe(1)
  })

  it('sizes the label column and the scrolled content from the lanes', () => {
    expect(gutterFor(model)).toBe(Math.ceil('2 tool-call'.length * 6.7) + 14)
    expect(contentHeight(model)).toBe(RULER + 3 * LANE_HEIGHT + 2)
  })

  it('picks ruler steps of 1, 2 or 5 × a power of ten', () => {
    expect([0.3, 1, 3, 7, 40, 180, 2_300, 120_000].map(niceStep)).toEqual([
      1, 1, 5, 10, 50, 200, 5_000, 200_000,
    ])
  })
})

describe('the cursor layer repainted in a band', () => {
  /** What covers each column of the canvas after drawCursor: the fills and texts over it, as a string. */
  function columns(m: LaneModel, k: number): string[] {
    const cover: string[][] = Array.from({ length: g.width }, () => [])
    const mark = (left: number, right: number, what: string) => {
      for (let x = Math.max(0, Math.floor(left)); x < Math.min(g.width, Math.ceil(right)); x++)
        cover[x]!.push(what)
    }
    // A monospace font as the canvas measures it: 6.6 px per character at 11 px.
    const ctx = {
      fillStyle: '',
      font: '',
      textBaseline: '',
      measureText: (text: string) => ({ width: text.length * 6.6 }),
      fillRect(x: number, y: number, w: number, h: number) {
        mark(x, x + w, `rect ${this.fillStyle} ${y} ${h}`)
      },
      fillText(text: string, x: number) {
        mark(x, x + text.length * 6.6, `text ${text}`)
      },
    }
    drawCursor(ctx as unknown as CanvasRenderingContext2D, m, g, PALETTE.light, k)
    return cover.map((ops) => ops.join('|'))
  }

  it('holds every column that differs between the cursor at one position and at another', () => {
    const big: LaneModel = { ...model, total: 10_000_000 }
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: big.total }),
        fc.integer({ min: -3, max: 3 }),
        fc.boolean(),
        (from, step, far) => {
          const to = Math.min(big.total, Math.max(0, far ? big.total - from : from + step))
          const band = cursorBand(big, g, from, to)
          const before = columns(big, from)
          const after = columns(big, to)
          const outside = before.flatMap((column, x) =>
            column !== after[x] && (x < band.left || x >= band.right) ? [x] : [],
          )
          expect(outside).toEqual([])
        },
      ),
    )
  })
})
