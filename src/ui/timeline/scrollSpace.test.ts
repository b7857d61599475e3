import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  contentTop,
  echoOf,
  followTop,
  rowsInView,
  scrollSpace,
  scrollTopFor,
  type Scroll,
} from './scrollSpace'

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

describe('following the cursor at 10,000,000 rows', () => {
  const count = 10_000_000
  const space = scrollSpace(count, ROW, VIEW)
  // Chromium reads back a scroll offset it was given in whole pixels (2 px steps past 16M px).
  const browserRounds = (scrollTop: number) => 2 * Math.round(scrollTop / 2)

  /** The content offset the view shows after the page scrolled to `next` and the scroll event came back. */
  function shownAfterFollow(next: number): number {
    const asked: Scroll = { scrollTop: scrollTopFor(space, VIEW, next), top: next }
    const echoed = echoOf(asked, browserRounds(asked.scrollTop))
    return Math.min(space.bottom, echoed.top ?? contentTop(space, VIEW, echoed.scrollTop))
  }

  it('shows the cursor row whole after a move from any view near it, though the browser rounds the offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: count - 1 }),
        // Where the view was, from the row: mostly a row or two off one edge (a step, PageDown), else far.
        fc.integer({ min: -3 * VIEW, max: 3 * VIEW }),
        (row, offset) => {
          const viewTop = Math.min(space.bottom, Math.max(0, row * ROW + offset))
          const next = followTop(space, VIEW, viewTop, row * ROW, ROW)
          const top = next === null ? viewTop : shownAfterFollow(next)
          expect(row * ROW).toBeGreaterThanOrEqual(top)
          expect((row + 1) * ROW).toBeLessThanOrEqual(top + VIEW)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('shows the last row whole after End (a jump from the first rows)', () => {
    const next = followTop(space, VIEW, 0, (count - 1) * ROW, ROW)!
    const top = shownAfterFollow(next)
    expect(rowsInView(count, ROW, VIEW, top, 0).end).toBe(count)
    expect(count * ROW).toBeLessThanOrEqual(top + VIEW)
  })

  it('gives the view back to the user once they scroll further than the rounding', () => {
    const asked: Scroll = { scrollTop: 15_000_000.4, top: 110_000_000 }
    expect(echoOf(asked, 15_000_000)).toBe(asked)
    expect(echoOf(asked, 15_000_040)).toEqual({ scrollTop: 15_000_040, top: null })
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

describe('stepping through the rows', () => {
  it('centres the row a step takes past either edge, so the next half view of steps does not scroll', () => {
    const count = 1_000
    const space = scrollSpace(count, ROW, VIEW)
    const rowsInAView = Math.floor(VIEW / ROW)
    for (const direction of [1, -1]) {
      let top = direction > 0 ? 0 : space.bottom
      let row = direction > 0 ? 0 : count - 1
      const scrolledAt: number[] = []
      for (let step = 0; step < 3 * rowsInAView; step++) {
        row += direction
        const next = followTop(space, VIEW, top, row * ROW, ROW)
        if (next === null) continue
        scrolledAt.push(step)
        top = next
        // The row is whole and in the middle of the view: as many rows of context on either side, give or take one.
        expect(row * ROW).toBeGreaterThanOrEqual(top)
        expect(Math.abs(row * ROW + ROW / 2 - (top + VIEW / 2))).toBeLessThanOrEqual(ROW / 2)
      }
      // Scrolls come half a view apart, not at every step once the row reached the edge.
      expect(scrolledAt.length).toBeGreaterThan(1)
      for (let i = 1; i < scrolledAt.length; i++)
        expect(scrolledAt[i]! - scrolledAt[i - 1]!).toBeGreaterThanOrEqual(Math.floor(rowsInAView / 2) - 1)
    }
  })

  it('keeps a row whole in a view shorter than two rows', () => {
    const space = scrollSpace(100, ROW, ROW + 5)
    const next = followTop(space, ROW + 5, 0, 10 * ROW, ROW)!
    expect(10 * ROW).toBeGreaterThanOrEqual(next)
    expect(11 * ROW).toBeLessThanOrEqual(next + ROW + 5)
  })
})
