import { readFileSync } from 'node:fs'
import { zipSync } from 'fflate'
import { loadSqlJsNode } from '../cli/sqlJsNode'
import type { SourcedChunk } from '../core/protocol'
import { streamAsSessionLog, toSessionJsonl } from '../formats/export/sessionJsonl'
import { chunksOf } from '../core/chunkList'
import { loadColumns } from '../formats/columnSource'
import type { LoadedSource } from '../formats/types'
import { loadBytes } from '../formats/loadBytes'
import { generateStream } from '../test/generate'
import { loadBaseline, saveResults } from './baseline'
import { toGeminiSse, toResponsesSse } from './piAiWriters'
import { flatten, median, printTable, type Row } from './report'
import { WIRE_WRITERS } from './wireWriters'
import { MORE_WIRE_WRITERS } from './moreWireWriters'

/**
 * Load throughput per input format: what the page's loading worker runs (loadColumns: session logs and chunk NDJSON
 * read straight into column batches, every other format through loadSource) on a generated ~100 MB input of each
 * text format, next to plain JSON.parse of the same data (per line for line formats, per `data:` payload for SSE) as
 * the floor; and loadBytes on the binary containers (committed fixtures repeated, a generated zip).
 */
const TARGET = Number(process.env['BENCH_FORMAT_MB'] ?? 100) * 1e6
const title = `formats, ~${Math.round(TARGET / 1e6)} MB per text format`
const MB = 1e6

type TextFormat = {
  name: string
  write: (chunks: readonly SourcedChunk[]) => string
  floor: (text: string) => void
}

const parseLines = (text: string): void => {
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    if (end > start) JSON.parse(text.slice(start, end))
    start = end + 1
  }
}
const parseSseData = (text: string): void => {
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    if (text.startsWith('data: ', start) && !text.startsWith('data: [DONE]', start))
      JSON.parse(text.slice(start + 6, end))
    start = end + 1
  }
}

const FORMATS: TextFormat[] = [
  {
    name: 'chunk NDJSON',
    write: (chunks) => chunks.map((c) => JSON.stringify(c.chunk)).join('\n') + '\n',
    floor: parseLines,
  },
  {
    name: 'chunk JSON array',
    write: (chunks) => `[${chunks.map((c) => JSON.stringify(c.chunk)).join(',\n')}]`,
    floor: (text) => void JSON.parse(text),
  },
  { name: 'session JSONL', write: (chunks) => toSessionJsonl(streamAsSessionLog(chunks)), floor: parseLines },
  { name: 'OpenAI SSE', write: toOpenAiSse, floor: parseSseData },
  { name: 'Anthropic SSE', write: toAnthropicSse, floor: parseSseData },
  { name: 'simplified NDJSON', write: toSimplified, floor: parseLines },
  ...WIRE_WRITERS,
  ...MORE_WIRE_WRITERS,
  { name: 'OpenAI Responses SSE', write: toResponsesSse, floor: parseSseData },
  { name: 'Gemini SSE', write: toGeminiSse, floor: parseSseData },
]

function timed(run: () => void): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

type Timing = { readonly wall: number; readonly cpu: number }

/** Wall and CPU milliseconds of one run. */
function timedCpu(run: () => void): Timing {
  const cpu = process.cpuUsage()
  const wall = timed(run)
  const used = process.cpuUsage(cpu)
  return { wall, cpu: (used.user + used.system) / 1000 }
}

/**
 * The formats whose load is held to a budget (README.md, "Budgets"): each also gets a row of load time ÷ JSON.parse
 * time, medians of REPEATS runs each, and the heap its result keeps ÷ the input's bytes.
 */
