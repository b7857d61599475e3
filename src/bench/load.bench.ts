// Opening big inputs in headless Chromium, as a user does ("Open file"): a generated 1,000,000-chunk NDJSON file and
// a generated ~100 MB session log. Measures open → usable (the root's data-state back to idle), the main thread's
// long tasks meanwhile, the longest time the progress bar stood still before the workbench was usable, and the
// page's JS heap once loaded (after a forced GC, typed arrays' backing stores included) against the file's size.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { preview } from 'vite'
import { streamAsSessionLog, toSessionJsonl } from '../formats/export/sessionJsonl'
import { CHROMIUM_ARGS, chromiumPath } from '../test/chromium'
import { generateStream } from '../test/generate'
import { loadBaseline, saveResults } from './baseline'
import { flatten, median, printTable, type Row } from './report'

const N = Number(process.env['BENCH_LOAD_CHUNKS'] ?? 1_000_000)
const SESSION_MB = Number(process.env['BENCH_LOAD_SESSION_MB'] ?? 100)
const PORT = Number(process.env['BENCH_LOAD_PORT'] ?? 5311)
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 3)

const dir = mkdtempSync(join(tmpdir(), 'chunkscope-load-'))
const ndjson = join(dir, `generated-${N}.ndjson`)
writeFileSync(
  ndjson,
  generateStream(N)
    .map((s) => JSON.stringify(s.chunk))
    .join('\n') + '\n',
)
const session = join(dir, 'session.jsonl')
const perChunk = toSessionJsonl(streamAsSessionLog(generateStream(20_000))).length / 20_000
writeFileSync(
  session,
  toSessionJsonl(streamAsSessionLog(generateStream(Math.round((SESSION_MB * 1e6) / perChunk)))),
)

type Opened = { usableMs: number; longTasks: number[]; stillMs: number; heapBytes: number }

/** Opens `file` in a fresh page and measures until the workbench is idle. */
async function open(page: Page, file: string): Promise<Opened> {
  await page.goto(`http://127.0.0.1:${PORT}/`)
  await page.locator('#root > [data-state="idle"]').waitFor()
  // Long tasks and progress-bar changes, recorded in the page from before the open until idle.
  await page.evaluate(() => {
    const record = { longTasks: [] as number[], changes: [] as number[], last: '', usable: -1 }
    ;(window as unknown as { __load: typeof record }).__load = record
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.longTasks.push(entry.duration)
    }).observe({ type: 'longtask' })
    // Usable: the first animation frame after the root turns idle again (the frame that paints the workbench), seen
    // in the page. Playwright's waitFor polls every 500 ms once it has waited a while, so its return would round the
    // moment up by as much.
    let loading = false
    new MutationObserver(() => {
      const state = document.querySelector('#root > [data-state]')?.getAttribute('data-state')
      if (state === 'loading') loading = true
      else if (state === 'idle' && loading && record.usable === -1) {
        record.usable = 0
        requestAnimationFrame(() => (record.usable = performance.now()))
      }
    }).observe(document.getElementById('root')!, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    })
    const sample = () => {
      const bar = document.querySelector<HTMLProgressElement>('progress[aria-label="Loading progress"]')
      const now = bar === null ? 'none' : `${bar.value}/${bar.max}/${bar.parentElement?.textContent ?? ''}`
      if (now !== record.last) record.changes.push(performance.now())
      record.last = now
      requestAnimationFrame(sample)
    }
    requestAnimationFrame(sample)
  })
  const started = await page.evaluate(() => performance.now())
  await page.getByLabel('Open file', { exact: true }).setInputFiles(file)
  await page.locator('#root > [data-state="loading"]').waitFor()
  await page.locator('#root > [data-state="idle"]').waitFor({ timeout: 600_000 })
  await page.waitForFunction(() => (window as unknown as { __load: { usable: number } }).__load.usable > 0)
  const seen = await page.evaluate(
    () =>
      (window as unknown as { __load: { longTasks: number[]; changes: number[]; usable: number } }).__load,
  )
  const moments = [
    started,
    ...seen.changes.filter((time) => time >= started && time <= seen.usable),
    seen.usable,
  ]
  let stillMs = 0
  for (let i = 1; i < moments.length; i++) stillMs = Math.max(stillMs, moments[i]! - moments[i - 1]!)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  // The backing stores of typed arrays live outside the JS heap proper: counted too, since the page keeps its chunks
  // in typed arrays (docs/ARCHITECTURE.md, "How chunks are held").
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number }
  await cdp.detach()
  const heapBytes = heap.usedSize + (heap.backingStorageSize ?? 0)
  return { usableMs: seen.usable - started, longTasks: seen.longTasks, stillMs, heapBytes }
}

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
  const rows: Row[] = []
  for (const [label, file] of [
    [`${(N / 1e6).toFixed(0)}M-chunk NDJSON`, ndjson],
    [`${(statSync(session).size / 1e6).toFixed(0)} MB session log`, session],
  ] as const) {
    const runs: Opened[] = []
    for (let run = 0; run < REPEATS; run++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
      runs.push(await open(page, file))
      await page.close()
    }
    const bytes = statSync(file).size
    const pick = (read: (opened: Opened) => number) => median(runs.map(read))
    rows.push(
      { name: `${label}: open → usable`, value: pick((r) => r.usableMs), unit: 'ms', goal: '≤ 1,500 ms' },
      {
        name: `${label}: longest task while loading`,
        value: pick((r) => Math.max(0, ...r.longTasks)),
        unit: 'ms',
        goal: '≤ 100 ms',
      },
      { name: `${label}: long tasks (> 50 ms)`, value: pick((r) => r.longTasks.length), unit: 'tasks' },
      {
        name: `${label}: progress bar still, longest`,
        value: pick((r) => r.stillMs),
        unit: 'ms',
        goal: 'moves until usable',
      },
      {
        name: `${label}: page heap ÷ file`,
        value: pick((r) => r.heapBytes) / bytes,
        unit: '×',
        goal: '≤ 2',
      },
    )
  }
  const title = 'opening big inputs in headless Chromium'
  console.log(`(medians of ${REPEATS} opens each)`)
  printTable(title, rows, loadBaseline())
  saveResults(flatten(title, rows))
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
}
