import type { ContentBlock } from '../../core/protocol'
import type { Attempt, RecordedMessage, Session } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'
import { parseJson } from '../json'
import type { Diagnostic, LoadedSource, ReadResult } from '../types'

const KEY = 'gen_ai.output.messages'
/** How deep the search for the attribute goes (an OTLP export nests it 6 levels down; a Langfuse export less). */
const MAX_WALK_DEPTH = 24

/** One reference final found in a trace export: the assistant message a span recorded. */
export type TraceReference = {
  readonly content: readonly ContentBlock[]
  /** The message as the export holds it (one entry of `gen_ai.output.messages`). */
  readonly message: unknown
  /** 1-based line of the export it was on (1 for a single JSON document). */
  readonly line: number
  /** "span chat qwen3:8b (eee19b7ec3c1b174)", for the recorded-message verdict. */
  readonly where: string
}

export type TraceRead = { readonly references: TraceReference[]; readonly diagnostics: Diagnostic[] }

/**
 * An observability export that holds OpenTelemetry GenAI `gen_ai.output.messages`: OTLP/JSON (one
 * `ExportTraceServiceRequest` per line, or one document), or a Langfuse / Phoenix export whose spans keep the
 * attributes as an object. Recognised from the first 64 KiB: a JSON object or array that names the attribute.
 */
export function sniffTraceExport(text: string): boolean {
  const head = text.slice(0, 1 << 16)
  const first = head.trimStart()[0]
  return (first === '{' || first === '[') && head.includes(KEY)
}

/**
 * Every reference final in a trace export (docs/protocol.md §9, "A reference final"), in the order of the export.
 * Each `gen_ai.output.messages` value (a JSON string, or the array itself) gives its first assistant message; its
 * parts become blocks: `text` → text, `reasoning` → reasoning, `tool_call` → a tool call whose arguments are the
 * sent object serialised (`JSON.stringify`, as the harness's route closes a tool call); other parts are named and
 * dropped.
 */
export function readTraceReferences(text: string): TraceRead {
  const references: TraceReference[] = []
  const diagnostics: Diagnostic[] = []
  const documents: { value: unknown; line: number }[] = []
  const whole = parseJson(text)
  if (whole.ok) documents.push({ value: whole.value, line: 1 })
  else {
    let line = 0
    for (const row of text.split('\n')) {
      line += 1
      if (row.trim() === '') continue
      const parsed = parseJson(row)
      if (parsed.ok) documents.push({ value: parsed.value, line })
      else
        diagnostics.push({
          line,
          severity: 'warning',
          message: `line ${line}: not JSON (${parsed.reason}): skipped`,
        })
    }
  }
  const dropped = new Map<string, number>()
  for (const { value, line } of documents)
    walk(value, 0, 'the export', (raw, where) => {
      const messages = typeof raw === 'string' ? parseJson(raw) : { ok: true as const, value: raw }
      if (!messages.ok || !Array.isArray(messages.value)) {
        diagnostics.push({
          line,
          severity: 'warning',
          message: `line ${line}: ${KEY} of ${where} is no JSON array: skipped`,
        })
        return
      }
      const assistant = messages.value.find((m) => isRecord(m) && (m['role'] ?? 'assistant') === 'assistant')
      if (!isRecord(assistant)) return
      references.push({ content: toBlocks(assistant, dropped), message: assistant, line, where })
    })
  if (dropped.size > 0)
    diagnostics.push({
      severity: 'info',
      message: `message parts no block carries, not compared: ${[...dropped].map(([t, n]) => `${t} ×${n}`).join(', ')}`,
    })
  if (references.length === 0)
    diagnostics.push({ severity: 'error', message: `no ${KEY} with an assistant message in the export` })
  return { references, diagnostics }
}

/** Calls `found` for each value of the attribute, with the span it was found in. */
function walk(
  value: unknown,
  depth: number,
  where: string,
  found: (raw: unknown, where: string) => void,
): void {
  if (depth > MAX_WALK_DEPTH) return
  if (Array.isArray(value)) {
    for (const item of value) {
      // OTLP's attribute list: [{key, value: {stringValue}}].
      if (isRecord(item) && item['key'] === KEY && isRecord(item['value']))
        found(plain(item['value'], 0), where)
      else walk(item, depth + 1, where, found)
    }
    return
  }
  if (!isRecord(value)) return
  const name = value['name']
  const id = value['spanId'] ?? value['span_id'] ?? value['id']
  const here = typeof name === 'string' ? `span ${name}${typeof id === 'string' ? ` (${id})` : ''}` : where
  for (const key in value) {
    if (key === KEY) found(value[key], here)
    else walk(value[key], depth + 1, here, found)
  }
}

/**
 * An OTLP `AnyValue` as the JSON it stands for: a structured attribute (the GenAI conventions' preferred form where
 * the SDK supports it) arrives as `arrayValue.values` of `kvlistValue.values` `[{key, value}]`, scalars as
 * `stringValue`, `intValue` (a decimal string in OTLP/JSON), `doubleValue`, `boolValue`. Anything else is kept.
 */
function plain(value: unknown, depth: number): unknown {
  if (!isRecord(value) || depth > MAX_WALK_DEPTH) return value
  if ('stringValue' in value) return value['stringValue']
  if ('intValue' in value) return Number(value['intValue'])
  if ('doubleValue' in value) return value['doubleValue']
  if ('boolValue' in value) return value['boolValue']
  const array = value['arrayValue']
  if (isRecord(array))
    return (Array.isArray(array['values']) ? array['values'] : []).map((v) => plain(v, depth + 1))
  const list = value['kvlistValue']
  if (isRecord(list)) {
    const entries = Array.isArray(list['values']) ? list['values'] : []
    return Object.fromEntries(
      entries.filter(isRecord).map((e) => [String(e['key']), plain(e['value'], depth + 1)] as const),
    )
  }
  return value
}

