import type { StreamChunk } from '../../core/protocol'
import { bareStream, streamsSession, type Attempt, type Session, type WireTrace } from '../../core/session'
import type { Diagnostic } from '../types'
import { WireTraceBuilder } from '../wire'
import { createAnthropicTranslator } from './anthropic'
import { httpFailure } from './httpFailure'
import { httpErrorRoute, routeName } from './httpRoute'
import { createDeepSeekTranslator, type DeepSeekTranslatorOptions } from './openai'
import { piAiHttpFinish } from './piAiFailure'
import { scanPiAiSse } from './piAiSse'
import { createGeminiTranslator } from './gemini'
import { scanGeminiJsonArray } from './geminiJsonArray'
import { geminiHttpFinish } from './geminiHttp'
import { scanGeminiSse } from './geminiSse'
import { createResponsesTranslator } from './responses'
import { responsesHttpFinish } from './responsesHttp'
import { scanSdkSse } from './sdkSse'
import { readHttpHead, scanSse, type HttpHead, type SseEvent } from './sseEvents'
import type { TranslatorNote, WireTranslator } from './translator'

export type SseDialect = 'openai-sse' | 'anthropic-sse' | 'openai-responses-sse' | 'gemini-sse'

/** What only a Chat Completions event carries (docs/protocol.md §9): its `choices`, its object name, `[DONE]`. */
const CHAT_COMPLETIONS = /"choices"\s*:|"chat\.completion\.chunk"|^\[DONE\]$/

/** The dialects the harness reads through its pi-ai route: the body's end, not an end marker, ends the stream. */
const PI_AI_DIALECTS: ReadonlySet<SseDialect> = new Set([
  'anthropic-sse',
  'openai-responses-sse',
  'gemini-sse',
])

/**
 * The largest single event a file may hold. One event becomes a delta and a block whose whole text the page lays
 * out at once; a 50 MB event took a tab past 6 GB. Real events are kilobytes; a body with a bigger one is refused
 * with this limit named, before anything is translated.
 */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024

/** What reading one SSE body gave: its stream (with the wire pairing) and what was noticed. */
export type SseRead = { readonly attempt: Attempt | null; readonly diagnostics: Diagnostic[] }

export type SseOptions = {
  /** The stream's id (`stream` for a file, `har3` for a HAR entry). */
  readonly id?: string
  readonly request?: WireTrace['request']
  /** Added to every line number (a body inside a bigger file). */
  readonly lineOffset?: number
  /**
   * `json-array`: a Gemini body streamed without `alt=sse`, one JSON array of the chunks the SSE form sends as
   * `data:` lines (docs/protocol.md §9.3, "Without alt=sse"); read by the same translator.
   */
  readonly framing?: 'json-array'
}

export function createTranslator(
  dialect: SseDialect,
  options: DeepSeekTranslatorOptions = {},
): WireTranslator {
  if (dialect === 'openai-sse') return createDeepSeekTranslator(options)
  if (dialect === 'gemini-sse') return createGeminiTranslator()
  return dialect === 'anthropic-sse' ? createAnthropicTranslator() : createResponsesTranslator()
}

/** The base URL the harness's TRANSPORT message names: the request URL without `/chat/completions`. */
function baseUrlOf(request: WireTrace['request'] | undefined): DeepSeekTranslatorOptions {
  return request === undefined ? {} : { baseURL: request.url.replace(/\/chat\/completions\/?(\?.*)?$/, '') }
}

/**
 * Translates a captured SSE body (optionally after an HTTP head, as `curl -i` prints it) into one stream, exactly
 * as the harness's adapter would have (docs/protocol.md §9), keeping which raw event became which chunks. An HTTP error
 * head (status ≥ 400) becomes the harness's failure (`httpFailure`) as the only chunk.
 */
