import type { FinishReason, LlmFailure, StreamChunk, TokenUsage } from '../../core/protocol'
import { bareStream, streamsSession, type Attempt, type Session } from '../../core/session'
import {
  isBlank,
  isRecord,
  kindOf,
  lines,
  parseJson,
  peekObjects,
  tooDeep,
  valueNestsDeeperThan,
} from '../json'
import { MAX_JSON_DEPTH } from '../limits'
import type { Diagnostic } from '../types'
import { WireTraceBuilder } from '../wire'

/**
 * The seed tutorial's simplified stream (docs/protocol.md §12): `text`, `tool_call`, `tool_result`, `error`, `done`.
 * Mapped onto StreamChunks: all `text` goes to ONE text block (opened lazily at the next free index, like the DeepSeek
 * adapter, closed at `done`); each `tool_call` is a complete tool-call block (start, one delta with all arguments,
 * end); `done` closes the text block, then usage (promptTokens → inputTokens, completionTokens → outputTokens),
 * then finish (stop→stop, tool_use→tool-calls, length→max-tokens, cancel→aborted ABORTED, error→error with the last
 * `error` chunk's message). `tool_result` and `error` have no StreamChunk: they stay visible as info diagnostics
 * on their line, and one diagnostic lists every field that did not map.
 */
export const SIMPLIFIED_TYPES: ReadonlySet<string> = new Set([
  'text',
  'tool_call',
  'tool_result',
  'error',
  'done',
])

export type SimplifiedItem = { readonly value: unknown; readonly line?: number; readonly where: string }

export type SimplifiedResult = { chunks: StreamChunk[]; diagnostics: Diagnostic[] }

