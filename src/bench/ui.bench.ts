// UI benchmark in headless Chromium, on the production build with the benches' page hook (`vite build --mode
// bench`, src/bench/pageHook.ts): opens a generated 1,000,000-chunk stream through "Open file" as a user would, and
// a 10,000,000-chunk one through the hook (no file that size can reach the page: README.md, "Budgets"). At each
// size: a fling of the timeline (3,000 px per frame) and whether every way of moving reaches its row — End,
// Home, PageUp/PageDown, a seek, a search and scrolling — past Chromium's 33,554,430 px element cap at 10M.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { preview } from 'vite'
import { CHROMIUM_ARGS, chromiumPath } from '../test/chromium'
import { generateStream } from '../test/generate'
import { loadBaseline, saveResults } from './baseline'
import type { BenchHook } from './pageHook'
import { flatten, median, percentile, printTable, type Row } from './report'
import { contiguous, fling, rowInView, scrollTo, settle, sweep } from './timelineProbes'

const N = Number(process.env['BENCH_UI_CHUNKS'] ?? 1_000_000)
const BIG = Number(process.env['BENCH_UI_BIG_CHUNKS'] ?? 10_000_000)
const PORT = Number(process.env['BENCH_UI_PORT'] ?? 5310)
const OUT = 'dist-bench-page'
/** Deltas per block: 10M chunks in ~10,000 blocks, under the 20,000 distinct indexes a stream may have. */
const PER_BLOCK = 1000

const millions = (n: number) => `${(n / 1e6).toLocaleString('en')}M`

async function position(page: Page): Promise<number> {
  const text = (await page.getByLabel('Position').textContent()) ?? ''
  return Number(text.split(' / ')[0])
}

async function fromTheTop(page: Page): Promise<void> {
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await settle(page)
}

/** The fling's frame intervals, from the first rows down. */
async function flingRows(page: Page, label: string): Promise<Row[]> {
  await fromTheTop(page)
  const { intervals, firstRows } = await fling(page, 120, 3000)
  const moved = firstRows.every((row, i) => i === 0 || row > firstRows[i - 1]!)
  return [
    { name: `scroll frame at ${label}: median`, value: median(intervals), unit: 'ms', goal: '≤ 16.7 ms' },
    { name: `scroll frame at ${label}: p95`, value: percentile(intervals, 95), unit: 'ms', goal: '≤ 33 ms' },
    { name: `scroll frame at ${label}: worst`, value: Math.max(...intervals), unit: 'ms' },
    { name: `scroll at ${label}: every frame showed later rows`, value: moved ? 1 : 0, unit: '1 = yes' },
  ]
}

/**
 * Each way of moving, and whether it brought its row into view (1) or not (0). `query` finds the tool call whose
 * first delta is at chunk `hit` (generateStream names tool calls by block index).
 */
async function reachRows(page: Page, n: number, label: string, perBlock: number): Promise<Row[]> {
  const rows: Row[] = []
  const check = (name: string, ok: boolean) =>
    rows.push({ name: `${label}: ${name}`, value: ok ? 1 : 0, unit: '1 = reached' })
  await page.locator('body').click({ position: { x: 1, y: 1 } })
  await page.keyboard.press('End')
  await settle(page)
  check('End shows the last row', (await position(page)) === n && (await rowInView(page, n - 1)))
  await fromTheTop(page)
  check('Home, → shows the first row', await rowInView(page, 0))

  const mid = Math.floor(n / 2)
  await page.getByLabel('Cursor').fill(String(mid))
  await settle(page)
  check(
    'a seek to the middle shows its row',
    (await position(page)) === mid && (await rowInView(page, mid - 1)),
  )
  const grid = page.getByRole('grid', { name: 'Chunks' })
  await grid.focus()
  await grid.press('PageDown')
  await settle(page)
  const down = await position(page)
  check('PageDown moves a page and shows the row', down > mid + 10 && (await rowInView(page, down - 1)))
  await grid.press('PageUp')
  await settle(page)
  const up = await position(page)
  check('PageUp moves back and shows the row', up < down - 10 && (await rowInView(page, up - 1)))

  const blocks = Math.floor(n / (perBlock + 2))
  const block = Math.floor(blocks / 2) - ((Math.floor(blocks / 2) - 2) % 3)
  const hit = block * (perBlock + 2) + 1
  await page.keyboard.press('Home')
  const box = page.getByRole('searchbox', { name: 'Search payloads' })
  await box.fill(`call_${block}`)
  await page.waitForFunction(
    (k) => document.querySelector('[aria-label="Position"]')?.textContent?.startsWith(`${k} /`),
    hit + 1,
    { timeout: 300_000 },
  )
  await settle(page)
  check(`a search for call_${block} shows its first hit`, await rowInView(page, hit))
  await box.fill('')
  await box.press('Escape')

  await fromTheTop(page)
  await scrollTo(page, 1)
  check('scrolling to the bottom shows the last row', await rowInView(page, n - 1))
  await scrollTo(page, 0.5)
  // 40 px is an arrow key's scroll. Past 16M px Chromium keeps scroll offsets in 2 px steps, so a 1 px step
  // may not move at all: a user's smallest scroll there is a wheel notch or an arrow key.
  check('40 px scroll steps at the middle skip no row', contiguous(await sweep(page, 60, 40)))
  await page.evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('[aria-label="Timeline"] .timeline-grid')!
    scroller.scrollTop = scroller.scrollHeight - scroller.clientHeight - 2000
  })
  await settle(page)
  const tail = await sweep(page, 60, 40)
  check(
    '40 px steps to the bottom skip no row and end at the last',
    contiguous(tail) && tail.at(-1) === n - 1,
  )
  return rows
}

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-bench-'))
const file = join(dir, `generated-${N}.ndjson`)
writeFileSync(
  file,
  generateStream(N)
    .map((s) => JSON.stringify(s.chunk))
    .join('\n') + '\n',
)

