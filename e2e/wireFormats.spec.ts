import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { dropFile, idle, openApp, openFile } from './helpers'

/** The wires without a harness route, and a trace export's reference final dropped beside a stream. */

const WIRE = fileURLToPath(new URL('../src/formats/fixtures/wire/', import.meta.url))
const read = (name: string) => readFileSync(WIRE + name, 'utf8')
const FIXTURES = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))

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

/** Legacy OpenAI Completions, Gemini Interactions and a Bedrock event stream inside a HAR (docs/protocol.md §9). */
for (const [file, label, texts] of [
  [
    'completions/gpt-instruct-usage.sse',
    'OpenAI Completions SSE (legacy)',
    ['The capital of France is Paris.'],
  ],
  [
    'completions/azure-content-filter.sse',
    'OpenAI Completions SSE (legacy)',
    ['Once upon a time', 'CONTENT_FILTER'],
  ],
  [
    'interactions/steps-function-call.sse',
    'Gemini Interactions SSE',
    ['Let me look that up.', 'get_weather'],
  ],
  [
    'interactions/content-function-call.sse',
    'Gemini Interactions SSE',
    ['Checking the forecast.', 'get_forecast'],
  ],
  ['bedrock-har/base64.har', 'HAR capture', ['Let me check the forecast.', 'get_weather']],
  ['bedrock-har/text-utf8.har', 'HAR capture', ['Let me check the forecast.', 'get_weather']],
] as const) {
  test(`${file} opens as ${label} with its text, tool call and finish`, async ({ page }) => {
    await openApp(page)
    await dropFile(page, file.split('/')[1]!, readFileSync(FIXTURES + file, 'utf8'))
    await expect(page.getByRole('banner')).toContainText(label)
    for (const text of texts) await expect(finalMessage(page)).toContainText(text)
  })
}

test('Open file reads a Gemini Interactions body and a Bedrock HAR saved as text, which says it was recovered', async ({
  page,
}) => {
  await openApp(page)
  await openFile(page, FIXTURES + 'interactions/steps-thought-text.sse')
  await expect(finalMessage(page)).toContainText('17, 18, 19, 20, 21, 22, 23, 24, 25')
  await openFile(page, FIXTURES + 'bedrock-har/text-utf8.har')
  await expectDiagnostic(page, /saved as text, not base64: .*CRC32s cannot be checked; \d+ frames recovered/)
  await expect(finalMessage(page)).toContainText('get_weather')
})

for (const [file, diagnostic, text] of [
  ['completions/gpt-instruct-usage-torn.sse', /line \d+ \(offset \d+\): the body's last event/, 'Paris.'],
  [
    'completions/gpt-instruct-usage-bad-json.sse',
    /line \d+ \(offset \d+\): event data is not JSON/,
    'The capital of',
  ],
  [
    'interactions/steps-function-call-torn.sse',
    /line \d+ \(offset \d+\): the body's last event/,
    'get_weather',
  ],
  [
    'interactions/steps-function-call-bad-json.sse',
    /line \d+ \(offset \d+\): event data is not JSON/,
    'Let me look that up.',
  ],
  [
    'bedrock-har/text-utf8-torn.har',
    /har1 \(POST .*\): body frame \d+ at character \d+/,
    'Let me check the forecast.',
  ],
] as const) {
  test(`${file} names the damage and keeps what came before`, async ({ page }) => {
    await openApp(page)
    await dropFile(page, file.split('/')[1]!, readFileSync(FIXTURES + file, 'utf8'))
    await expectDiagnostic(page, diagnostic)
    await expect(finalMessage(page)).toContainText(text)
  })
}

test('Adapter view: a Completions chunk beside its delta, the held finish reason, [DONE] closing', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(
    page,
    'gpt-instruct-usage.sse',
    readFileSync(FIXTURES + 'completions/gpt-instruct-usage.sse', 'utf8'),
  )
  await page.getByRole('tab', { name: 'Adapter' }).click()
  const pairs = page.getByRole('region', { name: 'Adapter' }).getByRole('list', { name: 'Wire events' })
  await expect(pairs.getByRole('listitem').filter({ hasText: '" Paris"' })).toContainText('text-delta')
  await expect(pairs.getByRole('listitem').filter({ hasText: '"finish_reason":"stop"' })).toContainText(
    'held for [DONE]',
  )
  await expect(pairs.getByRole('listitem').filter({ hasText: 'data: [DONE]' })).toContainText('finish')
})

test('Adapter view: an Interactions step beside its block, a thought signature says why it made none', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(
    page,
    'steps-thought-text.sse',
    readFileSync(FIXTURES + 'interactions/steps-thought-text.sse', 'utf8'),
  )
  await page.getByRole('tab', { name: 'Adapter' }).click()
  const pairs = page.getByRole('region', { name: 'Adapter' }).getByRole('list', { name: 'Wire events' })
  await expect(pairs.getByRole('listitem').filter({ hasText: '"type":"model_output"' })).toContainText(
    'block-start',
  )
  await expect(pairs.getByRole('listitem').filter({ hasText: 'thought_signature' })).toContainText(
    'thought signature',
  )
  await expect(pairs.getByRole('listitem').filter({ hasText: 'event: interaction.completed' })).toContainText(
    'usage',
  )
})

test('Adapter view: with n > 1 the other choice is named beside its event and in what was not mapped', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(page, 'n2-choices.sse', readFileSync(FIXTURES + 'completions/n2-choices.sse', 'utf8'))
  await page.getByRole('tab', { name: 'Adapter' }).click()
  const adapter = page.getByRole('region', { name: 'Adapter' })
  const pairs = adapter.getByRole('list', { name: 'Wire events' })
  await expect(pairs.getByRole('listitem').filter({ hasText: '" No"' })).toContainText(
    'only choice 0 is read',
  )
  const notMapped = adapter.getByRole('region', { name: 'Not mapped' })
  const toggle = notMapped.getByRole('button')
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  await expect(notMapped).toContainText('only choice 0 is read, the others are dropped (3 events)')
})