/** Translates simplified items; `onChunks(k, chunks)` tells which item became which chunks (for the wire pairing). */
export function translateSimplified(
  items: Iterable<SimplifiedItem>,
  onChunks?: (item: number, chunks: readonly StreamChunk[]) => void,
): SimplifiedResult {
  const chunks: StreamChunk[] = []
  const diagnostics: Diagnostic[] = []
  const unmapped = new Map<string, number>()
  const skip = (field: string) => unmapped.set(field, (unmapped.get(field) ?? 0) + 1)
  let next = 0
  let text: { index: number; text: string } | null = null
  let lastError: LlmFailure | null = null
  let position = -1
  const note = (item: SimplifiedItem, severity: Diagnostic['severity'], message: string) =>
    diagnostics.push({
      ...(item.line !== undefined ? { line: item.line } : {}),
      severity,
      message: `${item.where}: ${message}`,
    })
  for (const item of items) {
    position += 1
    const out: StreamChunk[] = []
    const value = item.value
    if (!isRecord(value) || typeof value['type'] !== 'string') {
      note(
        item,
        'error',
        `not a simplified chunk (${isRecord(value) ? 'no string "type"' : kindOf(value)}); skipped`,
      )
      onChunks?.(position, out)
      continue
    }
    for (const key of Object.keys(value))
      if (!KNOWN_FIELDS[value['type']]?.has(key) && key !== 'type') skip(`${value['type']}.${key}`)
    switch (value['type']) {
      case 'text': {
        const content = typeof value['content'] === 'string' ? value['content'] : null
        if (content === null) {
          note(item, 'warning', `text has no string "content" (got ${kindOf(value['content'])}); skipped`)
          break
        }
        if (content === '') break
        if (text === null) {
          text = { index: next++, text: '' }
          out.push({ type: 'block-start', index: text.index, blockType: 'text' })
        }
        text.text += content
        out.push({ type: 'text-delta', index: text.index, text: content })
        break
      }
      case 'tool_call': {
        const index = next++
        const id = typeof value['id'] === 'string' ? value['id'] : ''
        const name = typeof value['name'] === 'string' ? value['name'] : ''
        const raw = value['arguments']
        const args = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw)
        if (typeof raw !== 'string' && raw !== undefined)
          note(
            item,
            'warning',
            'tool_call "arguments" is not a string (JSON text): serialised with JSON.stringify',
          )
        if (Number.isSafeInteger(value['index']))
          skip('tool_call.index (wire order; blocks are numbered by arrival)')
        out.push(
          { type: 'block-start', index, blockType: 'tool-call' },
          { type: 'tool-call-delta', index, id, ...(name !== '' ? { name } : {}), argumentsDelta: args },
          { type: 'block-end', index, block: { type: 'tool-call', id, name, arguments: args } },
        )
        break
      }
      case 'tool_result': {
        skip('tool_result (kept as notes)')
        const isError = value['isError'] === true
        const result = JSON.stringify(value['result']) ?? 'undefined'
        note(
          item,
          'info',
          `tool_result for ${String(value['toolCallId'] ?? '?')}${isError ? ' (isError)' : ''}: ${preview(result)} — no StreamChunk carries tool results (they belong to the next request); kept as this note`,
        )
        break
      }
      case 'error': {
        skip('error (kept as notes)')
        const error = value['error']
        const message =
          typeof error === 'string'
            ? error
            : isRecord(error) && typeof error['message'] === 'string'
              ? error['message']
              : 'error'
        const code = isRecord(error) && typeof error['code'] === 'string' ? error['code'] : 'UNKNOWN'
        const retryAfter = value['retryAfter']
        lastError = {
          message,
          code,
          ...(typeof retryAfter === 'number' ? { providerRetryAfterMs: retryAfter } : {}),
        }
        const recoverable = value['recoverable'] === true
        note(
          item,
          'info',
          `error ${JSON.stringify(message)} (${recoverable ? 'recoverable' : 'not recoverable'}${typeof retryAfter === 'number' ? `, retry after ${retryAfter} ms` : ''}) — not a StreamChunk: a failure ends a stream with finish error; kept as this note${recoverable ? '' : ' and used by the done that follows'}`,
        )
        break
      }
      case 'done': {
        if (text !== null) {
          out.push({ type: 'block-end', index: text.index, block: { type: 'text', text: text.text } })
          text = null
        }
        const usage = value['usage']
        if (isRecord(usage)) {
          out.push({ type: 'usage', usage: mapUsage(usage) })
          if (usage['totalTokens'] !== undefined) skip('done.usage.totalTokens')
        }
        out.push({ type: 'finish', reason: mapDone(value['reason'], lastError) })
        break
      }
      default:
        note(
          item,
          'warning',
          `type ${JSON.stringify(value['type'])} is not one of the simplified stream's five; skipped`,
        )
    }
    for (const chunk of out) chunks.push(chunk)
    onChunks?.(position, out)
  }
  if (chunks.length > 0 && chunks.at(-1)?.type !== 'finish') {
    diagnostics.push({
      severity: 'warning',
      message: 'no done chunk at the end: the stream has no finish (incomplete)',
    })
  }
  if (unmapped.size > 0) {
    const list = [...unmapped].map(([field, count]) => (count > 1 ? `${field} ×${count}` : field)).join(', ')
    diagnostics.push({ severity: 'info', message: `not mapped onto StreamChunks: ${list}` })
  }
  return { chunks, diagnostics }
}

const KNOWN_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: new Set(['content']),
  tool_call: new Set(['id', 'name', 'arguments', 'index']),
  tool_result: new Set(['id', 'toolCallId', 'result', 'isError']),
  error: new Set(['error', 'recoverable', 'retryAfter']),
  done: new Set(['reason', 'usage']),
}

function mapUsage(usage: Record<string, unknown>): TokenUsage {
  const n = (v: unknown) => (typeof v === 'number' ? v : 0)
  return { inputTokens: n(usage['promptTokens']), outputTokens: n(usage['completionTokens']) }
}

function mapDone(reason: unknown, lastError: LlmFailure | null): FinishReason {
  switch (reason) {
    case 'stop':
    case undefined:
      return { kind: 'stop' }
    case 'tool_use':
      return { kind: 'tool-calls' }
    case 'length':
      return { kind: 'max-tokens' }
    case 'cancel':
      return { kind: 'aborted', failure: { message: 'cancelled', code: 'ABORTED' } }
    case 'error':
      return {
        kind: 'error',
        failure: lastError ?? { message: 'stream ended with reason error', code: 'UNKNOWN' },
      }
    default: {
      const r = String(reason)
      return { kind: 'error', failure: { message: `stream ended: ${r}`, code: r.toUpperCase() } }
    }
  }
}

