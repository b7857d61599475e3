import type { Session } from '../../core/session'
import { createAiSdkDialect, UI_PART_TYPES } from '../aisdk/aiSdkParts'
import { readDevtools, sniffDevtools } from '../aisdk/devtools'
import { createCohereDialect } from '../cohere/cohere'
import { createOllamaDialect, sniffOllama } from '../ollama/ollama'
import type { SseRead } from '../sse/readSse'
import { readHttpHead } from '../sse/sseEvents'
import type { Diagnostic } from '../types'
import { readNdjsonWire, readSseWire, wireSource, type WireOptions } from './readWire'
import { COHERE_EVENTS } from '../cohere/cohereEvents'
import { createCompletionsDialect } from '../completions/completions'
import { createInteractionsDialect } from '../interactions/interactions'
import { compactConcatenated, firstConcatenated } from './concatenatedJson'
import { sniffCompletions, sniffInteractions } from './peekSse'

/** The wires without a harness route that Chunkscope reads by the route's principles (docs/protocol.md §9, "Wires without a harness route"). */
export type WireFormatId =
  | 'ollama-ndjson'
  | 'ollama-json-stream'
  | 'cohere-sse'
  | 'ai-sdk-ui-sse'
  | 'openai-completions-sse'
  | 'gemini-interactions-sse'

const PEEK_LINES = 30
const PEEK_CHARS = 1 << 16

/**
 * The first event names and data `type`s of an SSE body (after an optional HTTP head), in order; null when a line
 * that is no SSE field comes first. Looks at the first lines only.
 */
function sseTypes(text: string): { types: string[]; headers: Record<string, string> } | null {
  const head = readHttpHead(text.slice(0, PEEK_CHARS))
  let pos = head?.bodyStart ?? (text.charCodeAt(0) === 0xfeff ? 1 : 0)
  const types: string[] = []
  let seen = 0
  while (pos < text.length && seen < PEEK_LINES && pos < PEEK_CHARS) {
    const newline = text.indexOf('\n', pos)
    const end = newline === -1 ? text.length : newline
    const line = text.slice(pos, Math.min(end, pos + 4096)).replace(/\r$/, '')
    pos = end + 1
    if (line.trim() === '' || line.startsWith(':')) continue
    seen += 1
    if (line.startsWith('event:')) types.push(line.slice(6).trim())
    else if (line.startsWith('data:')) {
      const type = /^data:\s*\{\s*"type"\s*:\s*"([^"]*)"/.exec(line)?.[1]
      if (type !== undefined) types.push(type)
    } else if (!/^(id|retry):/.test(line)) return null
  }
  return { types, headers: head?.headers ?? {} }
}

/** A Cohere v2 chat stream: its first typed event is one of the chat stream's events (hyphenated, `message-start`…). */
export function sniffCohere(text: string): boolean {
  const first = sseTypes(text)?.types[0]
  return first !== undefined && COHERE_EVENTS.has(first)
}

/**
 * The AI SDK's UI message stream: the response header `x-vercel-ai-ui-message-stream: v1`, or data parts whose
 * first type is a UI part type (an `error` part alone is not enough: Anthropic's error event is `type: error` too).
 */
export function sniffAiSdkUi(text: string): boolean {
  const peek = sseTypes(text)
  if (peek === null) return false
  if (peek.headers['x-vercel-ai-ui-message-stream'] !== undefined) return true
  const first = peek.types.find((type) => type !== 'error')
  return first !== undefined && (UI_PART_TYPES.has(first) || first.startsWith('data-'))
}

export function readOllama(text: string, options?: WireOptions): SseRead {
  return readNdjsonWire(text, 'ollama-ndjson', createOllamaDialect(), options)
}
/**
 * Ollama's stream as `jq` (or any pretty-printer) shows it: the same objects, each spread over lines. Its first object
 * has Ollama's `model`, `created_at` and `done`; a true NDJSON body is `ollama-ndjson`.
 */
export function sniffOllamaJsonStream(text: string): boolean {
  if (sniffOllama(text)) return false
  const first = firstConcatenated(text.slice(0, PEEK_CHARS))
  return (
    first !== null &&
    typeof first['model'] === 'string' &&
    typeof first['created_at'] === 'string' &&
    typeof first['done'] === 'boolean'
  )
}

