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
