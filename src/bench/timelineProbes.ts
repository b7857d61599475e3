// Page-side probes of the timeline for the UI bench (src/bench/ui.bench.ts): a fling's frame intervals, and
// whether a row can be brought into view by each way a user moves (End, Home, PageUp/PageDown, seek, search,
// scrolling). Each probe reads the page as a user sees it: a row is reached when its element is inside the
// grid's visible rows (below the sticky header).
import type { Page } from '@playwright/test'

const GRID = '[aria-label="Timeline"] .timeline-grid'

/** Whether the row showing chunk `pos` is wholly inside the timeline's visible rows. */
export async function rowInView(page: Page, pos: number): Promise<boolean> {
  return page.evaluate(
    ({ grid, pos }) => {
      const scroller = document.querySelector<HTMLElement>(grid)
      const row = scroller?.querySelector<HTMLElement>(`tr.timeline-row[data-pos="${pos}"]`)
      const header = scroller?.querySelector('thead')
      if (!scroller || !row || !header) return false
      const view = scroller.getBoundingClientRect()
      const box = row.getBoundingClientRect()
      const top = header.getBoundingClientRect().bottom
      return box.top >= top - 0.5 && box.bottom <= view.bottom + 0.5
    },
    { grid: GRID, pos },
  )
}

/** Waits two frames: a key press or scroll has been rendered and painted. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  )
}

/** Scrolls the grid to `fraction` of its scrolled length (1 = the bottom, as dragging the thumb down does). */
export async function scrollTo(page: Page, fraction: number): Promise<void> {
  await page.evaluate(
    ({ grid, fraction }) => {
      const scroller = document.querySelector<HTMLElement>(grid)!
      scroller.scrollTop = fraction * (scroller.scrollHeight - scroller.clientHeight)
    },
    { grid: GRID, fraction },
  )
  await settle(page)
}

/**
 * A fling: `frames` frames scrolling down by `px` each from where the grid is, the interval of each frame. The
 * positions of the rows rendered are collected too, so the caller can tell that the view moved through the rows.
 */
export async function fling(
  page: Page,
  frames: number,
  px: number,
): Promise<{ intervals: number[]; firstRows: number[] }> {
  return page.evaluate(
    async ({ grid, frames, px }) => {
      const scroller = document.querySelector<HTMLElement>(grid)!
      const intervals: number[] = []
      const firstRows: number[] = []
      let last = performance.now()
      for (let i = 0; i < frames; i++) {
        scroller.scrollTop += px
        await new Promise((resolve) => requestAnimationFrame(resolve))
        const now = performance.now()
        intervals.push(now - last)
        last = now
        const row = scroller.querySelector<HTMLElement>('tr.timeline-row')
        firstRows.push(Number(row?.dataset['pos'] ?? -1))
      }
      return { intervals, firstRows }
    },
    { grid: GRID, frames, px },
  )
}

/**
 * Scrolls by `step` px `steps` times from the current offset and returns the rows seen in view (top to bottom,
 * each once): with no row skipped, they form one run of consecutive positions.
 */
export async function sweep(page: Page, steps: number, step: number): Promise<number[]> {
  return page.evaluate(
    async ({ grid, steps, step }) => {
      const scroller = document.querySelector<HTMLElement>(grid)!
      const header = scroller.querySelector('thead')!
      const seen = new Set<number>()
      for (let i = 0; i < steps; i++) {
        const top = header.getBoundingClientRect().bottom
        const bottom = scroller.getBoundingClientRect().bottom
        for (const row of scroller.querySelectorAll<HTMLElement>('tr.timeline-row')) {
          const box = row.getBoundingClientRect()
          if (box.bottom > top && box.top < bottom) seen.add(Number(row.dataset['pos']))
        }
        scroller.scrollTop += step
        await new Promise((resolve) => requestAnimationFrame(resolve))
      }
      return [...seen].sort((a, b) => a - b)
    },
    { grid: GRID, steps, step },
  )
}

/** Whether `rows` are consecutive positions (no row skipped between the first and the last). */
export function contiguous(rows: readonly number[]): boolean {
  return rows.length > 0 && rows.every((row, i) => i === 0 || row === rows[i - 1]! + 1)
}
