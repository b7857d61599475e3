import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { dropFile, openApp } from './helpers'

/** SSE bodies read as the harness reads them: what it drops or refuses is said beside the raw events. */

const FIXTURES = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))

async function drop(page: Page, file: string): Promise<void> {
  await openApp(page)
  await dropFile(page, file, readFileSync(FIXTURES + file, 'utf8'))
}

async function adapterPairs(page: Page) {
  await page.getByRole('tab', { name: 'Adapter' }).click()
  return page
    .getByRole('region', { name: 'Adapter' })
    .getByRole('list', { name: 'Wire events' })
    .getByRole('listitem')
}

test("a capture whose final blank line was trimmed: the harness's STREAM_CLOSED, and the dropped event shown with why", async ({
  page,
}) => {
  await drop(page, 'deepseek-trimmed-final-blank.sse')
  const pairs = await adapterPairs(page)
  const dropped = pairs.filter({ hasText: 'data: [DONE]' })
  await expect(dropped).toContainText(
    "the body's last event has no blank line after it; the harness drops it",
  )
  await expect(dropped).toContainText('— no chunk')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('STREAM_CLOSED')
})

test("Groq's delta.reasoning: one note with a count, next to the first event that carried it", async ({
  page,
}) => {
  await drop(page, 'groq-reasoning.sse')
  const pairs = await adapterPairs(page)
  await expect(pairs.first()).toContainText(/delta\.reasoning .* dropped.*\(2 events\)/)
})

test('an OpenAI Responses API body is refused with the format named, and the page stays usable', async ({
  page,
}) => {
  await drop(page, 'openai-responses.sse')
  await expect(page.getByRole('alert')).toContainText('an OpenAI Responses API stream')
  await expect(page.getByLabel('Open file', { exact: true })).toBeEnabled()
})