export function readSseStream(text: string, dialect: SseDialect, options: SseOptions = {}): SseRead {
  const diagnostics: Diagnostic[] = []
  const offset = options.lineOffset ?? 0
  const head = readHttpHead(text)
  const trace = new WireTraceBuilder(dialect, text)
  const request = options.request
  const translator = createTranslator(dialect, baseUrlOf(request))
  const notes = new NoteCounter(offset)
  if (head !== null && (head.status < 200 || head.status >= 300)) {
    const body = text.slice(head.bodyStart)
    const chunks = httpFailureChunks(
      dialect,
      head.status,
      head.headers,
      body,
      baseUrlOf(request).baseURL,
      head.statusText,
    )
    const last = chunks.at(-1)
    const code = last?.type === 'finish' && last.reason.kind === 'error' ? last.reason.failure.code : '?'
    diagnostics.push({
      line: 1 + offset,
      severity: 'info',
      message: `line ${1 + offset}: HTTP ${head.status} response, ${routeSentence(dialect, head, body, request?.url)}: the harness raises ${code}, shown as the stream's finish${otherRoute(dialect, head, body, request?.url)}`,
    })
    trace.event(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'), 1)
    trace.emit(chunks)
    return {
      attempt: attempt(options.id, trace.chunks, trace.build(withStatus(request, head.status))),
      diagnostics,
    }
  }
  // Set by the event callback (a holder, so the check after the scan is not narrowed away).
  const tooBig = { line: 0, length: 0 }
  let dropped = 0
  // Each route frames as its library does: the DeepSeek adapter with eventsource-parser, pi-ai's Anthropic reader
  // with its own, pi-ai's Responses reader with the openai SDK's.
  const jsonArray = options.framing === 'json-array'
  const scanner = jsonArray
    ? scanGeminiJsonArray
    : dialect === 'anthropic-sse'
      ? scanPiAiSse
      : dialect === 'openai-responses-sse'
        ? scanSdkSse
        : dialect === 'gemini-sse'
          ? scanGeminiSse
          : scanSse
  let lastLine = head?.bodyLine ?? 1
  // Whether any event shows the Chat Completions wire itself, rather than only no other dialect's.
  let chatEvidence = false
  const scan = scanner(
    text,
    (event: SseEvent & { raw?: readonly string[] }) => {
      if (tooBig.length > 0) return
      if (event.data.length > MAX_EVENT_CHARS) {
        tooBig.line = event.line
        tooBig.length = event.data.length
        return
      }
      lastLine = event.line
      if (!chatEvidence && CHAT_COMPLETIONS.test(event.data)) chatEvidence = true
      trace.event(event.start, event.end, event.line)
      if (translator.finished) {
        notes.add(
          { key: 'after-finish', severity: 'warning', message: 'event after the end of the stream: ignored' },
          event.line,
        )
        return
      }
      const chunks = translator.push(event.data, event.event, event.raw)
      trace.emit(chunks)
      for (const note of translator.takeNotes()) notes.add(note, event.line)
      if (translator.finished) {
        const last = chunks.at(-1)
        if (last?.type === 'finish' && last.reason.kind === 'error') {
          const code = last.reason.failure.code
          if (code === 'MALFORMED_RESPONSE') {
            diagnostics.push({
              line: event.line + offset,
              severity: 'error',
              message: `line ${event.line + offset}: ${last.reason.failure.message}; the stream ends here (MALFORMED_RESPONSE)`,
            })
          }
        }
      }
    },
    head?.bodyStart ?? 0,
    head?.bodyLine ?? 1,
  )
  if (tooBig.length > 0) {
    const { line, length } = tooBig
    const message = `line ${line + offset}: one SSE event of ${length.toLocaleString('en-US')} characters is over the ${MAX_EVENT_CHARS / 1024 / 1024} MiB limit for a single event: the body is not opened (laying out that one block would take gigabytes)`
    return { attempt: null, diagnostics: [{ line: line + offset, severity: 'error', message }] }
  }
  if (!translator.finished && PI_AI_DIALECTS.has(dialect)) {
    // pi-ai ends the stream at the end of the body, not at an end marker (its translators say why); an event the
    // SDK never dispatched is still shown in the Adapter view, as one that became nothing.
    const tail = dialect === 'anthropic-sse' ? null : scan.undispatched
    if (tail !== null) {
      trace.event(tail.start, tail.end, tail.line)
      dropped = 1
    }
    // Gemini's SDK throws on text left after the last event; the others end the same either way.
    trace.emit(translator.end(tail === null ? 'done' : 'eof'), false)
    for (const note of translator.takeNotes()) notes.add(note, lastLine)
  } else if (!translator.finished) {
    // What the parser never dispatched is still shown in the Adapter view, as an event that became nothing.
    const tail = scan.undispatched
    if (tail !== null) {
      trace.event(tail.start, tail.end, tail.line)
      dropped = 1
    }
    trace.emit(translator.end('eof'), false)
    diagnostics.push({
      severity: 'warning',
      message: `the body ends before ${dialect === 'openai-sse' ? '[DONE]' : 'message_stop'}: finish error STREAM_CLOSED, open blocks stay open`,
    })
  }
  if (scan.strangeCount > 0) {
    for (const strange of scan.strange) {
      diagnostics.push({
        line: strange.line + offset,
        severity: 'warning',
        message: jsonArray
          ? `line ${strange.line + offset}: not an element of the JSON array of chunks: ${strange.text}`
          : `line ${strange.line + offset}: not an SSE field (data:, event:, id:, retry: or a : comment): ignored`,
      })
    }
    if (scan.strangeCount > scan.strange.length) {
      diagnostics.push({
        severity: 'warning',
        message: `${scan.strangeCount - scan.strange.length} more lines that are no SSE field were ignored`,
      })
    }
  }
  if (scan.unterminatedLast !== null && dialect === 'anthropic-sse') {
    const line = scan.unterminatedLast.line + offset
    diagnostics.push({
      line,
      severity: 'info',
      message: `line ${line}: the body's last event has no blank line after it; pi-ai reads it anyway (its reader dispatches a pending event at the end of the body)`,
    })
  } else if (scan.unterminatedLast !== null && jsonArray) {
    const line = scan.unterminatedLast.line + offset
    diagnostics.push({
      line,
      severity: 'warning',
      message: `line ${line}: the body ends inside an element of the JSON array (a capture cut short): that element is not read, and the stream fails there as the SDK fails on an incomplete segment`,
    })
  } else if (scan.unterminatedLast !== null && dialect === 'gemini-sse') {
    const line = scan.unterminatedLast.line + offset
    diagnostics.push({
      line,
      severity: 'warning',
      message: `line ${line}: the body ends with text after its last blank line; the @google/genai SDK that pi-ai reads through throws "Incomplete JSON segment at the end" there`,
    })
  } else if (scan.unterminatedLast !== null && dialect === 'openai-responses-sse') {
    const line = scan.unterminatedLast.line + offset
    diagnostics.push({
      line,
      severity: 'warning',
      message: `line ${line}: the body's last event has no blank line after it; the openai SDK that pi-ai reads through dispatches an event only at a blank line, so it is never read`,
    })
  } else if (scan.unterminatedLast !== null) {
    const line = scan.unterminatedLast.line + offset
    diagnostics.push({
      line,
      severity: 'warning',
      message: `line ${line}: the body's last event has no blank line after it; the harness drops it (its SSE parser dispatches an event only at a blank line)`,
    })
  }
  if (scan.tornTail !== null && !scan.tornTail.loneCr) {
    const line = scan.tornTail.line + offset
    diagnostics.push({
      line,
      severity: 'warning',
      message: `line ${line}: the last line has no line break (a capture cut short, or its final newline trimmed): the harness's SSE parser never reads it`,
    })
  }
  if (scan.tornTail?.loneCr) {
    const line = scan.tornTail.line + offset
    diagnostics.push({
      line,
      severity: 'warning',
      message: `line ${line}: the body ends with a lone CR, which the harness's SSE parser holds back until it knows whether an LF follows: that line is never read`,
    })
  }
  if (
    dialect === 'openai-sse' &&
    !chatEvidence &&
    trace.eventCount - dropped > 0 &&
    options.request === undefined
  ) {
    diagnostics.push({
      severity: 'info',
      message: `no event shows which wire this is (no "choices", "chat.completion.chunk" or [DONE]): read as ${routeName(dialect)} reads it, a route assumed because no other dialect's events appear`,
    })
  }
  if (scan.comments > 0) {
    diagnostics.push({
      severity: 'info',
      message: `${scan.comments} SSE comment line${scan.comments === 1 ? '' : 's'} (keep-alives) carried nothing`,
    })
  }
  diagnostics.push(...notes.diagnostics())
  if (trace.eventCount - dropped === 0) {
    diagnostics.push({
      severity: 'error',
      message: jsonArray ? 'no element in the JSON array' : 'no SSE data events in the body',
    })
  }
  return { attempt: attempt(options.id, trace.chunks, trace.build(request)), diagnostics }
}

/**
 * The chunks an HTTP error becomes: the DeepSeek adapter throws its classified failure (one finish); the pi-ai
 * route reports pi-ai's error event, so usage (all zero) and then the finish.
 */
export function httpFailureChunks(
  dialect: SseDialect,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
  baseURL?: string,
  statusText = '',
): StreamChunk[] {
  if (dialect === 'gemini-sse')
    return [
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'finish', reason: geminiHttpFinish(status, statusText, headers['content-type'], body) },
    ]
  if (dialect === 'openai-responses-sse')
    return [
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'finish', reason: responsesHttpFinish(status, body) },
    ]
  if (dialect === 'openai-sse') {
    // Retry-After as a date is relative to when the response came: its own Date header, when it has one.
    const date = Date.parse(headers['date'] ?? '')
    const now = Number.isNaN(date) ? Date.now() : date
    const failure = httpFailure(status, headers, body, now, baseURL)
    return [{ type: 'finish', reason: { kind: 'error', failure } }]
  }
  return [
    { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
    { type: 'finish', reason: piAiHttpFinish(status, body) },
  ]
}