const BUDGETED = new Set(['chunk NDJSON', 'session JSONL'])
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 3)
/** `BENCH_FORMATS='chunk ndjson,session'` runs only the text formats whose names contain one of those (case ignored). */
const only = (process.env['BENCH_FORMATS'] ?? '').split(',').filter(Boolean)
const gc = (globalThis as { gc?: () => void }).gc
/** The JS heap plus the typed arrays' backing stores, which live outside it (a columnar load keeps its chunks there). */
const heapUsed = (): number => {
  gc?.()
  gc?.()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

const rows: Row[] = []
for (const format of FORMATS) {
  if (only.length > 0 && !only.some((word) => format.name.toLowerCase().includes(word))) continue
  // Size the stream from a sample so each input is about TARGET bytes.
  const perChunk = format.write(generateStream(20_000)).length / 20_000
  let text: string | null = format.write(generateStream(Math.round(TARGET / perChunk)))
  const bytes = Buffer.byteLength(text)
  const input = text
  const budgeted = BUDGETED.has(format.name)
  let chunks = 0
  // Load and floor alternate, so a change in the machine's load between them weighs on both alike.
  const loads: Timing[] = []
  const floors: Timing[] = []
  let heapRatio = NaN
  for (let run = 0; run < (budgeted ? REPEATS : 1); run++) {
    const before = budgeted && run === 0 ? heapUsed() : 0
    let source: LoadedSource | null = null
    loads.push(timedCpu(() => (source = loadColumns(input))))
    chunks = countChunks(source!)
    if (budgeted && run === 0) heapRatio = (heapUsed() - before) / bytes
    source = null
    floors.push(timedCpu(() => format.floor(input)))
  }
  if (!budgeted) floors.push(timedCpu(() => format.floor(input)))
  const loadMs = median(loads.map((t) => t.wall))
  const floorMs = budgeted ? median(floors.map((t) => t.wall)) : Math.min(...floors.map((t) => t.wall))
  const name = `${format.name} (${(bytes / MB).toFixed(0)} MB, ${(chunks / 1e6).toFixed(2)}M chunks)`
  rows.push({
    name,
    value: bytes / MB / (loadMs / 1000),
    unit: 'MB/s',
    reference: { label: 'JSON.parse', value: bytes / MB / (floorMs / 1000) },
  })
  if (budgeted) {
    rows.push({
      name: `${format.name}: load ÷ JSON.parse`,
      value: loadMs / floorMs,
      unit: '×',
      goal: '≤ 1.5',
    })
    // CPU time (this process, GC threads included) moves less than wall time when others share the cores.
    rows.push({
      name: `${format.name}: load ÷ JSON.parse, CPU time`,
      value: median(loads.map((t) => t.cpu)) / median(floors.map((t) => t.cpu)),
      unit: '×',
      goal: '≤ 1.5',
    })
    rows.push({ name: `${format.name}: heap kept ÷ input bytes`, value: heapRatio, unit: '×', goal: '≤ 2' })
  }
  text = null
}

function countChunks(source: LoadedSource): number {
  // chunksOf: the held lists' lengths (reading `attempt.chunks` would build every chunk object of a columnar load).
  return source.sessions.reduce((n, s) => n + s.streams.reduce((m, a) => m + chunksOf(a).length, 0), 0)
}

// Binary containers (skipped under BENCH_FORMATS): the committed fixtures, loaded repeatedly; throughput counts the
// container's bytes.
if (only.length === 0) await binaryRows()

printTable(title, rows, loadBaseline())
saveResults(flatten(title, rows))

async function binaryRows(): Promise<void> {
  const FIXTURES = 'src/formats/fixtures/binary/'
  const sqlJs = loadSqlJsNode
  async function containerRow(name: string, bytes: Uint8Array, repeat: number): Promise<Row> {
    await loadBytes(bytes, name, { sqlJs }) // warm-up (sql.js starts once)
    const start = performance.now()
    for (let i = 0; i < repeat; i++) await loadBytes(bytes, name, { sqlJs })
    const ms = performance.now() - start
    const size = bytes.length * repeat
    return {
      name: `${name} (${(bytes.length / 1024).toFixed(0)} KB ×${repeat})`,
      value: size / MB / (ms / 1000),
      unit: 'MB/s',
    }
  }
  const fixture = (name: string) => new Uint8Array(readFileSync(FIXTURES + name))
  rows.push(
    await containerRow(
      'web-goal-multi-turn-actions-session.jsonl.zstd',
      fixture('web-goal-multi-turn-actions-session.jsonl.zstd'),
      200,
    ),
  )
  rows.push(
    await containerRow(
      'dsh-session-…zip',
      fixture('dsh-session-11111111-1111-4111-8111-111111111111.zip'),
      200,
    ),
  )
  rows.push(await containerRow('dsh-sessions.sqlite', fixture('dsh-sessions.sqlite'), 50))
  // A generated zip: one ~20 MB session.jsonl, deflated.
  const bigSession = toSessionJsonl(streamAsSessionLog(generateStream(150_000)))
  const zipped = zipSync({ 'session.jsonl': new TextEncoder().encode(bigSession) })
  const zipRow = await containerRow(`generated zip`, zipped, 3)
  rows.push({
    ...zipRow,
    name: `generated zip (${(zipped.length / MB).toFixed(1)} MB → ${(bigSession.length / MB).toFixed(0)} MB)`,
    // The same time over the decompressed bytes: comparable with the session JSONL row above.
    reference: { label: 'of session.jsonl', value: (zipRow.value * bigSession.length) / zipped.length },
  })
}

// ── Writers: a generated stream as each wire format ──────────────────────────────────────────────────────────

function toOpenAiSse(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const event = (delta: unknown, finish: string | null = null) =>
    out.push(`data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`)
  let tool = 0
  for (const { chunk } of chunks) {
    if (chunk.type === 'reasoning-delta') event({ reasoning_content: chunk.text })
    else if (chunk.type === 'text-delta') event({ content: chunk.text })
    else if (chunk.type === 'block-start' && chunk.blockType === 'tool-call') tool += 1
    else if (chunk.type === 'tool-call-delta')
      event({
        tool_calls: [
          {
            index: tool - 1,
            id: chunk.id,
            type: 'function',
            function: { name: chunk.name, arguments: chunk.argumentsDelta },
          },
        ],
      })
    else if (chunk.type === 'usage')
      out.push(
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 20 } })}\n\n`,
      )
  }
  event({}, 'stop')
  out.push('data: [DONE]\n\n')
  return out.join('')
}

function toAnthropicSse(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const event = (type: string, data: Record<string, unknown>) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  event('message_start', {
    message: {
      id: 'msg',
      type: 'message',
      role: 'assistant',
      content: [],
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  })
  let index = -1
  for (const { chunk } of chunks) {
    if (chunk.type === 'block-start') {
      index += 1
      const block =
        chunk.blockType === 'reasoning'
          ? { type: 'thinking', thinking: '' }
          : chunk.blockType === 'text'
            ? { type: 'text', text: '' }
            : { type: 'tool_use', id: `toolu_${index}`, name: 'bash', input: {} }
      event('content_block_start', { index, content_block: block })
      if (chunk.blockType === 'tool-call')
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '{"cmd":"' } })
    } else if (chunk.type === 'reasoning-delta')
      event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: chunk.text } })
    else if (chunk.type === 'text-delta')
      event('content_block_delta', { index, delta: { type: 'text_delta', text: chunk.text } })
    else if (chunk.type === 'tool-call-delta')
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(chunk.argumentsDelta).slice(1, -1) },
      })
    else if (chunk.type === 'block-end') {
      if ((chunk.block as { type?: string } | undefined)?.type === 'tool-call')
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '"}' } })
      event('content_block_stop', { index })
    }
  }
  event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 20 } })
  event('message_stop', {})
  return out.join('')
}

function toSimplified(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  let args = ''
  for (const { chunk } of chunks) {
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta')
      out.push(JSON.stringify({ type: 'text', content: chunk.text }))
    else if (chunk.type === 'tool-call-delta') args += chunk.argumentsDelta
    else if (chunk.type === 'block-end' && args !== '') {
      out.push(
        JSON.stringify({ type: 'tool_call', id: `call_${chunk.index}`, name: 'bash', arguments: args }),
      )
      args = ''
    }
  }
  out.push(
    JSON.stringify({ type: 'done', reason: 'stop', usage: { promptTokens: 10, completionTokens: 20 } }),
  )
  return out.join('\n') + '\n'
}
