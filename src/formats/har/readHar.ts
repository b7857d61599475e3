import type { StreamChunk } from '../../core/protocol'
import { bareStream, streamsSession, type Attempt, type Session, type WireTrace } from '../../core/session'
import { readChunkNdjson } from '../chunkFiles'
import { sniffChunkNdjson } from '../detect'
import { isRecord, kindOf, parseJson, tooDeep, valueNestsDeeperThan } from '../json'
import { MAX_JSON_DEPTH } from '../limits'
import { readLiveRecording, sniffLiveRecording } from '../live/liveRecording'
import { readSimplifiedSource, sniffSimplified } from '../simplified/simplified'
import { appendHeader, httpFailure } from '../sse/httpFailure'
import { httpErrorRoute, routeName } from '../sse/httpRoute'
import { httpFailureChunks, readSseStream } from '../sse/readSse'
import { sniffForeignFormat } from '../sse/foreign'
import { sniffGeminiJsonArray } from '../sse/geminiJsonArray'
import { sniffSseDialect } from '../sse/sniff'
import type { Diagnostic } from '../types'
import { base64Bytes, readHarEventStream } from './harEventStream'
import { readWireBody } from '../wire/wireFormats'

/**
 * A HAR file (browser devtools export, HAR 1.2): every streaming response becomes one stream of ONE session, named
 * by its entry's 1-based position (`har3` = `log.entries[2]`), in entry order: `text/event-stream` bodies through
 * the SSE translators (DeepSeek/OpenAI-compatible or Anthropic, with the raw event ↔ chunk pairing and the request
 * on `wire.request`), NDJSON bodies as the simplified stream or bare chunks, failed streaming requests (status ≥ 400
 * on a request with `"stream": true`) as the harness's HTTP failure, Bedrock event streams (base64, or saved as
 * text and read back: docs/protocol.md §9.4) through the Converse translator. A WebSocket entry whose frames (Chrome's
 * `_webSocketMessages`) are the harness's live feed adds its sessions after that one. Every streaming entry gets an
 * info line (method, URL, time, status, type, what it became); entries that could not be read say why. Line numbers
 * of a body are not lines of the HAR, so body diagnostics name their entry and keep the body line in the message.
 */
