import { writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { generateStream } from '../src/test/generate'
import { expectPosition, idle, openApp } from './helpers'

test('a 1,000,000-chunk stream loads with a visible progress bar and steps', async ({ page }, testInfo) => {
  test.setTimeout(300_000)
  const path = testInfo.outputPath('million.ndjson')
  writeFileSync(
    path,
    generateStream(1_000_000)
      .map((s) => JSON.stringify(s.chunk))
      .join('\n') + '\n',
  )
  await openApp(page)
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await expect(page.getByLabel('Loading progress')).toBeVisible()
  await idle(page)
  await expectPosition(page, 1_000_000, 1_000_000)
  await page.keyboard.press('ArrowLeft')
  await expectPosition(page, 999_999, 1_000_000)
  await page.keyboard.press('Home')
  await expectPosition(page, 0, 1_000_000)
})

// Chromium caps an element's height at 33,554,430 px: at 22 px a row, 1,525,202 rows already exceed it. 1.6M is
// the smallest round count past the cap that loads in reasonable time here (10M would need several GB in the tab).
test('a timeline taller than the browser’s element cap reaches its last row by End, seek and scrolling', async ({
  page,
}, testInfo) => {
  test.setTimeout(400_000)
  const total = 1_600_000
  const path = testInfo.outputPath('tall.ndjson')
  writeFileSync(
    path,
    generateStream(total)
      .map((s) => JSON.stringify(s.chunk))
      .join('\n') + '\n',
  )
  await openApp(page)
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await idle(page)
  const timeline = page.getByRole('region', { name: 'Timeline' })
  const last = timeline.locator(`[data-pos="${total - 1}"]`)
  const first = timeline.locator('[data-pos="0"]')

  await page.keyboard.press('Home')
  await expect(first).toBeInViewport()
  await page.keyboard.press('End')
  await expectPosition(page, total, total)
  await expect(last).toBeInViewport()
  await expect(last).toHaveAttribute('aria-current', 'step')

  await page.keyboard.press('Home')
  await expect(first).toBeInViewport()
  await page.getByLabel('Cursor').fill(String(total))
  await expectPosition(page, total, total)
  await expect(last).toBeInViewport()

  await page.keyboard.press('Home')
  await expect(first).toBeInViewport()
  const scrolled = await timeline.locator('.timeline-grid').evaluate((element) => {
    element.scrollTop = element.scrollHeight
    return element.scrollHeight
  })
  expect(scrolled).toBeLessThan(33_554_430)
  await expect(last).toBeInViewport()
  // Scrolling alone does not move the cursor: the last row is shown, not applied.
  await expectPosition(page, 0, total)
  await expect(last).toHaveAttribute('data-state', 'pending')
})