/** Which route the failure is read on and why (docs/protocol.md §9, "HTTP errors"). */
function routeSentence(dialect: SseDialect, head: HttpHead, body: string, url: string | undefined): string {
  const route = httpErrorRoute(head.headers, body, url)
  if (route.dialect === dialect && route.evidence !== null)
    return `on ${routeName(dialect)} (${route.evidence})`
  if (route.evidence !== null)
    return `read as ${routeName(dialect)} reads it, though ${route.evidence}, which points to ${routeName(route.dialect)}`
  return `read as ${routeName(dialect)} reads it — nothing in the capture names the provider (no request URL, no Anthropic or Google error body, no anthropic-* header), so that route is assumed`
}

/** For an assumed DeepSeek route, what the other common route would have made of the same response. */
function otherRoute(dialect: SseDialect, head: HttpHead, body: string, url: string | undefined): string {
  if (dialect !== 'openai-sse' || httpErrorRoute(head.headers, body, url).evidence !== null) return ''
  const finish = piAiHttpFinish(head.status, body)
  if (finish.kind !== 'error') return ''
  return `; through ${routeName('anthropic-sse')} the same response ends as ${finish.failure.code} ("${finish.failure.message.replace(/\s+/g, ' ').slice(0, 120)}")`
}

function withStatus(
  request: WireTrace['request'] | undefined,
  status: number,
): WireTrace['request'] | undefined {
  return request === undefined ? undefined : { ...request, status }
}

