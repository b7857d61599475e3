import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { openApp, openFile } from './helpers'

/** A Bedrock ConverseStream body (binary event-stream frames, docs/protocol.md §9.4) opened from the file input. */
const FIXTURES = fileURLToPath(new URL('../src/formats/fixtures/bedrock/', import.meta.url))

test('a Bedrock event-stream body opens: reasoning, text, the tool call and the finish', async ({ page }) => {
  await openApp(page)
  await openFile(page, FIXTURES + 'reasoning-tool-call.eventstream')
  await expect(page.getByRole('banner')).toContainText('Bedrock ConverseStream')
  const final = page.getByRole('region', { name: 'Final message' })
  for (const text of ['Let me check the forecast.', 'get_weather', 'Paris', 'tool-calls'])
    await expect(final).toContainText(text)
})

test('a Bedrock body with a bad CRC names the frame and byte', async ({ page }) => {
  await openApp(page)
  await openFile(page, FIXTURES + 'bad-crc.eventstream')
  const region = page.getByRole('region', { name: 'Diagnostics' })
  const toggle = region.getByRole('button', { name: /^Diagnostics/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  await expect(region).toContainText('frame 5 at byte 663: CRC32 check failed')
})
