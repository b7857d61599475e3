import { writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { generateStream } from '../src/test/generate'
import { expectPosition, idle, openApp } from './helpers'

test('a 1,000,000-chunk stream loads with a visible progress bar, steps and reaches its last row', async ({
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
  await page.getByLabel('Open file', { exact: true }).setInputFiles(path)
  await expect(page.getByLabel('Loading progress')).toBeVisible()
  await idle(page)
  await expectPosition(page, 1_000_000, 1_000_000)
  await page.keyboard.press('ArrowLeft')
  await expectPosition(page, 999_999, 1_000_000)
  await page.keyboard.press('Home')
  await expectPosition(page, 0, 1_000_000)

  // Every row is reachable in the timeline (22M px of rows): by End, by a seek and by scrolling to the bottom.
  const timeline = page.getByRole('region', { name: 'Timeline' })
  const first = timeline.locator('[data-pos="0"]')
  const last = timeline.locator('[data-pos="999999"]')
  // Home leaves the view where it is (no row is current at 0); one step makes the first row current.
  await page.keyboard.press('ArrowRight')
  await expect(first).toBeInViewport()
  await page.keyboard.press('End')
  await expect(last).toBeInViewport()
  await expect(last).toHaveAttribute('aria-current', 'step')

  await page.keyboard.press('Home')
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
})
