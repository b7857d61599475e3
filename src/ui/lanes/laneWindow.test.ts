import { describe, expect, it } from 'vitest'
import { generateStream } from '../../test/generate'
import { MIN_SPAN, fullWindow, isZoomed, panWindow, windowShowing, zoomWindow } from './laneWindow'
import { summarizeRange } from './summarizeRange'

describe('the lanes window', () => {
  it('zooms around the anchor, keeping it where it was on screen, and never past the stream', () => {
    const whole = fullWindow(1000)
    expect(zoomWindow(whole, 1000, 0.5, 500)).toEqual({ from: 250, to: 750 })
    // The anchor at 10% of the view stays at 10%.
    expect(zoomWindow(whole, 1000, 0.5, 100)).toEqual({ from: 50, to: 550 })
    expect(zoomWindow({ from: 250, to: 750 }, 1000, 4, 500)).toEqual(whole)
    const deepest = zoomWindow(whole, 1000, 1e-9, 3)
    expect(deepest.to - deepest.from).toBeCloseTo(MIN_SPAN, 9)
    expect(deepest.from).toBeLessThan(3)
    expect(isZoomed(whole, 1000)).toBe(false)
  })

  it('pans by a share of its width, clamped; moves to show a position', () => {
    expect(panWindow({ from: 100, to: 200 }, 1000, 0.2)).toEqual({ from: 120, to: 220 })
    expect(panWindow({ from: 100, to: 200 }, 1000, -5)).toEqual({ from: 0, to: 100 })
    expect(panWindow({ from: 100, to: 200 }, 1000, 50)).toEqual({ from: 900, to: 1000 })
    const view = { from: 100, to: 200 }
    expect(windowShowing(view, 1000, 150)).toBe(view)
    expect(windowShowing(view, 1000, 600)).toEqual({ from: 550, to: 650 })
  })
})

describe('summarizeRange', () => {
  const chunks = generateStream(5000, 50)

  it('counts what a plain walk over the chunks counts', () => {
    const from = 37
    const to = 1290
    const summary = summarizeRange({ chunks }, from, to)
    const slice = chunks.slice(from, to)
    const piece = (c: (typeof chunks)[number]['chunk']) =>
      'text' in c && typeof c.text === 'string'
        ? c.text
        : 'argumentsDelta' in c && typeof c.argumentsDelta === 'string'
          ? c.argumentsDelta
          : ''
    expect(summary.chunks).toBe(to - from)
    expect(summary.chars).toBe(
      slice.reduce((n, s) => n + (s.chunk.type.endsWith('-delta') ? piece(s.chunk).length : 0), 0),
    )
    expect(summary.ms).toBe(chunks[to - 1]!.time! - chunks[from]!.time!)
    expect(summary.byType.reduce((n, row) => n + row.count, 0)).toBe(to - from)
    expect(summary.byType.find((row) => row.type === 'block-start')?.count).toBe(
      slice.filter((s) => s.chunk.type === 'block-start').length,
    )
    const block = summary.byBlock[1]!
    expect(block.count).toBe(slice.filter((s) => 'index' in s.chunk && s.chunk.index === block.index).length)
    expect(summary.tokensPerSecond).toBeCloseTo((summary.tokens * 1000) / summary.ms!, 6)
    // Reversed bounds are the same range; an empty range has no time.
    expect(summarizeRange({ chunks }, to, from)).toEqual(summary)
    expect(summarizeRange({ chunks }, 5, 5).ms).toBeNull()
  })
})