if (process.env['BENCH_UI_SKIP_BUILD'] === undefined)
  execFileSync('npx', ['vite', 'build', '--mode', 'bench', '--outDir', OUT, '--logLevel', 'warn'], {
    stdio: 'inherit',
  })
const server = await preview({
  build: { outDir: OUT },
  preview: { port: PORT, strictPort: true, host: '127.0.0.1' },
  logLevel: 'warn',
})
const executablePath = chromiumPath()
const browser = await chromium.launch({
  ...(executablePath === undefined ? {} : { executablePath }),
  args: CHROMIUM_ARGS,
})
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  await page.goto(`http://127.0.0.1:${PORT}/`)
  await page.locator('[data-state="idle"]').waitFor()

  const started = Date.now()
  await page.getByLabel('Open file', { exact: true }).setInputFiles(file)
  await page.locator('[data-state="loading"]').waitFor()
  await page.locator('[data-state="idle"]').waitFor({ timeout: 300_000 })
  const loadMs = Date.now() - started

  // Step latency: a key press until the frame after it has painted, measured in the page.
  const steps = await page.evaluate(async () => {
    const times: number[] = []
    const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home' }))
    await painted()
    for (let i = 0; i < 200; i++) {
      const start = performance.now()
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }))
      await painted()
      times.push(performance.now() - start)
    }
    return times
  })
  const rows: Row[] = [
    { name: `load ${N.toLocaleString('en')} chunks (open → idle)`, value: loadMs, unit: 'ms' },
    { name: 'step latency: median', value: median(steps), unit: 'ms' },
    { name: 'step latency: worst', value: Math.max(...steps), unit: 'ms' },
    ...(await flingRows(page, millions(N))),
    ...(await reachRows(page, N, millions(N), 400)),
  ]

  const opened = Date.now()
  await page.evaluate(
    ({ n, perBlock }) =>
      (window as unknown as { __chunkscopeBench: BenchHook }).__chunkscopeBench.openGenerated(n, perBlock),
    { n: BIG, perBlock: PER_BLOCK },
  )
  await page.locator('[data-state="idle"]').waitFor({ timeout: 600_000 })
  // What the tab holds once the stream is on screen: what raising the browser's chunk limit would cost.
  const heap = await page.evaluate(() => {
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
    return memory === undefined ? NaN : memory.usedJSHeapSize / 1e6
  })
  rows.push(
    {
      name: `open ${BIG.toLocaleString('en')} generated chunks (page hook)`,
      value: Date.now() - opened,
      unit: 'ms',
    },
    { name: `page JS heap with ${millions(BIG)} chunks open`, value: heap, unit: 'MB' },
    ...(await flingRows(page, millions(BIG))),
    ...(await reachRows(page, BIG, millions(BIG), PER_BLOCK)),
  )
  const title = 'UI in headless Chromium'
  printTable(title, rows, loadBaseline())
  saveResults(flatten(title, rows))
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
}
