import { writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { generateStream } from '../src/test/generate'
import { expectPosition, idle, openApp } from './helpers'

test('a 1,000,000-chunk stream loads with a visible progress bar, steps, and reaches its last row and its middle rows', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000)
  const path = testInfo.outputPath('million.ndjson')
  writeFileSync(
    path,
    generateStream(1_000_000)
      .map((s) => JSON.stringify(s.chunk))
      .join('\n') + '\n',
  )
  await openApp(page)
  // What the panels hold at the moment the root turns idle, seen in the page: the panels come in tasks of their own
  // after the timeline (docs/ARCHITECTURE.md, "Data flow"), and the idle signal waits for all of them.
  await page.evaluate(() => {
    const root = document.getElementById('root')!
    let loading = false
    new MutationObserver(() => {
      const state = root.querySelector(':scope > [data-state]')?.getAttribute('data-state')
      if (state === 'loading') loading = true
      else if (state === 'idle' && loading && !('__atIdle' in window)) {
        const rows = (name: string) =>
          document.querySelectorAll(`section[aria-label="${name}"] [data-index]`).length
        Object.assign(window, {
          __atIdle: {
            busy: ['Blocks', 'Findings', 'Final message'].filter(
              (name) =>
                document.querySelector(`section[aria-label="${name}"]`)?.getAttribute('aria-busy') === 'true',
            ).length,
            blocks: rows('Blocks') > 0,
            message: rows('Final message') > 0,
            // The lanes and the metrics come later still; meanwhile neither asks for a stream to be loaded.
            asksForStream: ['Load a stream to see its blocks.', 'Select a stream to measure it.'].some(
              (note) => document.body.textContent?.includes(note),
            ),
          },
        })
      }
    }).observe(root, { subtree: true, attributes: true, attributeFilter: ['data-state'] })
  })
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await expect(page.getByLabel('Loading progress')).toBeVisible()
  await idle(page)
  expect(await page.evaluate(() => (window as unknown as { __atIdle: unknown }).__atIdle)).toEqual({
    busy: 0,
    blocks: true,
    message: true,
    asksForStream: false,
  })
  await expect(page.getByRole('region', { name: 'Metrics' })).toContainText('Time to first token')
  await expectPosition(page, 1_000_000, 1_000_000)
  // Opened at its end, with the last row wholly in view (the view's height is read before the cursor is followed).
  const timeline = page.getByRole('region', { name: 'Timeline' })
  const last = timeline.locator('[data-pos="999999"]')
  await expect(last).toBeInViewport({ ratio: 1 })
  await page.keyboard.press('ArrowLeft')
  await expectPosition(page, 999_999, 1_000_000)
  await page.keyboard.press('Home')
  await expectPosition(page, 0, 1_000_000)

  // Every row is reachable in the timeline (22M px of rows): by End, by a seek and by scrolling to the bottom.
  const first = timeline.locator('[data-pos="0"]')
  // Home shows the start: no row is current at 0, and the first row, the one the next step applies, is in view (as
  // a debugger's "go to start" shows the first frame). Leaving the view at the end instead made the step after Home
  // scroll the whole window in a step's frame. One step makes the first row current.
  await expect(first).toBeInViewport()
  await expect(first).toHaveAttribute('data-state', 'pending')
  await page.keyboard.press('ArrowRight')
  await expect(first).toBeInViewport()
  await page.keyboard.press('End')
  await expect(last).toBeInViewport()
  await expect(last).toHaveAttribute('aria-current', 'step')

  // Home from the end: the first row is in view before any step.
  await page.keyboard.press('Home')
  await expectPosition(page, 0, 1_000_000)
  await expect(first).toBeInViewport()
  await page.keyboard.press('ArrowRight')
  await expect(first).toBeInViewport()
  await page.getByLabel('Cursor').fill('1000000')
  await expectPosition(page, 1_000_000, 1_000_000)
  await expect(last).toBeInViewport()

  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await expect(first).toBeInViewport()
  await timeline.locator('.timeline-grid').evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  await expect(last).toBeInViewport()
  // Scrolling alone does not move the cursor: the last row is shown, not applied.
  await expectPosition(page, 1, 1_000_000)
  await expect(last).toHaveAttribute('data-state', 'pending')

  // A middle row by a seek, then a page down and back up from it in the grid.
  await page.getByLabel('Cursor').fill('500000')
  await expectPosition(page, 500_000, 1_000_000)
  await expect(timeline.locator('[data-pos="499999"]')).toBeInViewport()
  const grid = page.getByRole('grid', { name: 'Chunks' })
  await grid.focus()
  await grid.press('PageDown')
  const down = timeline.locator('[aria-current="step"]')
  await expect(down).not.toHaveAttribute('data-pos', '499999')
  const downPos = Number(await down.getAttribute('data-pos'))
  expect(downPos).toBeGreaterThan(499_999 + 5)
  await expect(down).toBeInViewport()
  await grid.press('PageUp')
  await expect(timeline.locator('[aria-current="step"]')).not.toHaveAttribute('data-pos', String(downPos))
  await expect(timeline.locator('[aria-current="step"]')).toBeInViewport()

  // A middle row by a search: generateStream names each tool call by its block index, 400 deltas a block, so
  // call_1247 (block 1,247, a tool call) first appears in the first delta after its block-start, chunk 501,295.
  await page.keyboard.press('Home')
  await page.getByRole('searchbox', { name: 'Search payloads' }).fill('call_1247')
  await expectPosition(page, 501_296, 1_000_000)
  await expect(timeline.locator('[data-pos="501295"]')).toBeInViewport()
  await expect(timeline.locator('[data-pos="501295"]')).toContainText('tool-call-delta')
})
