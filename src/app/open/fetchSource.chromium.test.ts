// fetchSource in Chromium itself: the `?src=` download must end as one completed request, never a failed one.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from '@playwright/test'
import ts from 'typescript'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { CHROMIUM_ARGS, chromiumPath } from '../../test/chromium'
import type { fetchSource } from './fetchSource'

const FILE = readFileSync(
  fileURLToPath(
    new URL('../../formats/fixtures/binary/acp-agent-packed-chunks-session.jsonl.zstd', import.meta.url),
  ),
)
// fetchSource.ts imports nothing, so the page can run it as written, types stripped.
const MODULE = ts.transpileModule(readFileSync(new URL('./fetchSource.ts', import.meta.url), 'utf8'), {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
}).outputText

const PAGE = `<!doctype html><title>fetchSource</title>
<script type="module">import { fetchSource } from '/fetchSource.js'; window.fetchSource = fetchSource</script>`

type Page = { fetchSource?: typeof fetchSource }

let server: Server
let browser: Browser
let origin = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/fetchSource.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(MODULE)
    else if (req.url === '/session.jsonl.zstd')
      res
        .writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' })
        .end(FILE)
    else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const executablePath = chromiumPath()
  browser = await chromium.launch({
    ...(executablePath === undefined ? {} : { executablePath }),
    args: CHROMIUM_ARGS,
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => server?.close(() => resolve()))
})

it('downloads a file as one request that completes: never a failed (aborted) one, though every byte came', async () => {
  const page = await browser.newPage()
  const failed: string[] = []
  const finished: string[] = []
  page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`))
  page.on('requestfinished', (request) => {
    if (request.url().endsWith('.zstd')) finished.push(request.url())
  })
  await page.goto(origin)
  await page.waitForFunction(() => (window as Page).fetchSource !== undefined)
  // Forty downloads in a row: a page reader draining the body used to leave about one in four reported as
  // net::ERR_ABORTED on a loaded machine.
  const sizes = await page.evaluate(async (src) => {
    const fetchInPage = (window as Page).fetchSource!
    const got: (number | string)[] = []
    for (let i = 0; i < 40; i++) {
      const result = await fetchInPage(src)
      got.push('error' in result ? result.error : result.bytes.length)
    }
    return got
  }, `${origin}/session.jsonl.zstd`)
  expect(sizes).toEqual(Array.from({ length: 40 }, () => FILE.length))
  await expect.poll(() => finished.length).toBe(40)
  expect(failed).toEqual([])
}, 60_000)
