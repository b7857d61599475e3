// The wire of a live capture (proxy or page), told from the response, and an incremental reader for it that uses the
// same translators and dialects as the file readers (docs/protocol.md §9, "Live capture: which wire").
import type { StreamChunk } from '../../core/protocol'
import { createAiSdkDialect } from '../aisdk/aiSdkParts'
import { createCohereDialect } from '../cohere/cohere'
import { createCompletionsDialect } from '../completions/completions'
import { createInteractionsDialect } from '../interactions/interactions'
import { createOllamaDialect, sniffOllama } from '../ollama/ollama'
import { createTranslator, type SseDialect } from '../sse/readSse'
import { sniffSseDialect } from '../sse/sniff'
import { SseParser } from '../sse/sseEvents'
import type { DeepSeekTranslatorOptions } from '../sse/openai'
import type { WireDialect } from '../wire/readWire'
import { sniffCompletions, sniffInteractions } from '../wire/peekSse'
import { sniffAiSdkUi, sniffCohere, type WireFormatId } from '../wire/wireFormats'

export type LiveWireFormat = SseDialect | WireFormatId

/** What the response says of itself before its body: its `content-type` and the request's path (with query). */
export type WireHint = { readonly contentType?: string; readonly path?: string }

/** How much body text is held back, at most, before the wire is decided from what came. */
const DECIDE_CHARS = 1 << 16

/** An incremental reader of one response body: text in, chunks out; `end()` once the body ended. */
export type LiveWire = {
  readonly format: LiveWireFormat
  feed(text: string): StreamChunk[]
  end(): StreamChunk[]
  readonly finished: boolean
}

/** Lines after which a body nothing else claimed is taken for Chat Completions (the file sniffers peek at 30). */
const DECIDE_LINES = 40

/**
 * The wire, once enough of the body came to tell it; null while more is needed. A wire the first whole lines name
 * is taken at once, and so is Chat Completions once a data line carries a `delta`; a body that says no more than
 * "SSE" (the first events of a body whose telling event comes later, as Azure's choice-less prompt-filter chunk
 * comes before a Completions body's first text) waits for {@link DECIDE_LINES} lines, {@link DECIDE_CHARS}
 * characters or the body's end (`ended`).
 */
export function decideLiveWire(text: string, hint: WireHint = {}, ended = false): LiveWireFormat | null {
  // Whole lines only: a line cut short can look like another wire's (a Responses `error` event's first bytes are
  // Anthropic's shape until its `sequence_number`).
  const whole = ended || text.length >= DECIDE_CHARS ? text : text.slice(0, text.lastIndexOf('\n') + 1)
  if (whole === '' && !ended) return null
  const format = detectLiveWire(whole, hint)
  if (ended || format !== 'openai-sse' || text.length >= DECIDE_CHARS) return format
  // A chat chunk's `delta` settles it (a legacy Completions chunk has `text`, no `delta`).
  if (/^data:.*"delta"\s*:/m.test(whole)) return format
  let lines = 0
  for (let i = text.indexOf('\n'); i !== -1 && lines < DECIDE_LINES; i = text.indexOf('\n', i + 1)) lines += 1
  return lines >= DECIDE_LINES ? format : null
}

/**
 * The wire of a body, from its first text (as the file readers detect it, the wires without a harness route
 * before the SSE dialects) and, when that says no more than "an SSE body", an NDJSON content type or the request's path: `/v1/responses`,
 * `/v1/messages`, `:streamGenerateContent`, `/api/chat` and `/api/generate`, `/v2/chat`, `/interactions`, a
 * `/completions` that is not `/chat/completions`. Chat Completions (the harness's DeepSeek route) otherwise.
 */
export function detectLiveWire(text: string, hint: WireHint = {}): LiveWireFormat {
  if (sniffOllama(text)) return 'ollama-ndjson'
  if (sniffCohere(text)) return 'cohere-sse'
  if (sniffAiSdkUi(text)) return 'ai-sdk-ui-sse'
  if (sniffCompletions(text)) return 'openai-completions-sse'
  if (sniffInteractions(text)) return 'gemini-interactions-sse'
  const dialect = text.trim() === '' ? null : sniffSseDialect(text)
  if (dialect !== null && dialect !== 'openai-sse') return dialect
  if (/ndjson/.test(hint.contentType ?? '')) return 'ollama-ndjson'
  const path = (hint.path ?? '').split('?')[0]!
  if (/\/responses\/?$/.test(path)) return 'openai-responses-sse'
  if (/\/messages\/?$/.test(path)) return 'anthropic-sse'
  if (path.endsWith(':streamGenerateContent')) return 'gemini-sse'
  if (/\/api\/(chat|generate)\/?$/.test(path)) return 'ollama-ndjson'
  if (/\/v2\/chat\/?$/.test(path)) return 'cohere-sse'
  if (/\/interactions\/?$/.test(path)) return 'gemini-interactions-sse'
  if (/\/completions\/?$/.test(path) && !/\/chat\/completions\/?$/.test(path)) return 'openai-completions-sse'
  return 'openai-sse'
}