/** Read as the NDJSON it was printed from: each object compacted onto its line (docs/protocol.md §9, "Ollama"). */
export function readOllamaJsonStream(text: string, options?: WireOptions): SseRead {
  const { ndjson, objects } = compactConcatenated(text)
  const read = readOllama(ndjson, options)
  const note = {
    severity: 'info' as const,
    message: `${objects} pretty-printed JSON objects (as jq prints a stream), read as the NDJSON they were printed from, one object a line; line numbers count that compact form`,
  }
  return { ...read, diagnostics: [note, ...read.diagnostics] }
}

export function readCohere(text: string, options?: WireOptions): SseRead {
  return readSseWire(text, 'cohere-sse', createCohereDialect(), options)
}
export function readAiSdkUi(text: string, options?: WireOptions): SseRead {
  return readSseWire(text, 'ai-sdk-ui-sse', createAiSdkDialect(), options)
}
export function readCompletions(text: string, options?: WireOptions): SseRead {
  return readSseWire(text, 'openai-completions-sse', createCompletionsDialect(), options)
}
export function readInteractions(text: string, options?: WireOptions): SseRead {
  return readSseWire(text, 'gemini-interactions-sse', createInteractionsDialect(), options)
}

/**
 * A body in one of these wires (a HAR entry's response), read; null when it is none of them. Tried before the SSE
 * dialects: a UI message stream or a Cohere body is `data:` lines too.
 */
export function readWireBody(
  body: string,
  options: WireOptions,
): { format: WireFormatId; read: SseRead } | null {
  if (sniffOllama(body)) return { format: 'ollama-ndjson', read: readOllama(body, options) }
  if (sniffOllamaJsonStream(body))
    return { format: 'ollama-json-stream', read: readOllamaJsonStream(body, options) }
  if (sniffCohere(body)) return { format: 'cohere-sse', read: readCohere(body, options) }
  if (sniffAiSdkUi(body)) return { format: 'ai-sdk-ui-sse', read: readAiSdkUi(body, options) }
  if (sniffCompletions(body))
    return { format: 'openai-completions-sse', read: readCompletions(body, options) }
  if (sniffInteractions(body))
    return { format: 'gemini-interactions-sse', read: readInteractions(body, options) }
  return null
}

const source =
  (read: (text: string) => SseRead) =>
  (text: string): { diagnostics: Diagnostic[]; sessions: Session[] } =>
    wireSource(read(text))

/** Registry entries (registry.ts spreads them in before the SSE dialects). */
export const WIRE_FORMATS = [
  {
    id: 'ollama-ndjson',
    label: 'Ollama NDJSON',
    description: 'an Ollama /api/chat or /api/generate NDJSON stream',
    input: 'text',
    sniff: sniffOllama,
    read: source(readOllama),
  },
  {
    id: 'ollama-json-stream',
    label: 'Ollama stream (pretty-printed)',
    description: 'an Ollama stream printed one object over several lines (jq)',
    input: 'text',
    sniff: sniffOllamaJsonStream,
    read: source(readOllamaJsonStream),
  },
  {
    id: 'cohere-sse',
    label: 'Cohere v2 SSE',
    description: 'a Cohere v2 chat SSE stream',
    input: 'text',
    sniff: sniffCohere,
    read: source(readCohere),
  },
  {
    id: 'ai-sdk-ui-sse',
    label: 'AI SDK UI stream',
    description: "the Vercel AI SDK's UI message stream (SSE)",
    input: 'text',
    sniff: sniffAiSdkUi,
    read: source(readAiSdkUi),
  },
  {
    id: 'openai-completions-sse',
    label: 'OpenAI Completions SSE (legacy)',
    description: 'a legacy OpenAI Completions (/v1/completions) SSE body',
    input: 'text',
    sniff: sniffCompletions,
    read: source(readCompletions),
  },
  {
    id: 'gemini-interactions-sse',
    label: 'Gemini Interactions SSE',
    description: 'a Gemini Interactions API SSE body',
    input: 'text',
    sniff: sniffInteractions,
    read: source(readInteractions),
  },
  {
    id: 'ai-sdk-devtools',
    label: 'AI SDK devtools store',
    description: "@ai-sdk/devtools' stored generations (.devtools/generations.json)",
    input: 'text',
    sniff: sniffDevtools,
    read: readDevtools,
  },
] as const
