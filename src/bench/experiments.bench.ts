import { encodeWire } from '../cli/serve/encodeWire'
import { minimizeStream } from '../core/experiments/minimize'
import { chunkChaos } from '../core/experiments/chunkChaos'
import type { SourcedChunk } from '../core/protocol'
import { wireChaos } from '../formats/sse/wireChaos'
import { harnessPipeline } from '../formats/sse/wireReads'
import { generateStream } from '../test/generate'
import { loadBaseline, saveResults } from './baseline'
import { flatten, printTable, type Row } from './report'

/**
 * The experiments' cost (docs/protocol.md §13): the minimizer on a 10,000-chunk failing stream (replays and time
 * to a 1-minimal stream), chunk-stream chaos on the same stream, and chaos re-chunking of a ~1 MB DeepSeek body
 * (every split kind, each replay translated and assembled).
 */
const N = Number(process.env['BENCH_MINIMIZE_CHUNKS'] ?? 10_000)
const rows: Row[] = []
const time = <T>(run: () => T): { value: T; ms: number } => {
  const start = performance.now()
  const value = run()
  return { value, ms: performance.now() - start }
}

// A straggler after block 3's block-end, and a block-end with a null block later (a push that throws, §3).
const base = generateStream(N)
const ends = base.flatMap((s, pos) => (s.chunk.type === 'block-end' ? [pos] : []))
const withFaults: SourcedChunk[] = [...base]
const at = ends[3]! + 1
withFaults.splice(at, 0, { seq: 0, time: null, chunk: { type: 'text-delta', index: 3, text: 'late' } })
for (const [property, label] of [
  [{ kind: 'finding', rule: 'delta-after-end' }, 'finding:delta-after-end'],
  [{ kind: 'text', text: 'lantern quartz' }, 'text:"lantern quartz"'],
] as const) {
  const run = time(() => minimizeStream(withFaults, null, property))
  const result = run.value
  if (typeof result === 'string') throw new Error(result)
  rows.push({ name: `minimize ${label}: time`, value: run.ms, unit: 'ms' })
  rows.push({ name: `minimize ${label}: replays`, value: result.steps, unit: 'replays' })
  rows.push({
    name: `minimize ${label}: chunks left`,
    value: result.chunks.length,
    unit: 'chunks',
    reference: { label: 'from', value: N + 1 },
  })
}
const chaos = time(() => chunkChaos(withFaults, { seed: 1 }))
rows.push({
  name: `chunk chaos (${chaos.value.variants.length} variants): time`,
  value: chaos.ms,
  unit: 'ms',
})
const minimizeTitle = `minimizer and chunk chaos, ${N.toLocaleString('en')}-chunk stream`
printTable(minimizeTitle, rows, loadBaseline())
saveResults(flatten(minimizeTitle, rows))

// A ~1 MB DeepSeek body: the generated stream encoded as the DeepSeek wire.
const MB = Number(process.env['BENCH_CHAOS_MB'] ?? 1) * 1e6
let chunks = generateStream(4000)
let text = ''
for (;;) {
  text =
    encodeWire(
      chunks.map((s) => s.chunk),
      'openai',
    )
      .events.map((e) => e.text)
      .join('') + 'data: [DONE]\n\n'
  if (text.length >= MB) break
  chunks = generateStream(Math.ceil((chunks.length * MB) / text.length) + 10)
}
const body = new TextEncoder().encode(text)
const wireRows: Row[] = []
const whole = time(() => wireChaos(body, harnessPipeline('openai-sse'), { seed: 1 }))
wireRows.push({ name: 'all re-splits: time', value: whole.ms, unit: 'ms' })
wireRows.push({
  name: 'replays that differ',
  value: whole.value.variants.filter((v) => v.diff !== null).length,
  unit: 'variants',
  reference: { label: 'of', value: whole.value.variants.length },
})
for (const kind of ['bytes-1', 'mid-utf8', 'event-edges', 'random'] as const) {
  const one = time(() => wireChaos(body, harnessPipeline('openai-sse'), { seed: 1, only: [kind] }))
  const cuts = one.value.variants[0]?.cutCount ?? 0
  wireRows.push({ name: `${kind} (${cuts.toLocaleString('en')} reads): time`, value: one.ms, unit: 'ms' })
}
const wireTitle = `chaos re-chunking, a ${(body.length / 1e6).toFixed(2)} MB DeepSeek body (${whole.value.baselineChunks.toLocaleString('en')} chunks)`
printTable(wireTitle, wireRows, loadBaseline())
saveResults(flatten(wireTitle, wireRows))
