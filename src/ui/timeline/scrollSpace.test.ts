import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contentTop, rowsInView, scrollSpace, scrollTopFor } from './scrollSpace'

// Chromium's cap on an element's height; the scrolled length must stay under it.
const CAP = 33_554_430
const ROW = 22
const VIEW = 856

describe('scrollSpace at 10,000,000 rows (220M px of content)', () => {
  const count = 10_000_000
  const space = scrollSpace(count, ROW, VIEW)

  it('keeps the scrolled length under the cap', () => {
    expect(count * ROW).toBeGreaterThan(CAP)
    expect(space.body).toBeLessThan(CAP)
  })

  it('shows the last row, whole, when scrolled to the end', () => {
    // Chromium keeps scroll offsets as 32-bit floats: what it reads back is rounded.
    const top = contentTop(space, VIEW, Math.fround(space.body - VIEW))
    const { end } = rowsInView(count, ROW, VIEW, top, 0)
    expect(end).toBe(count)
    expect((count - 1) * ROW).toBeGreaterThanOrEqual(top)
    expect(count * ROW).toBeLessThanOrEqual(top + VIEW)
  })

  it('brings any row into view when scrolled to it, as a seek does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: count - 1 }), (row) => {
        const wanted = Math.max(0, row * ROW - VIEW / 2)
        const top = contentTop(space, VIEW, Math.fround(scrollTopFor(space, VIEW, wanted)))
        const { first, end } = rowsInView(count, ROW, VIEW, top, 0)
        expect(first).toBeLessThanOrEqual(row)
        expect(end).toBeGreaterThan(row)
      }),
    )
  })

  it('moves the view forward with every scrolled pixel, never past the last rows', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: space.body - VIEW, noNaN: true }), (scrollTop) => {
        const top = contentTop(space, VIEW, scrollTop)
        expect(top).toBeLessThanOrEqual(space.bottom)
        expect(contentTop(space, VIEW, scrollTop + 1)).toBeGreaterThanOrEqual(top)
      }),
    )
  })
})

describe('scrollSpace below the cap', () => {
  it('is one content pixel per scrolled pixel', () => {
    const space = scrollSpace(1_000_000, ROW, VIEW)
    expect(space.scale).toBe(1)
    expect(space.body).toBe(22_000_000)
    expect(contentTop(space, VIEW, 12_345)).toBe(12_345)
    expect(scrollTopFor(space, VIEW, 12_345)).toBe(12_345)
  })

  it('has nothing to scroll when the rows fit in the view', () => {
    const space = scrollSpace(10, ROW, VIEW)
    expect(space.bottom).toBe(0)
    expect(rowsInView(10, ROW, VIEW, contentTop(space, VIEW, 0), 2)).toEqual({ first: 0, end: 10 })
  })
})
