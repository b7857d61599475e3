import { CHUNK_TYPES, type AnyChunk } from '../../core/protocol'
import { bareStream, streamsSession, type Attempt } from '../../core/session'
import { chunkProblem } from '../chunkShape'
import { SIMPLIFIED_TYPES, translateSimplified } from '../simplified/simplified'
import type { Lesson } from '../lesson/lesson'
import type { Diagnostic, ReadResult } from '../types'
import { WireTraceBuilder } from '../wire'
import { LiteralParser, tokenize, UnsupportedExpression, type Comment, type Token } from './literal'
import { isRecord } from '../../core/base/isRecord'
import { partitionPoint } from '../../core/base/partitionPoint'

/** One `yield { … }` of a snippet: the literal it yields (or why it could not be read) and where it is. */
export type SnippetYield = {
  /** The generator it is in (`exampleChunks`, a method `stream`), null before any generator header. */
  readonly fn: string | null
  readonly line: number
  /** Offsets of `yield` and of the end of its expression in the text. */
  readonly start: number
  readonly end: number
  /**
   * The comments right above the yield (no code between them and it), and for the generator's last yield the ones
   * after it: a tutorial's teaching comments, which become the narration of the chunk (docs/protocol.md §15).
   */
  readonly note: string | null
} & ({ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string })

/**
 * Every `yield <expression>` of a JavaScript/TypeScript snippet, in text order, read with the literal parser
 * (never evaluated). A line-number gutter copied from a web page (` 6  yield {…}`) is blanked first.
 *
 * @example
 * readYields("function* f() { yield { type: 'text-delta', index: 0, text: 'hi' } }")
 * // [{ ok: true, value: { type: 'text-delta', index: 0, text: 'hi' }, line: 1, … }]
 */
export function readYields(text: string): SnippetYield[] {
  const comments: Comment[] = []
  const clean = blankGutter(text)
  const tokens = tokenize(clean, comments)
  /** Comments strictly between token positions `from` (after its end) and `to` (before its start). */
  const between = (from: number, to: number): Comment[] => {
    const after = tokens[from]?.end ?? 0
    const before = tokens[to]?.start ?? text.length
    return comments.filter((c) => c.start >= after && c.end <= before && c.text !== '')
  }
  /** A comment alone on its line (only spaces before it, NBSP too: pages copied from the web indent with it). */
  const ownLine = (c: Comment): boolean =>
    /^[ \t\u00a0\ufeff]*$/.test(clean.slice(clean.lastIndexOf('\n', c.start - 1) + 1, c.start))
  /**
   * The note of the yield at token `k` whose expression ends before token `next`: the comments alone on their lines
   * right above it, one at the end of its last line, and after the generator's last yield the ones before its `}`.
   */
  const noteOf = (k: number, next: number): string | null => {
    let close = next
    while (tokens[close]?.value === ';') close += 1
    const lastLine = tokens[next - 1]?.line
    const after = between(next - 1, close).filter(
      (c) => tokens[close]?.value === '}' || (c.line === lastLine && !ownLine(c)),
    )
    const lines = [...between(k - 1, k).filter(ownLine), ...after].map((c) => c.text)
    return lines.length === 0 ? null : lines.join('\n')
  }
  const found: SnippetYield[] = []
  let fn: string | null = null
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!
    const header = generatorName(tokens, k)
    if (header !== null) fn = header
    if (token.kind !== 'ident' || token.value !== 'yield') continue
    const next = tokens[k + 1]
    if (next === undefined) continue
    if (next.kind === 'punct' && next.value === '*') {
      found.push({
        fn,
        ok: false,
        reason: '`yield*` delegates to another generator: not followed',
        note: null,
        line: token.line,
        start: token.start,
        end: next.end,
      })
      continue
    }
    if (next.kind === 'punct' && (next.value === ';' || next.value === ')' || next.value === '}')) continue
    // Prose around the code ("… finish を1つだけ yield し、…"): a word that is no JS identifier a snippet would use.
    if (next.kind === 'ident' && !/^[\w$]+$/.test(next.value)) continue
    const parser = new LiteralParser(tokens, k + 1)
    try {
      const value = parser.parseValue()
      const last = tokens[parser.at - 1]!
      const note = noteOf(k, parser.at)
      found.push({ fn, ok: true, value, note, line: token.line, start: token.start, end: last.end })
      k = parser.at - 1
    } catch (error) {
      if (!(error instanceof UnsupportedExpression)) throw error
      const end = skipExpression(tokens, k + 1)
      found.push({
        fn,
        ok: false,
        reason: error.line !== token.line ? `${error.message} (line ${error.line})` : error.message,
        note: null,
        line: token.line,
        start: token.start,
        end: tokens[end - 1]?.end ?? token.end,
      })
      k = end - 1
    }
  }
  return found
}

