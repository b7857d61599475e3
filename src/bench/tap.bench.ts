import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { StreamChunk } from '../core/protocol'
import { tap } from '../tap/tap'
import { loadBaseline, saveResults } from './baseline'
import { flatten, printTable, type Row } from './report'

// `chunkscope/tap`: what wrapping an adapter's stream costs per chunk. The same in-memory generator is drained
// bare, through tap() with no log (the recorder and assembler only), and through tap() writing its log; the
// best of RUNS is kept for each, so the difference is tap's own work, not the generator's.
const CHUNKS = 200_000
const RUNS = 5
const title = 'tap, overhead per chunk'

const chunks: StreamChunk[] = [{ type: 'block-start', index: 0, blockType: 'text' }]
for (let i = 0; i < CHUNKS; i++) chunks.push({ type: 'text-delta', index: 0, text: 'token ' })
chunks.push(
  { type: 'block-end', index: 0, block: { type: 'text', text: 'token '.repeat(CHUNKS) } },
  { type: 'usage', usage: { inputTokens: 10, outputTokens: CHUNKS } },
  { type: 'finish', reason: { kind: 'stop' } },
)

async function* adapter(): AsyncGenerator<StreamChunk> {
  yield* chunks
}

/** Best nanoseconds per chunk over RUNS drains of `wrap(adapter())`. */
async function perChunk(wrap: (stream: AsyncIterable<StreamChunk>) => AsyncIterable<StreamChunk>) {
  let best = Infinity
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    let seen = 0
    for await (const _chunk of wrap(adapter())) seen += 1
    if (seen !== chunks.length) throw new Error(`saw ${seen} of ${chunks.length} chunks`)
    best = Math.min(best, performance.now() - started)
  }
  return (best * 1e6) / chunks.length
}

const out = mkdtempSync(join(tmpdir(), 'chunkscope-tap-bench-'))
try {
  const bare = await perChunk((stream) => stream)
  const memory = await perChunk((stream) => tap(stream))
  const file = await perChunk((stream) => tap(stream, { out }))
  const rows: Row[] = [
    { name: 'added, no log (recorder only)', value: memory - bare, unit: 'ns/chunk' },
    { name: 'added, writing the log', value: file - bare, unit: 'ns/chunk' },
    {
      name: 'drain through tap, writing the log',
      value: file,
      unit: 'ns/chunk',
      reference: { label: 'bare', value: bare },
    },
  ]
  printTable(title, rows, loadBaseline())
  saveResults(flatten(title, rows))
} finally {
  rmSync(out, { recursive: true, force: true })
}
