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
  await expect(dropped).toContainText('— no chunk: never dispatched')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('STREAM_CLOSED')
})

test('every raw event that became no chunk says why; a delta after finish_reason is flagged', async ({
  page,
}) => {
  const body = readFileSync(`${FIXTURES}deepseek-reasoner-tool-calls.sse`, 'utf8')
  const done = body.lastIndexOf('data: [DONE]')
  const late = `${body.slice(0, done)}data: {"choices":[{"delta":{"content":"straggling text"}}]}\n\n${body.slice(done)}`
  await openApp(page)
  await dropFile(
    page,
    'late-delta.sse',
    `${late.trimEnd()}\n\ndata: {"choices":[{"delta":{"content":"after"}}]}\n\n`,
  )
  const pairs = await adapterPairs(page)
  // The list is virtual and follows the cursor: at the first chunk, the first events are laid out.
  await page.getByRole('button', { name: 'First' }).click()
  await page.getByRole('button', { name: 'Next chunk' }).click()
  await expect(pairs.filter({ hasText: '"role":"assistant"' })).toContainText(
    '— no chunk: metadata only: role-only delta',
  )
  await page.getByRole('button', { name: 'Last' }).click()
  await expect(pairs.filter({ hasText: '"finish_reason":"tool_calls"' })).toContainText(
    '— no chunk: held for [DONE]: finish_reason "tool_calls" and usage remembered until [DONE]',
  )
  const straggler = pairs.filter({ hasText: 'straggling text' })
  await expect(straggler).toContainText('text-delta')
  await expect(straggler.locator('[data-flag="late-delta"]')).toContainText('a delta after finish_reason')
  await expect(pairs.filter({ hasText: '"after"' })).toContainText('— no chunk: dropped after the finish')
  // No pair that made no chunk is left unexplained.
  const empty = pairs.filter({ hasText: /— no chunk$/ })
  await expect(empty).toHaveCount(0)
})

test("Groq's delta.reasoning: one note with a count, next to the first event that carried it", async ({
  page,
}) => {
  await drop(page, 'groq-reasoning.sse')
  const pairs = await adapterPairs(page)
  await expect(pairs.first()).toContainText(/delta\.reasoning .* dropped.*\(2 events\)/)
})

test('an OpenAI Responses API body is read as the pi-ai route reads it, each raw event beside its chunks', async ({
  page,
}) => {
  await drop(page, 'openai-responses.sse')
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Hi')
  const pairs = await adapterPairs(page)
  await expect(pairs.filter({ hasText: 'response.output_text.delta' })).toContainText('text-delta')
})