/**
 * The name a generator header at token `k` declares: `function* name`, or a method `*name(` after `async`,
 * `static`, `{`, `}`, `;` or `,` (not a multiplication). Null when token `k` starts no header.
 */
function generatorName(tokens: readonly Token[], k: number): string | null {
  const token = tokens[k]!
  const next = tokens[k + 1]
  if (token.kind === 'ident' && token.value === 'function') {
    const name = tokens[k + 2]
    return next?.value === '*' && name?.kind === 'ident' ? name.value : null
  }
  if (token.kind !== 'punct' || token.value !== '*' || next?.kind !== 'ident' || tokens[k + 2]?.value !== '(')
    return null
  const before = tokens[k - 1]
  if (before === undefined) return next.value
  const opens =
    before.kind === 'punct' ? '{};,'.includes(before.value) : ['async', 'static'].includes(before.value)
  return opens ? next.value : null
}

/** The token position after the expression starting at `from`: its bracket group, or up to a line/statement end. */
function skipExpression(tokens: readonly Token[], from: number): number {
  let depth = 0
  const line = tokens[from]?.line ?? 0
  for (let k = from; k < tokens.length; k++) {
    const token = tokens[k]!
    if (token.kind === 'punct') {
      if (token.value === '{' || token.value === '[' || token.value === '(') depth += 1
      else if (token.value === '}' || token.value === ']' || token.value === ')') {
        depth -= 1
        if (depth === 0) return k + 1
        if (depth < 0) return k
      } else if (token.value === ';' && depth === 0) return k
    }
    if (depth === 0 && token.line !== line) return k
    if (token.kind === 'ident' && token.value === 'yield' && k > from && depth <= 1) return k
  }
  return tokens.length
}

/**
 * Blanks a line-number gutter (runs of ≥ 3 lines starting 1, 2, 3… as a web page's code block copies them) with
 * spaces, keeping every offset. Lines outside such runs are left alone.
 */
export function blankGutter(text: string): string {
  const starts: number[] = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  const numbers = starts.map((start) => {
    const match = /^ {0,4}(\d{1,4})/.exec(text.slice(start, start + 12))
    return match ? { value: Number(match[1]), end: start + match[0].length } : null
  })
  const blank: { from: number; to: number }[] = []
  let run: { from: number; to: number }[] = []
  let expected = 1
  const flush = () => {
    if (run.length >= 3) blank.push(...run)
    run = []
    expected = 1
  }
  numbers.forEach((number, k) => {
    if (number !== null && number.value === expected) {
      run.push({ from: starts[k]!, to: number.end })
      expected += 1
    } else {
      flush()
      if (number !== null && number.value === 1) {
        run.push({ from: starts[k]!, to: number.end })
        expected = 2
      }
    }
  })
  flush()
  if (blank.length === 0) return text
  let out = ''
  let at = 0
  for (const { from, to } of blank) {
    out += text.slice(at, from) + ' '.repeat(to - from)
    at = to
  }
  return out + text.slice(at)
}

const CHUNK_TYPE_SET: ReadonlySet<string> = new Set(CHUNK_TYPES)

/**
 * A pasted snippet as one stream: the chunks its `yield { … }` literals produce, in order. When the literals are the
 * seed tutorial's simplified chunks (`text`, `tool_call`, `done`, …) they go through the §12 mapping. A yield that
 * cannot be read is skipped with a diagnostic on its line.
 */