export function readHar(text: string): { diagnostics: Diagnostic[]; sessions: Session[] } {
  const diagnostics: Diagnostic[] = []
  // One document: depth is checked entry by entry below (an entry sits 3 levels in), so a deep one costs only itself.
  const parsed = parseJson(text, Infinity)
  let entries: unknown
  if (parsed.ok) {
    const log = isRecord(parsed.value) ? parsed.value['log'] : undefined
    entries = isRecord(log) ? log['entries'] : undefined
  } else {
    entries = salvageEntries(text)
    const count = Array.isArray(entries) ? entries.length : 0
    diagnostics.push({
      severity: 'error',
      message: `malformed HAR (${parsed.reason}): ${count === 0 ? 'no complete entry could be read' : `read the ${count} complete entr${count === 1 ? 'y' : 'ies'} before the damage`}`,
    })
    if (count === 0) return { diagnostics, sessions: [] }
  }
  if (!Array.isArray(entries)) {
    diagnostics.push({
      severity: 'error',
      message: `not a HAR: "log.entries" is ${kindOf(entries)}, so there is no entry to read`,
    })
    return { diagnostics, sessions: [] }
  }
  const streams: Attempt[] = []
  const extraSessions: Session[] = []
  let skipped = 0
  entries.forEach((entry: unknown, position) => {
    const id = `har${position + 1}`
    if (valueNestsDeeperThan(entry, MAX_JSON_DEPTH - 3)) {
      diagnostics.push({ severity: 'error', message: `${id}: ${tooDeep()}; skipped` })
      return
    }
    if (!isRecord(entry)) {
      diagnostics.push({
        severity: 'warning',
        message: `${id}: entry is ${kindOf(entry)}, not an object; skipped`,
      })
      return
    }
    const request = isRecord(entry['request']) ? entry['request'] : {}
    const response = isRecord(entry['response']) ? entry['response'] : {}
    const content = isRecord(response['content']) ? response['content'] : {}
    const url = typeof request['url'] === 'string' ? request['url'] : '(no url)'
    const method = typeof request['method'] === 'string' ? request['method'] : undefined
    const startedAt = typeof entry['startedDateTime'] === 'string' ? entry['startedDateTime'] : undefined
    const status = typeof response['status'] === 'number' ? response['status'] : undefined
    const mimeType = typeof content['mimeType'] === 'string' ? content['mimeType'].toLowerCase() : ''
    const where = `${id} (${method ? `${method} ` : ''}${url}${startedAt ? ` at ${startedAt}` : ''})`
    const say = (severity: Diagnostic['severity'], message: string) =>
      diagnostics.push({ severity, message: `${where}: ${message}` })
    const wsFrames = entry['_webSocketMessages']
    if (Array.isArray(wsFrames)) {
      const received = wsFrames
        .filter(
          (f): f is Record<string, unknown> =>
            isRecord(f) && f['type'] === 'receive' && typeof f['data'] === 'string',
        )
        .map((f) => f['data'] as string)
      const joined = received.join('\n') + '\n'
      if (received.length > 0 && sniffLiveRecording(joined)) {
        const read = readLiveRecording(joined)
        extraSessions.push(...read.sessions)
        say(
          'info',
          `WebSocket with ${received.length} received frames: the harness's live feed, ${read.sessions.length} session(s) after the HAR streams`,
        )
        for (const d of read.diagnostics) say(d.severity, `frame ${d.message}`)
      } else skipped += 1
      return
    }
    const requestInfo: WireTrace['request'] = {
      url,
      ...(method !== undefined ? { method } : {}),
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(status !== undefined ? { status } : {}),
    }
    // A Bedrock event stream, as base64 bytes or saved as text (docs/protocol.md §9.4, "In a HAR").
    const raw = content['text']
    const bytes = content['encoding'] === 'base64' && typeof raw === 'string' ? base64Bytes(raw) : null
    const binary = bytes !== null ? readHarEventStream({ bytes }, id, requestInfo, say) : undefined
    const eventStream =
      binary !== undefined || typeof raw !== 'string' || content['encoding'] === 'base64'
        ? binary
        : readHarEventStream({ text: raw }, id, requestInfo, say)
    if (eventStream !== undefined) {
      if (eventStream !== null && eventStream.chunks.length > 0) {
        streams.push(eventStream)
        say(
          'info',
          `${status ?? '?'} ${mimeType || '(no type)'} → bedrock-eventstream, ${eventStream.chunks.length} chunks`,
        )
      }
      return
    }
    const decoded = decodeBody(content)
    const postData = isRecord(request['postData']) ? request['postData'] : {}
    const streamRequested =
      typeof postData['text'] === 'string' && /"stream"\s*:\s*true/.test(postData['text'])
    const failed =
      status !== undefined && status >= 400 && (streamRequested || mimeType.includes('event-stream'))
    // A failed response whose recorded body is empty (`text: ""`, or no text and `size: 0`) had an empty body.
    const empty = content['text'] === '' || (content['text'] === undefined && content['size'] === 0)
    const body = failed && empty ? '' : decoded
    if (typeof body !== 'string') {
      if (body.error !== null) say('warning', body.error)
      else if (/event-stream|eventstream|ndjson/.test(mimeType)) {
        say(
          'warning',
          `${mimeType} response with no body in the HAR (browsers often leave streamed bodies out): nothing to read`,
        )
      } else skipped += 1
      return
    }
    if (failed) {
      const headers = headerRecord(response['headers'])
      // The route the entry's URL, body or headers name (docs/protocol.md §9, "Which route an HTTP error went through").
      const route = httpErrorRoute(headers, body, url)
      const chunks: StreamChunk[] =
        route.dialect === 'openai-sse'
          ? [{ type: 'finish', reason: { kind: 'error', failure: httpFailure(status, headers, body) } }]
          : httpFailureChunks(route.dialect, status, headers, body)
      const last = chunks.at(-1)
      const code = last?.type === 'finish' && last.reason.kind === 'error' ? last.reason.failure.code : '?'
      streams.push(
        attempt(id, chunks, {
          format: 'http-error',
          request: requestInfo,
          text: body,
          count: 0,
          start: new Uint32Array(0),
          end: new Uint32Array(0),
          line: new Uint32Array(0),
          chunkFrom: new Uint32Array(0),
          chunkTo: new Uint32Array(0),
        }),
      )
      say(
        'info',
        `HTTP ${status} on a streaming request → finish error ${code}, as ${routeName(route.dialect)} raises it (${route.evidence ?? 'assumed: nothing in the entry names the provider'})`,
      )
      return
    }
    // The wires without a harness route (docs/protocol.md §9), before the SSE dialects they resemble.
    const wire = readWireBody(body, { id, request: requestInfo })
    if (wire !== null) {
      for (const d of wire.read.diagnostics) say(d.severity, `body ${d.message}`)
      // The wire cannot show an echoed prompt; the request can (docs/protocol.md §9, "Legacy OpenAI Completions").
      if (
        wire.format === 'openai-completions-sse' &&
        typeof postData['text'] === 'string' &&
        /"echo"\s*:\s*true/.test(postData['text'])
      )
        say('warning', 'the request asked for "echo": true: the text block begins with the prompt, echoed')
      const stream = wire.read.attempt
      if (stream !== null && stream.chunks.length > 0) {
        streams.push(stream)
        say(
          'info',
          `${status ?? '?'} ${mimeType || '(no type)'} → ${wire.format}, ${stream.wire?.count ?? 0} events, ${stream.chunks.length} chunks`,
        )
      }
      return
    }
    const foreign = sniffForeignFormat(body)
    if (foreign !== null && foreign.readAs === undefined) {
      say('error', `body is ${foreign.name} (${foreign.evidence}), a format Chunkscope does not read`)
      return
    }
    // Gemini without alt=sse: one JSON array of the SSE form's chunks (docs/protocol.md §9.3, "Without alt=sse").
    const geminiArray = sniffGeminiJsonArray(body)
    const dialect = geminiArray ? 'gemini-sse' : sniffSseDialect(body)
    if (dialect !== null || mimeType.includes('event-stream')) {
      const read = readSseStream(body, dialect ?? 'openai-sse', {
        id,
        request: requestInfo,
        ...(geminiArray ? { framing: 'json-array' as const } : {}),
      })
      for (const d of read.diagnostics) say(d.severity, `body ${d.message}`)
      if (read.attempt !== null && read.attempt.chunks.length > 0) {
        streams.push(read.attempt)
        say(
          'info',
          `${status ?? '?'} ${mimeType || '(no type)'} → ${dialect ?? 'openai-sse'}, ${read.attempt.wire?.count ?? 0} events, ${read.attempt.chunks.length} chunks`,
        )
      }
      return
    }
    if (sniffSimplified(body)) {
      const read = readSimplifiedSource(body)
      for (const d of read.diagnostics) say(d.severity, `body ${d.message}`)
      const stream = read.sessions[0]?.streams[0]
      if (stream) {
        const wire = stream.wire ? { ...stream.wire, request: requestInfo } : undefined
        streams.push({ ...stream, id, ...(wire ? { wire } : {}) })
        say(
          'info',
          `${status ?? '?'} ${mimeType || '(no type)'} → the simplified stream, ${stream.chunks.length} chunks`,
        )
      }
      return
    }
    if (mimeType.includes('ndjson') || mimeType.includes('jsonl') || sniffChunkNdjson(body)) {
      const read = readChunkNdjson(body)
      for (const d of read.diagnostics) say(d.severity, `body ${d.message}`)
      if (read.chunks.length > 0) {
        streams.push(
          attempt(
            id,
            read.chunks.map((c) => c.chunk),
          ),
        )
        say(
          'info',
          `${status ?? '?'} ${mimeType || '(no type)'} → NDJSON of StreamChunks, ${read.chunks.length} chunks`,
        )
      } else say('warning', 'NDJSON body with no StreamChunks')
      return
    }
    skipped += 1
  })
  if (skipped > 0) {
    diagnostics.push({
      severity: 'info',
      message: `${skipped} of ${entries.length} entries are not streaming responses (pages, scripts, JSON APIs): not listed`,
    })
  }
  const sessions: Session[] = []
  if (streams.length > 0) sessions.push(streamsSession(streams))
  sessions.push(...extraSessions)
  if (sessions.length === 0) {
    diagnostics.push({
      severity: 'error',
      message: `no streaming response in the HAR's ${entries.length} entries`,
    })
  }
  return { diagnostics, sessions }
}