function attempt(id: string | undefined, chunks: Attempt['chunks'], wire: WireTrace): Attempt {
  return bareStream(id ?? 'stream', chunks, wire)
}

/** Translator notes grouped by key: one diagnostic per kind with a count and the first line. */
export class NoteCounter {
  private readonly groups = new Map<string, { note: TranslatorNote; line: number; count: number }>()
  constructor(private readonly offset = 0) {}

  add(note: TranslatorNote, line: number): void {
    const group = this.groups.get(note.key)
    if (group) group.count += 1
    else this.groups.set(note.key, { note, line: line + this.offset, count: 1 })
  }

  diagnostics(): Diagnostic[] {
    return [...this.groups.values()].map(({ note, line, count }) => ({
      line,
      severity: note.severity,
      message: `line ${line}: ${note.message}${count > 1 ? ` (${count} events)` : ''}`,
    }))
  }
}

/** A reader's result for a whole file holding one SSE body. */
export function readSseSource(
  text: string,
  dialect: SseDialect,
  options: SseOptions = {},
): { diagnostics: Diagnostic[]; sessions: Session[] } {
  const read = readSseStream(text, dialect, options)
  if (read.attempt === null || read.attempt.chunks.length === 0)
    return { diagnostics: read.diagnostics, sessions: [] }
  return { diagnostics: read.diagnostics, sessions: [streamsSession([read.attempt])] }
}
