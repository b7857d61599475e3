import { BlockAssembler } from '../core/BlockAssembler'
import { chunksOf, type ChunkList } from '../core/chunkList'
import type { SourcedChunk, StreamChunk } from '../core/protocol'
import { ReplayEngine } from '../core/ReplayEngine'
import { buildStreamSession } from '../core/session'
import { SourceAssembler, splitSource } from '../app/workers/transfer'
import type { LoadedSource } from '../formats/types'
import { generateStream } from '../test/generate'
import { flatten, median, printTable, type Row } from './report'
import { loadBaseline, saveResults } from './baseline'

const N = Number(process.env['BENCH_CHUNKS'] ?? 1_000_000)
const gc = (globalThis as { gc?: () => void }).gc

function heapUsed(): number {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed
}

/** The heap and typed arrays' backing stores (outside the heap proper), where the page keeps column-held chunks. */
function memoryUsed(): number {
  gc?.()
  gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

const chunks = generateStream(N)
const title = `core engine, ${N.toLocaleString('en')} generated chunks`

// Push throughput: the assembler alone, best of 3.
let pushNs = Infinity
for (let run = 0; run < 3; run++) {
  const start = process.hrtime.bigint()
  const assembler = new BlockAssembler()
  for (const sourced of chunks) assembler.push(sourced.chunk)
  assembler.blocks()
  pushNs = Math.min(pushNs, Number(process.hrtime.bigint() - start) / N)
}
// Reference: the least any assembler must do — append every delta's text to a string per index.
let baselineNs = Infinity
for (let run = 0; run < 3; run++) {
  const start = process.hrtime.bigint()
  const texts = new Map<number, string>()
  for (const { chunk: any } of chunks) {
    const chunk = any as StreamChunk
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') {
      texts.set(chunk.index, (texts.get(chunk.index) ?? '') + chunk.text)
    } else if (chunk.type === 'tool-call-delta') {
      texts.set(chunk.index, (texts.get(chunk.index) ?? '') + chunk.argumentsDelta)
    }
  }
  baselineNs = Math.min(baselineNs, Number(process.hrtime.bigint() - start) / N)
}

const before = heapUsed()
const replayStart = performance.now()
const engine = new ReplayEngine(chunks)
const replayMs = performance.now() - replayStart
const bytesPerChunk = (heapUsed() - before) / N

// The machine is shared: each timing below is taken REPEATS times and the median of the repeats is printed.
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 5)

/** Seek and step timings of one engine: the medians over REPEATS of the median and worst of each. */
function timeSeeks(engine: ReplayEngine) {
  const seekMedians: number[] = []
  const seekWorsts: number[] = []
  const stepMedians: number[] = []
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    // 1,000 random seeks (a fixed seed per repeat), each timed on its own.
    let seed = 7 + repeat
    const seekTimes: number[] = []
    for (let i = 0; i < 1000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
      const k = seed % (N + 1)
      const start = performance.now()
      engine.seek(k)
      seekTimes.push(performance.now() - start)
    }
    seekMedians.push(median(seekTimes))
    seekWorsts.push(Math.max(...seekTimes))
    // Stepping: 1,000 consecutive next-chunk seeks from a random place (one push each on the live assembler).
    const from = seed % (N - 1000)
    engine.seek(from)
    const stepTimes: number[] = []
    for (let k = from + 1; k <= from + 1000; k++) {
      const start = performance.now()
      engine.seek(k)
      stepTimes.push(performance.now() - start)
    }
    stepMedians.push(median(stepTimes))
  }
  return { seek: median(seekMedians), worst: median(seekWorsts), step: median(stepMedians) }
}

const onArray = timeSeeks(engine)

// The same chunks as the page holds a loaded file's: column batches from the worker (core/chunkStore.ts).
const beforeColumns = memoryUsed()
const held = heldAsOnPage(chunks)
const columnBytesPerChunk = (memoryUsed() - beforeColumns) / N
const columnReplayStart = performance.now()
const columnEngine = new ReplayEngine(held)
const columnReplayMs = performance.now() - columnReplayStart
const onColumns = timeSeeks(columnEngine)

function heldAsOnPage(stream: SourcedChunk[]): ChunkList {
  const source: LoadedSource = {
    format: null,
    diagnostics: [],
    sessions: [buildStreamSession(stream.slice())],
  }
  const { shell, plan, parts } = splitSource(source)
  const assembler = new SourceAssembler()
  for (const next of parts) assembler.add(next())
  return chunksOf(assembler.finish(shell, plan).sessions[0]!.streams[0]!)
}

const rows: Row[] = [
  {
    name: 'push throughput',
    value: pushNs,
    unit: 'ns/chunk',
    reference: { label: 'plain string append', value: baselineNs },
  },
  { name: 'full replay (pass + checks + checkpoints)', value: replayMs, unit: 'ms' },
  { name: '1,000 random seeks: median', value: onArray.seek, unit: 'ms', goal: '≤ 0.5 ms' },
  { name: '1,000 random seeks: worst', value: onArray.worst, unit: 'ms', goal: '≤ 8 ms' },
  { name: 'step to next chunk: median', value: onArray.step, unit: 'ms', goal: '≤ 0.05 ms' },
  { name: 'engine memory per chunk (excl. chunks)', value: bytesPerChunk, unit: 'bytes' },
  { name: 'chunks held as columns: memory per chunk', value: columnBytesPerChunk, unit: 'bytes' },
  { name: 'columns: full replay', value: columnReplayMs, unit: 'ms' },
  { name: 'columns: 1,000 random seeks: median', value: onColumns.seek, unit: 'ms', goal: '≤ 0.5 ms' },
  { name: 'columns: 1,000 random seeks: worst', value: onColumns.worst, unit: 'ms', goal: '≤ 8 ms' },
  { name: 'columns: step to next chunk: median', value: onColumns.step, unit: 'ms', goal: '≤ 0.05 ms' },
]
if (gc === undefined) console.log('(run with node --expose-gc for a memory figure)')
console.log(`(seek and step rows: the median of ${REPEATS} repeats)`)
printTable(title, rows, loadBaseline())
saveResults(flatten(title, rows))