function attempt(id: string, chunks: Attempt['chunks'][number]['chunk'][], wire?: WireTrace): Attempt {
  return bareStream(
    id,
    chunks.map((chunk, seq) => ({ seq, time: null, chunk })),
    wire,
  )
}

/** The response body as text: HAR `content.text`, base64-decoded (UTF-8) when `encoding` says so. */
function decodeBody(content: Record<string, unknown>): string | { error: string | null } {
  const text = content['text']
  if (typeof text !== 'string' || text === '') return { error: null }
  if (content['encoding'] !== 'base64') return text
  try {
    const binary = atob(text.replace(/\s+/g, ''))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return new TextDecoder('utf-8').decode(bytes)
  } catch (error) {
    return {
      error: `base64 body could not be decoded (${error instanceof Error ? error.message : String(error)}); skipped`,
    }
  }
}

/** HAR headers `[{name, value}]` → lower-cased record, a repeated name's values joined as fetch's `Headers` does. */
function headerRecord(headers: unknown): Record<string, string> {
  const record: Record<string, string> = {}
  if (!Array.isArray(headers)) return record
  for (const header of headers) {
    if (isRecord(header) && typeof header['name'] === 'string' && typeof header['value'] === 'string')
      appendHeader(record, header['name'], header['value'])
  }
  return record
}

/**
 * The complete entries of a HAR cut short (a truncated download, an editor that gave up): each balanced `{…}` after
 * `"entries": [` that parses. One string-aware pass, no backtracking.
 */
function salvageEntries(text: string): unknown[] {
  const key = text.indexOf('"entries"')
  const open = key === -1 ? -1 : text.indexOf('[', key)
  const found: unknown[] = []
  if (open === -1) return found
  let depth = 0
  let inString = false
  let start = -1
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i += 1
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123) {
      if (depth === 0) start = i
      depth += 1
    } else if (c === 125) {
      depth -= 1
      if (depth === 0) {
        const entry = parseJson(text.slice(start, i + 1))
        if (!entry.ok) break
        found.push(entry.value)
      }
    } else if (c === 93 && depth === 0) break
  }
  return found
}
