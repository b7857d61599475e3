import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { dropFile, openApp } from './helpers'

/** The wires the harness reads through its pi-ai route (docs/protocol.md §9.2, §9.3), dropped onto the page. */

const FIXTURES = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))
const read = (name: string) => readFileSync(FIXTURES + name, 'utf8')
const finalMessage = (page: Page) => page.getByRole('region', { name: 'Final message' })

async function expectDiagnostic(page: Page, text: string | RegExp): Promise<void> {
  const region = page.getByRole('region', { name: 'Diagnostics' })
  const toggle = region.getByRole('button', { name: /^Diagnostics/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  await expect(region).toContainText(text)
}

for (const [file, label, texts] of [
  [
    'responses/synthetic-reasoning-text-tool.sse',
    'OpenAI Responses SSE',
    ['Let me look that up', 'get_weather', 'Checking the forecast', 'tool-calls'],
  ],
  ['responses/vercel-openai-custom-tool.1.sse', 'OpenAI Responses SSE', ['write_sql', 'tool-calls']],
  ['gemini/synthetic-thinking-text-tools.sse', 'Gemini SSE', ['Checking Paris and Lyon.', 'get_weather']],
  ['gemini/vercel-google-text.sse', 'Gemini SSE', ['stop']],
] as const) {
  test(`${file} opens as ${label}: text, tool calls and finish`, async ({ page }) => {
    await openApp(page)
    await dropFile(page, file.split('/')[1]!, read(file))
    await expect(page.getByRole('banner')).toContainText(label)
    for (const text of texts) await expect(finalMessage(page)).toContainText(text)
  })
}

test('a Responses body cut short: the diagnostic names it and the finish is TRANSPORT', async ({ page }) => {
  await openApp(page)
  await dropFile(page, 'cut.sse', read('responses/synthetic-reasoning-text-tool-truncated.sse'))
  await expectDiagnostic(page, 'the body ends before response.completed')
  await expect(finalMessage(page)).toContainText('TRANSPORT')
})

test('a Gemini body cut short fails as the SDK does', async ({ page }) => {
  await openApp(page)
  await dropFile(page, 'cut.sse', read('gemini/synthetic-thinking-text-tools-truncated.sse'))
  await expectDiagnostic(page, 'text after its last blank line')
})

test('Responses: the Adapter view names a skipped built-in tool; a sequence gap is a finding', async ({
  page,
}) => {
  await openApp(page)
  await dropFile(page, 'search.sse', read('responses/synthetic-web-search.sse'))
  await page.getByRole('tab', { name: 'Adapter' }).click()
  const pairs = page.getByRole('region', { name: 'Adapter' }).getByRole('list', { name: 'Wire events' })
  // The list shows the events around the cursor (the end): the terminal event, with the skipped item named.
  await expect(pairs.getByRole('listitem').filter({ hasText: 'event: response.completed' })).toContainText(
    'web_search_call ×1 (the built-in web search tool)',
  )
  await dropFile(page, 'gap.sse', read('responses/synthetic-sequence-gap.sse'))
  await expect(page.getByRole('region', { name: 'Findings' })).toContainText('wire-sequence')
})
