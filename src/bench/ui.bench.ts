// UI benchmark in headless Chromium: builds the app, serves it with `vite preview`, loads a generated
// 1,000,000-chunk stream through "Open file" and measures load time, step latency and timeline scroll frames.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { preview } from 'vite'
import { CHROMIUM_ARGS, chromiumPath } from '../test/chromium'
import { generateStream } from '../test/generate'
import { loadBaseline, saveResults } from './baseline'
import { flatten, median, percentile, printTable, type Row } from './report'

const N = Number(process.env['BENCH_UI_CHUNKS'] ?? 1_000_000)
const PORT = Number(process.env['BENCH_UI_PORT'] ?? 5310)

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-bench-'))
const file = join(dir, `generated-${N}.ndjson`)
writeFileSync(
  file,
  generateStream(N)
    .map((s) => JSON.stringify(s.chunk))
    .join('\n') + '\n',
)

execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' })
const server = await preview({
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
  const root = page.locator('#root > [data-state]')
  await root.and(page.locator('[data-state="idle"]')).waitFor()

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

  // Timeline scroll: a fling of 120 frames scrolling by 3,000 px each, frame-to-frame intervals.
  const frames = await page.evaluate(async () => {
    const region = document.querySelector('[aria-label="Timeline"]')
    const scroller = [...(region?.querySelectorAll<HTMLElement>('*') ?? [])].find(
      (element) => element.scrollHeight > element.clientHeight + 100,
    )
    if (scroller === undefined) return []
    const intervals: number[] = []
    let last = performance.now()
    for (let i = 0; i < 120; i++) {
      scroller.scrollTop += 3000
      await new Promise((resolve) => requestAnimationFrame(resolve))
      const now = performance.now()
      intervals.push(now - last)
      last = now
    }
    return intervals
  })

  const rows: Row[] = [
    { name: `load ${N.toLocaleString('en')} chunks (open → idle)`, value: loadMs, unit: 'ms' },
    { name: 'step latency: median', value: median(steps), unit: 'ms' },
    { name: 'step latency: worst', value: Math.max(...steps), unit: 'ms' },
    { name: 'timeline scroll frame: median', value: median(frames), unit: 'ms' },
    { name: 'timeline scroll frame: p95', value: percentile(frames, 95), unit: 'ms' },
    { name: 'timeline scroll frame: worst', value: frames.length ? Math.max(...frames) : NaN, unit: 'ms' },
  ]
  const title = 'UI in headless Chromium'
  printTable(title, rows, loadBaseline())
  saveResults(flatten(title, rows))
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
}
