// Live capture from the page (against the scripted mock upstream, started here on loopback).
import { expect, test, type Page } from '@playwright/test'
import { startMockUpstream, type MockUpstream } from '../src/test/mockUpstream'
import { idle, openApp } from './helpers'

let upstream: MockUpstream
let noCors: MockUpstream

test.beforeAll(async () => {
  upstream = await startMockUpstream({ cors: true })
  noCors = await startMockUpstream()
})

test.afterAll(async () => {
  await upstream.close()
  await noCors.close()
})

/** Opens the live view and sends one request from the "New live request" dialog. */
async function sendRequest(
  page: Page,
  { baseUrl, model, key = '', retries }: { baseUrl: string; model: string; key?: string; retries?: string },
): Promise<void> {
  await page.getByRole('button', { name: 'Live', exact: true }).click()
  await idle(page)
  await page.getByRole('button', { name: 'New request…' }).click()
  const dialog = page.getByRole('dialog', { name: 'New live request' })
  await dialog.getByLabel('Base URL').fill(baseUrl)
  await dialog.getByLabel('Model').fill(model)
  await dialog.getByLabel('API key').fill(key)
  if (retries !== undefined) await dialog.getByLabel('Retries').selectOption(retries)
  await dialog.getByRole('button', { name: 'Send' }).click()
}

/** The transport's "k / N" readout as numbers. */
async function position(page: Page): Promise<{ k: number; total: number }> {
  const [k, total] = (await page.getByLabel('Position').innerText()).split(' / ').map(Number)
  return { k: k!, total: total! }
}

test('a browser capture grows live, the cursor following its tail, and ends with the message', async ({
  page,
}) => {
  await openApp(page)
  await sendRequest(page, { baseUrl: upstream.url, model: 'mock-drip:delay=200:events=40' })
  const captures = page.getByRole('list', { name: 'Captures' })
  await expect(captures.getByRole('listitem').first()).toHaveAttribute('data-state', 'streaming')
  // Mid-stream: some chunks are on screen, more to come, and the cursor sits on the last one.
  await expect
    .poll(
      async () => {
        const { k, total } = await position(page)
        return total >= 6 && total < 40 && k === total
      },
      { timeout: 15_000, intervals: [100] },
    )
    .toBe(true)
  // While it streams, a missing finish is "not yet", and no end-of-stream finding shows.
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('still streaming')
  await expect(page.getByRole('region', { name: 'Findings' })).not.toContainText('finish-missing')
  await expect(captures.getByRole('listitem').first()).toHaveAttribute('data-state', 'completed', {
    timeout: 20_000,
  })
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('w0 w1 w2')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('w39')
  const end = await position(page)
  expect(end.k).toBe(end.total)
})

test('stepping back while a capture streams keeps the cursor put', async ({ page }) => {
  await openApp(page)
  await sendRequest(page, { baseUrl: upstream.url, model: 'mock-drip:delay=150:events=30' })
  await expect.poll(async () => (await position(page)).total, { timeout: 15_000 }).toBeGreaterThanOrEqual(4)
  await expect(page.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('Home')
  await expect(page.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false')
  const captures = page.getByRole('list', { name: 'Captures' })
  await expect(captures.getByRole('listitem').first()).toHaveAttribute('data-state', 'completed', {
    timeout: 20_000,
  })
  const after = await position(page)
  expect(after.k).toBe(0)
  expect(after.total).toBeGreaterThan(30)
})

test('Stop aborts a capture mid-stream and keeps what arrived', async ({ page }) => {
  await openApp(page)
  await sendRequest(page, { baseUrl: upstream.url, model: 'mock-drip:delay=200:events=200' })
  await expect.poll(async () => (await position(page)).total, { timeout: 15_000 }).toBeGreaterThanOrEqual(5)
  const row = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
  await row.getByRole('button', { name: 'Stop' }).click()
  await expect(row).toHaveAttribute('data-state', 'aborted')
  await expect(row).toContainText('aborted ABORTED')
  const { total } = await position(page)
  expect(total).toBeLessThan(100)
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('w0 w1')
})

test('a 429 is retried as a new attempt of the same step, honouring Retry-After', async ({ page }) => {
  await openApp(page)
  await sendRequest(page, { baseUrl: upstream.url, model: 'mock-rate-limit,text' })
  const row = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 20_000 })
  const tree = page.getByRole('tree', { name: 'Streams' })
  await expect(tree).toContainText('RATE_LIMIT')
  await expect(tree).toContainText('2 attempts')
  await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Hello, world — ✓')
})

test('an endpoint without CORS gets a plain explanation pointing to chunkscope proxy', async ({ page }) => {
  await openApp(page)
  await sendRequest(page, { baseUrl: noCors.url, model: 'mock-text', retries: 'off' })
  const row = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
  await expect(row).toHaveAttribute('data-state', 'error')
  await expect(row.getByRole('note')).toContainText('CORS')
  // A loopback endpoint may itself be a proxy that is down: the hint says so (a remote one gets the command to run).
  await expect(row.getByRole('note')).toContainText('chunkscope proxy')
})

test('the form refuses what it cannot send, naming the field', async ({ page }) => {
  await openApp(page)
  await page.getByRole('button', { name: 'Live', exact: true }).click()
  await page.getByRole('button', { name: 'New request…' }).click()
  const dialog = page.getByRole('dialog', { name: 'New live request' })
  await dialog.getByLabel('Base URL').fill('https://api.deepseek.com')
  await dialog.getByLabel('Model').fill('deepseek-reasoner')
  await dialog.getByLabel('Temperature').fill('0.7')
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('ignores it')
  await dialog.getByLabel('Temperature').fill('')
  await dialog.getByLabel('Base URL').fill('not a url')
  await dialog.getByRole('button', { name: 'Send' }).click()
  await expect(dialog.getByRole('alert')).toBeVisible()
})

test('the key stays out of what the page records, and a reload mid-stream loses nothing received', async ({
  page,
}) => {
  await openApp(page)
  const key = 'sk-test-0123456789-secret'
  await sendRequest(page, { baseUrl: upstream.url, model: 'mock-drip:delay=150:events=200', key })
  await expect.poll(async () => (await position(page)).total, { timeout: 15_000 }).toBeGreaterThanOrEqual(8)
  const seen = (await position(page)).total
  await expect(page).toHaveURL(/#live/)
  await page.reload()
  await idle(page)
  const row = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
  await expect(row).toHaveAttribute('data-state', 'interrupted')
  expect((await position(page)).total).toBeGreaterThanOrEqual(seen)
  // The endpoint got the key; nothing the page stored holds it.
  const sent = upstream.requests.find((r) => r.headers['authorization'] === `Bearer ${key}`)
  expect(sent).toBeDefined()
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('chunkscope-live')
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const dump: unknown[] = []
    for (const name of db.objectStoreNames) {
      const all = db.transaction(name).objectStore(name).getAll()
      dump.push(await new Promise((resolve) => (all.onsuccess = () => resolve(all.result))))
    }
    return JSON.stringify(dump) + JSON.stringify(localStorage) + location.href
  })
  expect(stored).toContain('w0 ')
  expect(stored).not.toContain(key)
  // "Clear saved" forgets it here and in IndexedDB: a reload brings nothing back.
  await page.getByRole('button', { name: 'Clear saved' }).click()
  await expect(page.getByRole('region', { name: 'Live' })).toContainText('No captures yet.')
  await page.reload()
  await idle(page)
  await expect(page.getByRole('region', { name: 'Live' })).toContainText('No captures yet.')
})
