import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { dropFile, idle, openApp } from './helpers'

/** The wires without a harness route, and a trace export's reference final dropped beside a stream. */

const WIRE = fileURLToPath(new URL('../src/formats/fixtures/wire/', import.meta.url))
const read = (name: string) => readFileSync(WIRE + name, 'utf8')

/** Drops several files at once, as dragging a selection from the desktop does. */
async function dropFiles(page: Page, names: readonly string[]): Promise<void> {
  const files = names.map((name) => ({ name, content: read(name) }))
  const dataTransfer = await page.evaluateHandle((files) => {
    const transfer = new DataTransfer()
    for (const { name, content } of files) transfer.items.add(new File([content], name))
    return transfer
  }, files)
  await page.dispatchEvent('body', 'dragenter', { dataTransfer })
  await page.dispatchEvent('body', 'dragover', { dataTransfer })
  await page.dispatchEvent('body', 'drop', { dataTransfer })
  await idle(page)
}

async function expectDiagnostic(page: Page, text: string | RegExp): Promise<void> {
  const region = page.getByRole('region', { name: 'Diagnostics' })
  const toggle = region.getByRole('button', { name: /^Diagnostics/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  await expect(region).toContainText(text)
}

const finalMessage = (page: Page) => page.getByRole('region', { name: 'Final message' })

for (const [file, label, text] of [
  ['ollama-chat-thinking-tools.ndjson', 'Ollama NDJSON', 'Let me check that for you.'],
  ['ollama-generate-length.ndjson', 'Ollama NDJSON', 'The sky is blue because of Rayleigh'],
  ['cohere-tool-call.sse', 'Cohere v2 SSE', 'cityAttractions'],
  ['cohere-reasoning.sse', 'Cohere v2 SSE', 'The answer to 2 + 2 is 4.'],
  ['ai-sdk-ui-stream.sse', 'AI SDK UI stream', 'It is 21°C.'],
  ['devtools-generations.json', 'AI SDK devtools store', 'Looking it up.'],
  ['wire-bodies.har', 'HAR capture', 'Let me check that for you.'],
] as const) {
  test(`${file} opens as ${label} with its content`, async ({ page }) => {
    await openApp(page)
    await dropFile(page, file, read(file))
    await expect(page.getByRole('banner')).toContainText(label)
    await expect(finalMessage(page)).toContainText(text)
  })
}

for (const [file, diagnostic, text] of [
  [
    'ollama-chat-torn.ndjson',
    /line 6 \(offset \d+\): the last line is cut short/,
    'Let me check that for you.',
  ],
  ['ollama-chat-bad-json.ndjson', /line 3 \(offset \d+\): not JSON/, 'The user wants the weather.'],
  [
    'cohere-tool-call-bad-json.sse',
    /line 91 \(offset \d+\): event data is not JSON/,
    'I will use the weather tool',
  ],
  ['ai-sdk-ui-stream-torn.sse', /line 35 \(offset \d+\)/, 'Checking Paris.'],
] as const) {
  test(`${file} names the damage by line and offset and keeps what came before`, async ({ page }) => {
    await openApp(page)
    await dropFile(page, file, read(file))
    await expectDiagnostic(page, diagnostic)
    await expect(finalMessage(page)).toContainText(text)
  })
}

test('a stream and its OTLP trace dropped together: the trace is the recorded message, and it matches', async ({
  page,
}) => {
  await openApp(page)
  // The trace first: it still attaches to the stream, whatever the order of the selection.
  await dropFiles(page, ['otlp-trace.jsonl', 'ai-sdk-ui-stream.sse'])
  await expect(finalMessage(page)).toContainText('✓ matches recorded message')
  await expect(finalMessage(page)).toContainText('otlp-trace.jsonl line 1, span chat qwen3:8b')
})

test('a trace dropped onto an open stream that differs: recorded-mismatch and the differing block', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(page, 'ai-sdk-ui-stream.sse', read('ai-sdk-ui-stream.sse'))
  await dropFile(page, 'otlp-trace-mismatch.jsonl', read('otlp-trace-mismatch.jsonl'))
  await expect(finalMessage(page)).toContainText('✗ differs from recorded message')
  await expect(page.getByRole('region', { name: 'Findings' })).toContainText('recorded-mismatch')
})

test('a trace alone says how to pair it', async ({ page }) => {
  await openApp(page)
  await dropFile(page, 'otlp-trace.jsonl', read('otlp-trace.jsonl'))
  await expect(page.getByRole('alert')).toContainText('drop this file onto it')
})

test('Adapter view: an Ollama line beside its chunks, a line that made none says why', async ({ page }) => {
  await openApp(page)
  await dropFile(page, 'ollama-chat-thinking-tools.ndjson', read('ollama-chat-thinking-tools.ndjson'))
  await page.getByRole('tab', { name: 'Adapter' }).click()
  const pairs = page.getByRole('region', { name: 'Adapter' }).getByRole('list', { name: 'Wire events' })
  await expect(pairs.getByRole('listitem').filter({ hasText: 'tool_calls' })).toContainText('tool-call-delta')
  await expect(pairs.getByRole('listitem').filter({ hasText: '"done":true' })).toContainText('finish')
})