export function readSnippetSource(text: string): ReadResult {
  const diagnostics: Diagnostic[] = []
  const yields = readYields(text)
  const lineStarts = lineStartsOf(text)
  const lineOf = (offset: number) => bisect(lineStarts, offset)
  for (const y of yields) {
    if (!y.ok) {
      diagnostics.push({
        line: y.line,
        severity: 'warning',
        message: `line ${y.line}: yield skipped: ${y.reason}`,
      })
    }
  }
  // One stream per generator (a pasted article may hold the example and an adapter skeleton); one stream is `stream`.
  const groups = new Map<string | null, (SnippetYield & { ok: true })[]>()
  for (const y of yields) {
    if (!y.ok) continue
    const group = groups.get(y.fn)
    if (group) group.push(y)
    else groups.set(y.fn, [y])
  }
  const streams: Attempt[] = []
  let lesson: Lesson | undefined
  const used = new Set<string>()
  for (const [fn, read] of groups) {
    let id = groups.size === 1 ? 'stream' : (fn ?? 'stream')
    for (let n = 2; used.has(id); n++) id = `${fn ?? 'stream'}-${n}`
    used.add(id)
    const where = groups.size === 1 ? '' : ` (${id})`
    const narration: Record<string, string> = {}
    const attempt = buildStream(text, read, id, where, lineOf, diagnostics, narration)
    if (attempt === null) continue
    streams.push(attempt)
    // The comments of one generator narrate (the first that has any): seqs restart in each stream.
    if (lesson === undefined && Object.keys(narration).length > 0)
      lesson = { v: 1, title: 'Snippet', stream: id, narration, questions: [] }
  }
  if (streams.length === 0) {
    diagnostics.push({
      severity: 'error',
      message:
        yields.length === 0
          ? 'no `yield` of an object literal in the snippet'
          : 'no yield could be read as a chunk',
    })
    return { diagnostics, sessions: [] }
  }
  if (streams.length > 1) {
    diagnostics.push({
      severity: 'info',
      message: `${streams.length} generators yield chunks: one stream each (${streams.map((a) => a.id).join(', ')})`,
    })
  }
  const sessions = [streamsSession(streams)]
  return lesson === undefined ? { diagnostics, sessions } : { diagnostics, sessions, lesson }
}

/** The chunks one generator's literals produce, simplified chunks through §12, with the yield ↔ chunk pairing. */
function buildStream(
  text: string,
  read: readonly (SnippetYield & { ok: true })[],
  id: string,
  where: string,
  lineOf: (offset: number) => number,
  diagnostics: Diagnostic[],
  narration: Record<string, string>,
): Attempt | null {
  const narrate = (y: SnippetYield, emitted: number) => {
    if (y.note !== null && emitted > 0) narration[String(trace.chunks.length)] = y.note
  }
  const types = read.map((y) =>
    isRecord(y.value) && typeof y.value['type'] === 'string' ? y.value['type'] : null,
  )
  const simplified = types.some((t) => t !== null && SIMPLIFIED_TYPES.has(t) && !CHUNK_TYPE_SET.has(t))
  const protocol = types.some((t) => t !== null && CHUNK_TYPE_SET.has(t))
  const trace = new WireTraceBuilder(simplified && !protocol ? 'simplified-stream' : 'js-snippet', text)
  if (simplified && !protocol) {
    diagnostics.push({
      severity: 'info',
      message: `the snippet${where} yields the seed tutorial's simplified chunks: mapped as docs/protocol.md §12`,
    })
    const result = translateSimplified(
      read.map((y) => ({ value: y.value, line: y.line, where: `line ${y.line}` })),
      (k, chunks) => {
        const y = read[k]!
        trace.event(y.start, y.end, lineOf(y.start))
        narrate(y, chunks.length)
        trace.emit(chunks)
      },
    )
    diagnostics.push(...result.diagnostics)
  } else {
    for (const y of read) {
      trace.event(y.start, y.end, lineOf(y.start))
      const problem = chunkProblem(y.value)
      if (problem !== null) {
        diagnostics.push({
          line: y.line,
          severity: problem.fatal ? 'error' : 'warning',
          message: `line ${y.line}: ${problem.fatal ? `not a StreamChunk: ${problem.reason}; skipped` : problem.reason}`,
        })
        if (problem.fatal) continue
      }
      narrate(y, 1)
      trace.emit([y.value as AnyChunk])
    }
  }
  if (trace.chunks.length === 0) return null
  return bareStream(id, trace.chunks, trace.build())
}

/** Code with `yield {` (or `yield*`) in its first 256 KiB that is not JSON. Checked after every other format. */
export function sniffSnippet(text: string): boolean {
  const head = text.slice(0, 1 << 18)
  return /\byield\s*(\{|\*)/.test(head)
}

function lineStartsOf(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** 1-based line of `offset`. */
function bisect(starts: readonly number[], offset: number): number {
  return partitionPoint(starts.length, (i) => starts[i]! <= offset)
}
