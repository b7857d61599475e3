// Captures of `chunkscope proxy` and sessions relayed by `chunkscope attach` appear live in the page.
// Every server runs in this process on loopback: the scripted upstream, the proxy, the mock harness host, attach.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startAttach } from '../src/cli/attach/attach'
import { clientChunks, clientResult, postRaw } from '../src/cli/proxy/testClient'
import { startProxy } from '../src/cli/proxy/proxy'
import { scriptTurn, startMockHarnessHost, textAnswer } from '../src/test/mockHarnessHost'
import { startMockUpstream } from '../src/test/mockUpstream'
import { idle } from './helpers'

async function position(page: Page): Promise<{ k: number; total: number }> {
  const [k, total] = (await page.getByLabel('Position').innerText()).split(' / ').map(Number)
  return { k: k!, total: total! }
}

async function openFeed(page: Page, feedUrl: string): Promise<void> {
  await page.goto(`/?feed=${encodeURIComponent(feedUrl)}`)
  await idle(page)
  await expect(page.getByRole('list', { name: 'Feeds' })).toContainText('open')
}

test('a capture through chunkscope proxy appears live and matches what the client received', async ({
  page,
}) => {
  const upstream = await startMockUpstream()
  const out = mkdtempSync(join(tmpdir(), 'chunkscope-e2e-proxy-'))
  const proxy = await startProxy({ upstream: upstream.url, port: 0, out, host: '127.0.0.1', log: () => {} })
  try {
    await openFeed(page, proxy.url)
    const response = postRaw(`${proxy.url}/v1/chat/completions`, {
      headers: { 'x-mock-scenario': 'drip', 'x-mock-delay-ms': '200', 'x-mock-events': '30' },
      body: { model: 'mock-drip', stream: true, messages: [{ role: 'user', content: 'hi' }] },
    })
    const row = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
    await expect(row).toHaveAttribute('data-state', 'streaming')
    await expect(row).toContainText('proxy')
    // Growing while the client still reads, the cursor on the newest chunk.
    await expect
      .poll(
        async () => {
          const { k, total } = await position(page)
          return total >= 5 && total < 30 && k === total
        },
        { timeout: 15_000, intervals: [100] },
      )
      .toBe(true)
    const received = await response
    const client = clientResult(received)
    await expect(row).toHaveAttribute('data-state', 'completed')
    const text = client.blocks!.map((block) => ('text' in block ? block.text : '')).join('')
    expect(text).toContain('w29')
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText(text.trim())
    const end = await position(page)
    expect(end.total).toBe(clientChunks(received).length)
  } finally {
    await proxy.close()
    await upstream.close()
    rmSync(out, { recursive: true, force: true })
  }
})

test('chunkscope attach backfills a running harness session, then relays it live without duplicates', async ({
  page,
}) => {
  const host = await startMockHarnessHost()
  host.addSession('sess-alpha')
  // Before attach connects: only history can bring this turn (backfill).
  scriptTurn(host, 'sess-alpha', 1, textAnswer('Hel', 'lo ', 'there'), { title: 'Say hello' })
  const relay = await startAttach({ url: host.url, port: 0, host: '127.0.0.1' })
  try {
    await openFeed(page, relay.feedUrl)
    const captures = page.getByRole('list', { name: 'Captures' })
    await expect(captures).toContainText('Say hello')
    const tree = page.getByRole('tree', { name: 'Streams' })
    await expect(tree).toContainText('Turn 1')
    await expect(page.getByRole('region', { name: 'Diagnostics' })).toHaveCount(0)
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Hello there')
    // The agent goes on: a second turn arrives live, some events sent twice.
    const turn2 = scriptTurn(host, 'sess-alpha', 2, textAnswer('Good', 'bye'))
    for (const event of turn2.slice(3, 6)) host.resend('sess-alpha', event.seq)
    await expect(tree).toContainText('Turn 2')
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Goodbye')
    const chunks = turn2.filter((event) => event.type === 'assistant/chunk').length
    expect((await position(page)).total).toBe(chunks)
    // Another session starts while attached: it appears too, and is followed.
    host.addSession('sess-beta')
    scriptTurn(host, 'sess-beta', 1, textAnswer('Second ', 'session'), { title: 'Another task' })
    await expect(captures.getByRole('listitem')).toHaveCount(2)
    await expect(tree).toContainText('harness Another task')
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Second session')
    // Clicking the first session's capture shows it (and stops following the newest).
    await captures.getByRole('listitem').filter({ hasText: 'Say hello' }).getByRole('button').first().click()
    await expect(captures.getByRole('listitem').filter({ hasText: 'Say hello' })).toHaveAttribute(
      'aria-current',
      'true',
    )
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('Goodbye')
    await expect(page.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false')
    await expect(page.getByRole('region', { name: 'Findings' })).not.toContainText('recorded-mismatch')
  } finally {
    await relay.close()
    await host.close()
  }
})

test('the Live panel streams through chunkscope proxy when the endpoint refuses CORS', async ({ page }) => {
  const upstream = await startMockUpstream() // no CORS: the page cannot call it directly
  const out = mkdtempSync(join(tmpdir(), 'chunkscope-e2e-proxy-'))
  const proxy = await startProxy({ upstream: upstream.url, port: 0, out, host: '127.0.0.1', log: () => {} })
  try {
    await page.goto('/')
    await idle(page)
    await page.getByRole('button', { name: 'Live', exact: true }).click()
    await idle(page)
    await page.getByLabel('Feed URL').fill(proxy.url)
    await page.getByRole('button', { name: 'Connect' }).click()
    await expect(page.getByRole('list', { name: 'Feeds' })).toContainText('open')
    await page.getByRole('button', { name: 'New request…' }).click()
    const dialog = page.getByRole('dialog', { name: 'New live request' })
    await dialog.getByLabel('Base URL').fill(proxy.url)
    await dialog.getByLabel('Model').fill('mock-reasoning')
    await dialog.getByLabel('API key').fill('sk-e2e-through-proxy')
    await dialog.getByRole('button', { name: 'Send' }).click()
    const rows = page.getByRole('list', { name: 'Captures' }).getByRole('listitem')
    // The page's own capture and the proxy's record of the same response.
    await expect(rows).toHaveCount(2)
    for (const row of await rows.all()) await expect(row).toHaveAttribute('data-state', 'completed')
    await expect(rows.filter({ hasText: 'browser' })).toHaveCount(1)
    await expect(rows.filter({ hasText: 'proxy' })).toHaveCount(1)
    await expect(page.getByRole('region', { name: 'Final message' })).toContainText('The answer is 42.')
    expect(upstream.requests.at(-1)!.headers['authorization']).toBe('Bearer sk-e2e-through-proxy')
  } finally {
    await proxy.close()
    await upstream.close()
    rmSync(out, { recursive: true, force: true })
  }
})
