// `chunkscope inspect` of a generated ~106 MB session log, as a user runs it (the built CLI in its own process),
// next to the floor: a Node process that reads the same file and JSON.parses each of its lines.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { streamAsSessionLog, toSessionJsonl } from '../formats/export/sessionJsonl'
import { generateStream } from '../test/generate'
import { loadBaseline, saveResults } from './baseline'
import { flatten, median, printTable, type Row } from './report'

const TARGET = Number(process.env['BENCH_INSPECT_MB'] ?? 101) * 1e6
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 3)

const perChunk = toSessionJsonl(streamAsSessionLog(generateStream(20_000))).length / 20_000
const log = toSessionJsonl(streamAsSessionLog(generateStream(Math.round(TARGET / perChunk))))
const dir = mkdtempSync(join(tmpdir(), 'chunkscope-inspect-'))
const file = join(dir, 'session.jsonl')
writeFileSync(file, log)
const bytes = Buffer.byteLength(log)

const FLOOR = `
const text = require('node:fs').readFileSync(process.argv[1], 'utf8')
let start = 0
while (start < text.length) {
  let end = text.indexOf('\\n', start)
  if (end === -1) end = text.length
  if (end > start) JSON.parse(text.slice(start, end))
  start = end + 1
}`

// Each child writes the CPU time it used (user + system, GC threads included) as it exits: on a shared machine it
// moves less than the wall time.
const cpuFile = join(dir, 'cpu.txt')
const cpuHook = join(dir, 'cpu.cjs')
writeFileSync(
  cpuHook,
  `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(${JSON.stringify(cpuFile)}, String((u.user + u.system) / 1000)) })`,
)

type Timing = { readonly wall: number; readonly cpu: number }

function timedRun(args: readonly string[]): Timing {
  const start = performance.now()
  execFileSync(process.execPath, ['--require', cpuHook, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    maxBuffer: 1 << 30,
  })
  return { wall: performance.now() - start, cpu: Number(readFileSync(cpuFile, 'utf8')) }
}

try {
  const inspects: Timing[] = []
  const floors: Timing[] = []
  for (let run = 0; run < REPEATS; run++) {
    inspects.push(timedRun(['bin/chunkscope.mjs', 'inspect', file]))
    floors.push(timedRun(['-e', FLOOR, file]))
  }
  const inspectMs = median(inspects.map((t) => t.wall))
  const floorMs = median(floors.map((t) => t.wall))
  const cpuRatio = median(inspects.map((t) => t.cpu)) / median(floors.map((t) => t.cpu))
  const title = `chunkscope inspect, ${(bytes / 1e6).toFixed(0)} MB generated session log`
  const rows: Row[] = [
    { name: 'inspect (process start to exit)', value: inspectMs, unit: 'ms' },
    { name: 'JSON.parse of its lines (process)', value: floorMs, unit: 'ms' },
    { name: 'inspect ÷ JSON.parse', value: inspectMs / floorMs, unit: '×', goal: '≤ 1.5' },
    { name: 'inspect ÷ JSON.parse, CPU time', value: cpuRatio, unit: '×', goal: '≤ 1.5' },
  ]
  console.log(`(medians of ${REPEATS} runs each)`)
  printTable(title, rows, loadBaseline())
  saveResults(flatten(title, rows))
} finally {
  rmSync(dir, { recursive: true, force: true })
}
