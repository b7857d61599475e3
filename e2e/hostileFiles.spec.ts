import { expect, test, type Page } from '@playwright/test'
import { concat, deepUsageLog, rawZstdFrame, rleZstdFrame } from '../src/test/hostile'
import { idle, openApp } from './helpers'

/** Hostile files in the page: each opens with what is readable, and the Diagnostics list says what was not. */

async function open(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await openApp(page)
  await page
    .getByLabel('Open file', { exact: true })
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) })
  await idle(page)
}

async function expectDiagnostic(page: Page, text: string | RegExp): Promise<void> {
  const region = page.getByRole('region', { name: 'Diagnostics' })
  const toggle = region.getByRole('button', { name: /^Diagnostics/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  await expect(region).toContainText(text)
}

test('a log with a record nested 10,000 levels deep opens without that record', async ({ page }) => {
  const { text, line } = deepUsageLog(10_000)
  await open(page, 'deep.jsonl', new TextEncoder().encode(text))
  await expect(page.getByRole('tree', { name: 'Streams' })).toContainText('Turn 1')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('PONG')
  await expectDiagnostic(page, `line ${line}: nested deeper than 512 levels`)
})

test('a zstd log followed by a decompression bomb opens the log and names the cap', async ({ page }) => {
  const log = deepUsageLog(1).text.replace(',"x":[]', '')
  const bomb = Array.from({ length: 2100 }, () => rleZstdFrame(0x61, 128 << 10))
  await open(page, 'bomb.jsonl.zstd', concat([rawZstdFrame(log), ...bomb]))
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('PONG')
  await expectDiagnostic(
    page,
    /zstd frame \d+ at byte \d+: the file's decompressed content reached the 256 MiB cap/,
  )
})