function toBlocks(message: Record<string, unknown>, dropped: Map<string, number>): ContentBlock[] {
  // Instrumentations written before the conventions had `parts` record the message as `{role, content}`.
  if (!Array.isArray(message['parts']) && typeof message['content'] === 'string')
    return [{ type: 'text', text: message['content'] }]
  const parts = Array.isArray(message['parts']) ? message['parts'] : []
  const blocks: ContentBlock[] = []
  for (const part of parts) {
    if (!isRecord(part)) continue
    const type = part['type']
    const content = typeof part['content'] === 'string' ? part['content'] : ''
    if (type === 'text') blocks.push({ type: 'text', text: content })
    else if (type === 'reasoning' || type === 'thinking') blocks.push({ type: 'reasoning', text: content })
    else if (type === 'tool_call') {
      const args = part['arguments']
      blocks.push({
        type: 'tool-call',
        id: typeof part['id'] === 'string' ? part['id'] : '',
        name: typeof part['name'] === 'string' ? part['name'] : '',
        arguments: typeof args === 'string' ? reserialise(args) : JSON.stringify(args ?? {}),
      })
    } else dropped.set(String(type), (dropped.get(String(type)) ?? 0) + 1)
  }
  return blocks
}

/** Argument text as the route closes it: parsed and serialised again (text that is no JSON stays as sent). */
function reserialise(args: string): string {
  const parsed = parseJson(args)
  return parsed.ok ? JSON.stringify(parsed.value) : args
}

/**
 * Makes each reference the recorded message of a stream that has none, in order (the first reference for the first
 * such stream, …), so the comparison and `recorded-mismatch` a harness log gets apply to it (docs/protocol.md §6).
 * Returns what was paired, and a warning when the counts differ.
 */
export function attachReferences(
  sessions: readonly Session[],
  references: readonly TraceReference[],
  file: string,
): Diagnostic[] {
  const streams: Attempt[] = sessions.flatMap((s) => s.streams).filter((a) => a.recorded === null)
  const pairs = Math.min(streams.length, references.length)
  for (let i = 0; i < pairs; i++) {
    const stream = streams[i]!
    const reference = references[i]!
    const recorded: RecordedMessage = {
      seq: stream.chunks.at(-1)?.seq ?? 0,
      line: reference.line,
      turn: stream.turn,
      step: stream.step,
      interrupted: false,
      content: reference.content,
      message: reference.message,
      shape: 'current',
      sourceEventSeqs: [],
      provenance: 'unknown',
      attemptId: stream.id,
      citation: { missing: [], foreign: [], uncited: [] },
      source: `${file} line ${reference.line}, ${reference.where}`,
    }
    stream.recorded = recorded
  }
  const diagnostics: Diagnostic[] = [
    {
      severity: 'info',
      message: `${file}: ${pairs} reference final${pairs === 1 ? '' : 's'} (gen_ai.output.messages) paired with the stream${pairs === 1 ? '' : 's'} in order`,
    },
  ]
  if (references.length !== streams.length)
    diagnostics.push({
      severity: 'warning',
      message: `${file}: ${references.length} reference final${references.length === 1 ? '' : 's'} for ${streams.length} stream${streams.length === 1 ? '' : 's'} without a recorded message: ${Math.abs(references.length - streams.length)} left unpaired`,
    })
  return diagnostics
}

/**
 * A trace export read on its own: no stream, its references kept for the stream they belong to, and one error
 * saying how to pair them (the app attaches them to the open source; the CLI takes `--recorded FILE`).
 */
export function readTraceExport(text: string): ReadResult {
  const read = readTraceReferences(text)
  if (read.references.length === 0) return { sessions: [], diagnostics: read.diagnostics }
  const n = read.references.length
  return {
    sessions: [],
    references: read.references,
    diagnostics: [
      {
        severity: 'error',
        message: `a trace export holding ${n} reference final${n === 1 ? '' : 's'} (gen_ai.output.messages) and no stream: open the stream first and drop this file onto it (or drop both together); on the command line, chunkscope inspect STREAM --recorded FILE`,
      },
      ...read.diagnostics,
    ],
  }
}

/**
 * `source` with the references of `trace` as its streams' recorded messages: new session and attempt objects (so
 * per-attempt results are computed afresh), the trace's own notes and the pairing added to the diagnostics.
 */
export function withReferences(source: LoadedSource, trace: LoadedSource): LoadedSource {
  const sessions = source.sessions.map((session) => {
    const streams = session.streams.map((attempt) => ({ ...attempt }))
    const copy = new Map(session.streams.map((attempt, i) => [attempt, streams[i]!]))
    const turns = session.turns.map((turn) => ({
      ...turn,
      steps: turn.steps.map((step) => ({ ...step, attempts: step.attempts.map((a) => copy.get(a) ?? a) })),
    }))
    return { ...session, streams, turns }
  })
  const paired = attachReferences(sessions, trace.references ?? [], trace.name ?? 'the trace export')
  const notes = trace.diagnostics.filter((d) => d.severity !== 'error')
  return { ...source, sessions, diagnostics: [...source.diagnostics, ...notes, ...paired] }
}
