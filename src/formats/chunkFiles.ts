import type { AnyChunk, SourcedChunk } from '../core/protocol'
import { buildStreamSession } from '../core/session'
import { chunkProblem } from './chunkShape'
import {
  eachLine,
  isBlank,
  kindOf,
  parseJson,
  tooDeep,
  valueNestsDeeperThan,
  type ProgressHook,
} from './json'
import { eachFlatRun, type FlatTaker } from './flatRuns'
import { MAX_JSON_DEPTH } from './limits'
import type { Diagnostic, ReadResult } from './types'

/**
 * Readers for bare StreamChunk files: no session, one stream. `seq` is the chunk's 0-based position among the
 * chunks kept (so it runs 0, 1, 2… like a replay cursor); `time` is null. Diagnostics say which item or line
 * was skipped. Objects with an unknown `type` are kept: the engine reports them as `unknown-chunk` (§3 A7, §5).
 */
export type ChunkFileRead = { readonly chunks: SourcedChunk[]; readonly diagnostics: Diagnostic[] }

/**
 * A JSON array of StreamChunks.
 *
 * @example
 * readChunkJson('[{"type":"text-delta","index":0,"text":"hi"}]').chunks // [{ seq: 0, time: null, chunk: {…} }]
 */
export function readChunkJson(text: string): ChunkFileRead {
  const chunks: SourcedChunk[] = []
  const diagnostics: Diagnostic[] = []
  // The whole file is one value: its depth is checked item by item below, so one deep item costs only itself.
  const parsed = parseJson(text, Infinity)
  if (!parsed.ok) {
    diagnostics.push({ severity: 'error', message: `malformed JSON: ${parsed.reason}; no chunks read` })
    return { chunks, diagnostics }
  }
  if (!Array.isArray(parsed.value)) {
    const message = `expected a JSON array of StreamChunks, got ${kindOf(parsed.value)}; no chunks read`
    diagnostics.push({ severity: 'error', message })
    return { chunks, diagnostics }
  }
  parsed.value.forEach((item: unknown, position) => {
    if (valueNestsDeeperThan(item, MAX_JSON_DEPTH - 1)) {
      diagnostics.push({ severity: 'error', message: `item ${position}: ${tooDeep()}; skipped` })
      return
    }
    if (keep(item, 'item', position, diagnostics))
      chunks.push({ seq: chunks.length, time: null, chunk: item })
  })
  return { chunks, diagnostics }
}

/**
 * NDJSON: one StreamChunk per line; blank lines are allowed. A bad line is reported and skipped, the rest kept.
 *
 * @example
 * readChunkNdjson('{"type":"block-start","index":0,"blockType":"text"}\n\n{"type":"finish","reason":{"kind":"stop"}}\n')
 */
export function readChunkNdjson(text: string, onProgress?: ProgressHook): ChunkFileRead {
  const chunks: SourcedChunk[] = []
  const diagnostics: Diagnostic[] = []
  eachNdjsonChunk(
    text,
    diagnostics,
    (chunk) => chunks.push({ seq: chunks.length, time: null, chunk }),
    onProgress,
  )
  return { chunks, diagnostics }
}

/**
 * The NDJSON reading of {@link readChunkNdjson}: each kept chunk goes to `take` in order (its seq is how many came
 * before it), each skipped line to `diagnostics`. The column reader (columnSource.ts) shares it, so both report alike.
 * `held`, when given, takes the values nothing would be reported about (its `code` is not 0 for them), which then
 * skip the checks; runs of such lines are parsed with one JSON.parse call each (flatRuns.ts), every other line alone.
 * `from` and `visited` are json.ts `eachLine`'s (a text read in pieces).
 */
export function eachNdjsonChunk(
  text: string,
  diagnostics: Diagnostic[],
  take: (chunk: AnyChunk) => void,
  onProgress?: ProgressHook,
  held?: FlatTaker,
  from = 0,
  visited = 0,
): void {
  const readLine = (line: string, number: number): void => {
    if (isBlank(line)) return
    const parsed = parseJson(line)
    if (!parsed.ok) {
      diagnostics.push({
        line: number,
        severity: 'error',
        message: `line ${number}: ${parsed.deep ? '' : 'malformed JSON: '}${parsed.reason}; line skipped`,
      })
      return
    }
    const code = held === undefined ? 0 : held.code(parsed.value)
    if (code !== 0) held!.take(parsed.value, code)
    else if (keep(parsed.value, 'line', number, diagnostics)) take(parsed.value)
  }
  if (held === undefined) eachLine(text, readLine, onProgress, from, visited)
  else eachFlatRun(text, readLine, held, onProgress, from, visited)
}

/**
 * Reports what is wrong with one item (`line 12`, `item 3`: the words are built only then); true when it is kept
 * (a field problem is reported but kept).
 */
function keep(
  value: unknown,
  unit: 'line' | 'item',
  at: number,
  diagnostics: Diagnostic[],
): value is AnyChunk {
  const problem = chunkProblem(value)
  if (problem === null) return true
  const where = `${unit} ${at}`
  const message = problem.fatal
    ? `${where}: not a StreamChunk: ${problem.reason}; skipped`
    : `${where}: ${problem.reason}`
  diagnostics.push({
    ...(unit === 'line' ? { line: at } : {}),
    severity: problem.fatal ? 'error' : 'warning',
    message,
  })
  return !problem.fatal
}

/** A chunk file's read as a source: one bare stream, or an error when not one chunk could be read. */
export function chunkFileSource(read: ChunkFileRead): ReadResult {
  if (read.chunks.length > 0)
    return { diagnostics: read.diagnostics, sessions: [buildStreamSession(read.chunks)] }
  return noChunks(read.diagnostics)
}

/** A chunk file of which not one chunk could be read: an error says so, unless one already says why. */
export function noChunks(diagnostics: Diagnostic[]): ReadResult {
  if (!diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push({ severity: 'error', message: 'no StreamChunks in the input' })
  }
  return { diagnostics, sessions: [] }
}
