// A capture through `chunkscope proxy` of a stream that is not Chat Completions: an OpenAI Responses body (recorded,
// from pydantic-ai's cassettes) is told from the response and read with the Responses reader, live in the page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startProxy } from '../src/cli/proxy/proxy'
import { postRaw } from '../src/cli/proxy/testClient'
import { readSseStream } from '../src/formats/sse/readSse'
import { idle } from './helpers'

const BODY = readFileSync(
  new URL(
    '../src/formats/fixtures/responses/pydantic-ai-test_deepseek_responses__test_deepseek_responses_text_stream--0.sse',
    import.meta.url,
  ),
  'utf8',
)

test('a Responses stream through chunkscope proxy is read as Responses, live', async ({ page }) => {
  const expected = readSseStream(BODY, 'openai-responses-sse').attempt!.chunks
  const upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(BODY)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const port = (upstream.address() as AddressInfo).port
  const out = mkdtempSync(join(tmpdir(), 'chunkscope-e2e-proxy-wires-'))
  const proxy = await startProxy({
    upstream: `http://127.0.0.1:${port}`,
    port: 0,
    out,
    host: '127.0.0.1',
    log: () => {},
  })
  try {
    await page.goto(`/?feed=${encodeURIComponent(proxy.url)}`)
    await idle(page)
    await expect(page.getByRole('list', { name: 'Feeds' })).toContainText('open')
    const received = await postRaw(`${proxy.url}/v1/responses`, {
      body: { model: 'deepseek-v4', stream: true, input: 'hi' },
    })
    expect(received.bytes.toString('utf8')).toBe(BODY)
    const row = page.getByRole('list', { name: 'Captures' }).getByRole('listitem').first()
    await expect(row).toHaveAttribute('data-state', 'completed')
    await row.click()
    const [k, total] = (await page.getByLabel('Position').innerText()).split(' / ').map(Number)
    expect(total).toBe(expected.length)
    expect(k).toBe(total)
    const final = page.getByRole('region', { name: 'Final message' })
    const texts = expected.flatMap(({ chunk }) => {
      if (chunk.type !== 'block-end') return []
      const block = chunk.block as { type?: string; text?: unknown }
      return block.type === 'text' || block.type === 'reasoning' ? [String(block.text).trim()] : []
    })
    expect(texts.length).toBeGreaterThan(0)
    for (const text of texts) await expect(final).toContainText(text)
    await expect(page.getByRole('region', { name: 'Findings' })).not.toContainText('finish-missing')
  } finally {
    await proxy.close()
    await new Promise((resolve) => upstream.close(resolve))
    rmSync(out, { recursive: true, force: true })
  }
})