function preview(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** A simplified stream as NDJSON (one object per line) or a JSON array: one stream; NDJSON keeps the line pairing. */
export function readSimplifiedSource(text: string): { diagnostics: Diagnostic[]; sessions: Session[] } {
  const diagnostics: Diagnostic[] = []
  let result: SimplifiedResult
  let wire: Attempt['wire']
  const first = text.search(/\S/)
  if (text[first] === '[') {
    // One document: a deep item is dropped by itself below instead of refusing the whole array.
    const parsed = parseJson(text, Infinity)
    if (!parsed.ok || !Array.isArray(parsed.value)) {
      const why = parsed.ok ? `not an array (${kindOf(parsed.value)})` : parsed.reason
      return {
        diagnostics: [{ severity: 'error', message: `malformed JSON: ${why}; no chunks read` }],
        sessions: [],
      }
    }
    const items: SimplifiedItem[] = []
    parsed.value.forEach((value: unknown, k) => {
      if (!valueNestsDeeperThan(value, MAX_JSON_DEPTH - 1)) items.push({ value, where: `item ${k}` })
      else diagnostics.push({ severity: 'error', message: `item ${k}: ${tooDeep()}; skipped` })
    })
    result = translateSimplified(items)
  } else {
    const trace = new WireTraceBuilder('simplified-stream', text)
    const items: SimplifiedItem[] = []
    const offsets: [number, number, number][] = []
    let offset = text.charCodeAt(0) === 0xfeff ? 1 : 0
    for (const line of lines(text)) {
      const start = offset
      offset = line.terminated ? text.indexOf('\n', start + line.text.length) + 1 : text.length
      if (isBlank(line.text)) continue
      const parsed = parseJson(line.text)
      if (!parsed.ok) {
        diagnostics.push({
          line: line.number,
          severity: 'error',
          message: `line ${line.number}: malformed JSON: ${parsed.reason}${line.terminated ? '' : ' (the last line is cut short)'}; line skipped`,
        })
        continue
      }
      items.push({ value: parsed.value, line: line.number, where: `line ${line.number}` })
      offsets.push([start, start + line.text.length, line.number])
    }
    result = translateSimplified(items, (k, chunks) => {
      const [start, end, line] = offsets[k]!
      trace.event(start, end, line)
      trace.emit(chunks)
    })
    wire = trace.build()
  }
  diagnostics.push(...result.diagnostics)
  if (result.chunks.length === 0) {
    diagnostics.push({ severity: 'error', message: 'no simplified chunk mapped onto a StreamChunk' })
    return { diagnostics, sessions: [] }
  }
  const attempt = bareStream(
    'stream',
    result.chunks.map((chunk, seq) => ({ seq, time: null, chunk })),
    wire,
  )
  return {
    diagnostics,
    sessions: [streamsSession([attempt])],
  }
}

/**
 * The simplified stream: a JSON array whose first item, or NDJSON whose first lines, have one of the five types
 * and no StreamChunk ever does (`text`, `tool_call`, … are not StreamChunk types).
 */
export function sniffSimplified(text: string): boolean {
  const first = text.search(/\S/)
  if (first === -1) return false
  if (text[first] === '[') {
    const object = firstObject(text, first + 1)
    return object !== null && isRecord(object) && SIMPLIFIED_TYPES.has(object['type'] as string)
  }
  if (text[first] !== '{') return false
  let simplified = 0
  for (const object of peekObjects(text, 20)) {
    const type = object?.['type']
    if (typeof type !== 'string') continue
    if (!SIMPLIFIED_TYPES.has(type)) return false
    simplified += 1
  }
  return simplified > 0
}

/** The first JSON object after `from` (up to 64 KiB), parsed; null when there is none or it does not parse. */
function firstObject(text: string, from: number): unknown {
  const open = text.indexOf('{', from)
  if (open === -1 || !isBlank(text, from, open)) return null
  let depth = 0
  let inString = false
  const limit = Math.min(text.length, open + 65536)
  for (let i = open; i < limit; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i += 1
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123) depth += 1
    else if (c === 125 && --depth === 0) {
      const parsed = parseJson(text.slice(open, i + 1))
      return parsed.ok ? parsed.value : null
    }
  }
  return null
}
