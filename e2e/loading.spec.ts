import { expect, test } from '@playwright/test'
import { corpusFile, dropFile, expectPosition, idle, openApp, openFile } from './helpers'

const chunks = [
  { type: 'text-delta', index: 0, text: 'Dropped ' },
  { type: 'text-delta', index: 0, text: 'in.' },
  { type: 'usage', usage: { inputTokens: 3, outputTokens: 2 } },
  { type: 'finish', reason: { kind: 'stop' } },
]
const ndjson = chunks.map((chunk) => JSON.stringify(chunk)).join('\n') + '\n'

test('a file dropped anywhere on the page loads', async ({ page }) => {
  await openApp(page)
  await dropFile(page, 'dropped.ndjson', ndjson)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Dropped in.')
  await expectPosition(page, 4, 4)
  await expect(page).toHaveURL(/#f=dropped\.ndjson&s=stream&k=4/)
})

test('"Open file" loads a harness session log into the outline', async ({ page }) => {
  await openApp(page)
  await openFile(page, corpusFile('acp-agent-empty-response-retry-session.jsonl'))
  const tree = page.getByRole('tree', { name: 'Streams' })
  await expect(tree).toContainText('Turn 1')
  await expect(tree).toContainText('EMPTY_RESPONSE')
})

test('the paste box loads pasted text', async ({ page }) => {
  await openApp(page)
  await page.getByRole('button', { name: 'Paste' }).click()
  await page.getByLabel('Paste box').fill(ndjson)
  await page.getByRole('button', { name: 'Load' }).click()
  await idle(page)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Dropped in.')
})

test('a malformed file shows its error with the line and keeps the readable part', async ({ page }) => {
  await openApp(page)
  const broken = ndjson.replace('\n', '\n{"type": "text-delta", "index": 0, "text": \n')
  await dropFile(page, 'broken.ndjson', broken)
  const diagnostics = page.getByRole('region', { name: 'Diagnostics' })
  await expect(diagnostics).toContainText('line 2')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Dropped in.')
})

test('an unreadable file says what was expected, and the page stays usable', async ({ page }) => {
  await openApp(page)
  await dropFile(page, 'notes.txt', 'These are my meeting notes.\nNothing to see here.\n')
  await expect(page.getByRole('alert')).toContainText('unrecognised format')
  await expect(page.getByLabel('Open file', { exact: true })).toBeEnabled()
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await expect(page.getByRole('alert')).toBeHidden()
})

test('model text is shown as text, never run as HTML', async ({ page }) => {
  await openApp(page)
  const hostile = [
    { type: 'text-delta', index: 0, text: '<img src=x onerror="window.__pwned=1"><b>bold</b>' },
  ]
  await dropFile(page, 'hostile.ndjson', hostile.map((c) => JSON.stringify(c)).join('\n'))
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('<b>bold</b>')
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined()
  await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0)
})