/** The dialects the harness reads through pi-ai: the body's end, not an end marker, ends the stream (§9). */
const PI_AI: ReadonlySet<LiveWireFormat> = new Set(['anthropic-sse', 'openai-responses-sse', 'gemini-sse'])

/** A reader for `format`, fed the body as it arrives. */
export function createLiveWire(format: LiveWireFormat, options: DeepSeekTranslatorOptions = {}): LiveWire {
  switch (format) {
    case 'openai-sse':
    case 'anthropic-sse':
    case 'openai-responses-sse':
    case 'gemini-sse':
      return translatorWire(format, options)
    case 'ollama-ndjson':
      return ndjsonWire(format, createOllamaDialect())
    case 'cohere-sse':
      return dialectWire(format, createCohereDialect())
    case 'ai-sdk-ui-sse':
      return dialectWire(format, createAiSdkDialect())
    case 'openai-completions-sse':
      return dialectWire(format, createCompletionsDialect())
    case 'gemini-interactions-sse':
      return dialectWire(format, createInteractionsDialect())
    default:
      // The registry's other wire formats (the devtools store) are files, never a response body.
      return translatorWire('openai-sse', options)
  }
}

function translatorWire(dialect: SseDialect, options: DeepSeekTranslatorOptions): LiveWire {
  const parser = new SseParser()
  const translator = createTranslator(dialect, options)
  const read = (events: ReturnType<SseParser['feed']>) => {
    const out: StreamChunk[] = []
    for (const event of events) {
      if (translator.finished) break
      out.push(...translator.push(event.data, event.event))
    }
    translator.takeNotes()
    return out
  }
  return {
    format: dialect,
    feed: (text) => (translator.finished ? [] : read(parser.feed(text))),
    end() {
      const out = read(parser.end())
      // The DeepSeek route fails a body without [DONE] (STREAM_CLOSED); pi-ai ends the stream at the body's end.
      if (!translator.finished) out.push(...translator.end(PI_AI.has(dialect) ? 'done' : 'eof'))
      translator.takeNotes()
      return out
    },
    get finished() {
      return translator.finished
    },
  }
}

/** One event's data through a dialect as the file reader hands it over (readWire.ts): a marker as is, else JSON. */
function pushData(dialect: WireDialect, data: string, event: string): StreamChunk[] {
  if (dialect.markers?.has(data)) return dialect.push(data, event)
  let value: unknown
  try {
    value = JSON.parse(data)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (dialect.skipsBadLines !== undefined) return []
    return dialect.malformed(`live capture: ${reason}`, data)
  }
  return dialect.push(value, event)
}

function dialectWire(format: LiveWireFormat, dialect: WireDialect): LiveWire {
  const parser = new SseParser()
  const read = (events: ReturnType<SseParser['feed']>) => {
    const out: StreamChunk[] = []
    for (const event of events) {
      if (dialect.finished) break
      out.push(...pushData(dialect, event.data, event.event))
    }
    dialect.takeNotes()
    return out
  }
  return {
    format,
    feed: (text) => (dialect.finished ? [] : read(parser.feed(text))),
    end() {
      const out = read(parser.end())
      if (!dialect.finished) out.push(...dialect.end())
      dialect.takeNotes()
      return out
    },
    get finished() {
      return dialect.finished
    },
  }
}

function ndjsonWire(format: LiveWireFormat, dialect: WireDialect): LiveWire {
  let pending = ''
  const line = (text: string): StreamChunk[] => {
    const data = text.replace(/\r$/, '')
    if (data.trim() === '' || dialect.finished) return []
    return pushData(dialect, data, '')
  }
  return {
    format,
    feed(text) {
      pending += text
      const out: StreamChunk[] = []
      let newline = pending.indexOf('\n')
      while (newline !== -1) {
        out.push(...line(pending.slice(0, newline)))
        pending = pending.slice(newline + 1)
        newline = pending.indexOf('\n')
      }
      dialect.takeNotes()
      return out
    },
    end() {
      // A last line without a line break is read when it parses, as the file reader reads it.
      const out: StreamChunk[] = []
      if (pending.trim() !== '') {
        try {
          JSON.parse(pending)
          out.push(...line(pending))
        } catch {
          // torn: the dialect's end says the body ended early
        }
      }
      pending = ''
      if (!dialect.finished) out.push(...dialect.end())
      dialect.takeNotes()
      return out
    },
    get finished() {
      return dialect.finished
    },
  }
}
