import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { dropFile, expectPosition, openApp, openFile, outlineRows } from './helpers'

/** Every stream a user actually has, read from its fixture; damaged variants say what is wrong. */

const FIXTURES = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))

type Case = {
  readonly format: string
  readonly file: string
  /** Binary containers go through "Open file"; text is dropped on the page. */
  readonly binary?: boolean
  readonly outline?: readonly string[]
  readonly message?: string
}

/** Loads a fixture as a user would: dropped (text) or chosen in the file dialog (binary). */
async function load(page: Page, file: string, binary = false): Promise<void> {
  await openApp(page)
  if (binary) await openFile(page, FIXTURES + file)
  else await dropFile(page, file.split('/').at(-1)!, readFileSync(FIXTURES + file, 'utf8'))
}

/** The Diagnostics region lists `text`; it starts closed when nothing is an error, so open it then. */
async function expectDiagnostic(page: Page, text: string): Promise<void> {
  const region = page.getByRole('region', { name: 'Diagnostics' })
  const toggle = region.getByRole('button', { name: /^Diagnostics/ })
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click()
  await expect(region).toContainText(text)
}

async function expectContent(page: Page, item: Case): Promise<void> {
  if (item.outline !== undefined) {
    // The outline is virtualized: every row is read by scrolling through it.
    await expect(page.getByRole('tree', { name: 'Streams' })).toBeVisible()
    // Polled: the file's load may still be replacing the stream that was open before it.
    const shown = async () => (await outlineRows(page)).map((row) => row.text).join('\n')
    for (const text of item.outline) await expect.poll(shown).toContain(text)
  }
  if (item.message !== undefined) {
    // A snippet with teaching comments opens as a lesson, at k = 0: the content is read at the end.
    const message = page.getByRole('region', { name: 'Final message' })
    await message.getByRole('button', { name: 'at the end' }).click()
    await expect(message).toContainText(item.message)
  }
}

const GOOD: readonly Case[] = [
  {
    format: 'openai-sse',
    file: 'deepseek-reasoner-tool-calls.sse',
    message: "I'll check both cities for you.",
  },
  {
    format: 'anthropic-sse',
    file: 'anthropic-thinking-tool-use.sse',
    message: 'Let me list the files in `src/`.',
  },
  {
    format: 'har',
    file: 'devtools-capture.har',
    outline: ['har2', 'api.deepseek.com/chat/completions', 'har3', 'api.anthropic.com/v1/messages'],
    message: "I'll check both cities for you.",
  },
  {
    format: 'dsh-live-recording',
    file: 'dsh-live-two-sessions.ndjson',
    outline: ['session 5b0e2c4a', 'session c81f4d2e'],
  },
  { format: 'js-snippet', file: 'seed-004-example-chunks.ts.txt', message: 'サンプル 教程' },
  { format: 'simplified-stream', file: 'tutorial-simplified-tools.ndjson', message: '我来检查两个文件' },
  {
    format: 'dsh-session-zstd',
    file: 'binary/web-goal-multi-turn-actions-session.jsonl.zstd',
    binary: true,
    outline: ['Turn 1', 'Turn 2'],
  },
  {
    format: 'dsh-session-zip',
    file: 'binary/dsh-session-11111111-1111-4111-8111-111111111111.zip',
    binary: true,
    outline: ['session 11111111', 'subagent 22222222'],
    message: 'notes.txt',
  },
  {
    format: 'dsh-sqlite',
    file: 'binary/dsh-sessions.sqlite',
    binary: true,
    outline: ['session 11111111', 'subagent 22222222'],
  },
]

const DAMAGED: readonly (Case & { readonly diagnostic: string })[] = [
  {
    format: 'openai-sse',
    file: 'deepseek-malformed-json.sse',
    diagnostic: 'line 17: malformed SSE payload',
    message: "I'll check",
  },
  {
    format: 'anthropic-sse',
    file: 'anthropic-truncated.sse',
    diagnostic: 'event content_block_delta: not JSON',
    message: 'Let me list the files in `src/`.',
  },
  {
    format: 'har',
    file: 'devtools-capture-truncated.har.txt',
    diagnostic: 'malformed HAR',
    outline: ['har2', 'har4'],
    message: "I'll check both cities for you.",
  },
  {
    format: 'dsh-live-recording',
    file: 'dsh-live-gap-truncated.ndjson',
    diagnostic: 'line 35: malformed JSON',
    outline: ['session 5b0e2c4a', 'session c81f4d2e'],
  },
  {
    format: 'js-snippet',
    file: 'seed-004-example-chunks-truncated.ts.txt',
    diagnostic: 'line 26: yield skipped',
    message: 'サンプル 教程',
  },
  {
    format: 'simplified-stream',
    file: 'tutorial-simplified-truncated.ndjson',
    diagnostic: 'line 7: malformed JSON',
    message: '我来检查两个文件',
  },
  {
    format: 'dsh-session-zstd',
    file: 'binary/torn-after-blocks.session.jsonl.zstd',
    binary: true,
    diagnostic: 'torn tail',
    outline: ['Turn 1'],
  },
  {
    format: 'dsh-session-zip',
    file: 'binary/zip-truncated.zip',
    binary: true,
    diagnostic: 'no end-of-central-directory record',
    outline: ['Turn 1'],
    message: 'notes.txt',
  },
  {
    format: 'dsh-sqlite',
    file: 'binary/sqlite-bad-rows.sqlite',
    binary: true,
    diagnostic: 'data is not JSON',
    outline: ['Turn 1'],
  },
]

for (const item of GOOD) {
  test(`${item.format}: ${item.file} loads with its content`, async ({ page }) => {
    await load(page, item.file, item.binary)
    await expectContent(page, item)
  })
}

for (const item of DAMAGED) {
  test(`${item.format}: ${item.file} shows its diagnostic and keeps what could be read`, async ({ page }) => {
    await load(page, item.file, item.binary)
    await expectDiagnostic(page, item.diagnostic)
    await expectContent(page, item)
  })
}

test('Adapter view: raw SSE events beside their chunks; clicking a pair seeks after its last chunk', async ({
  page,
}) => {
  await load(page, 'deepseek-reasoner-tool-calls.sse')
  await page.getByRole('tab', { name: 'Adapter' }).click()
  const adapter = page.getByRole('region', { name: 'Adapter' })
  const pairs = adapter.getByRole('list', { name: 'Wire events' }).getByRole('listitem')
  await expect(pairs.first()).toContainText('data:')
  // A pair that produced chunks: seek to it, and it becomes the current pair.
  const index = await pairs.filter({ hasText: 'text-delta' }).first().getAttribute('data-index')
  const pair = adapter.locator(`li[data-index="${index}"]`)
  const positions = [...((await pair.textContent()) ?? '').matchAll(/#(\d+)/g)].map((m) => Number(m[1]))
  expect(positions.length).toBeGreaterThan(0)
  await pair.click()
  await expectPosition(page, Math.max(...positions) + 1)
  await expect(pair).toHaveAttribute('aria-current', 'step')
  // The Timeline tab is still there, unchanged.
  await page.getByRole('tab', { name: 'Timeline' }).click()
  await expect(page.getByRole('region', { name: 'Timeline' })).toBeVisible()
})

test('a stream without wire data shows the Timeline alone, with no tabs', async ({ page }) => {
  await load(page, 'binary/dsh-session-11111111-1111-4111-8111-111111111111.zip', true)
  await expect(page.getByRole('region', { name: 'Timeline' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Adapter' })).toHaveCount(0)
})
