import type { StreamChunk } from '../../core/protocol'
import { bareStream, streamsSession, type WireTrace } from '../../core/session'
import { MAX_JSON_DEPTH } from '../limits'
import { MAX_EVENT_CHARS, NoteCounter, type SseRead } from '../sse/readSse'
import { readHttpHead, scanSse } from '../sse/sseEvents'
import type { TranslatorNote } from '../sse/translator'
import type { ReadResult } from '../types'
import { WireTraceBuilder } from '../wire'

/**
 * One parsed wire event (an NDJSON line or an SSE event's data) → chunks, for the wires without a harness route
 * (docs/protocol.md §9, "Wires without a harness route"). `end()` is called once when the body ends before the format's own end (its `done` line,
 * `message-end`, `[DONE]`): it returns the in-band failure. Never throws.
 */
export type WireDialect = {
  push(payload: unknown, event: string): StreamChunk[]
  /**
   * A line or event whose data is not JSON: the stream fails here (in band, usage then finish). `message` says where
   * and why; `data` is the event's data as it came (a dialect may quote it, as the chat route does).
   */
  malformed(message: string, data: string): StreamChunk[]
  end(): StreamChunk[]
  readonly finished: boolean
  takeNotes(): readonly TranslatorNote[]
  /** Data strings that are an end marker rather than JSON (`[DONE]`). */
  readonly markers?: ReadonlySet<string>
  /**
   * A line that is no JSON is skipped and reading goes on, rather than failing the stream: what the provider's
   * own client does (ollama-js logs "invalid json" and reads the next line).
   */
  readonly skipsBadLines?: string
}

export type WireOptions = {
  readonly id?: string
  readonly request?: WireTrace['request']
  readonly lineOffset?: number
}

function parse(data: string): { value: unknown } | { error: string } {
  try {
    const value: unknown = JSON.parse(data)
    return { value }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** `line N (offset X)`: where a bad line starts, for messages about a body inside a bigger file too. */
function where(line: number, offset: number): string {
  return `line ${line} (offset ${offset})`
}

function deeper(data: string): boolean {
  let depth = 0
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i)
    if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

/**
 * An NDJSON body (Ollama): one JSON object per line, each a wire event. A last line without a line break is read
 * when it parses (a client reads what is buffered at the end), else reported as torn; a line that is no JSON is
 * named by line and offset and fails the stream there, or is skipped when the dialect's client skips it.
 */
export function readNdjsonWire(
  text: string,
  format: string,
  dialect: WireDialect,
  options: WireOptions = {},
): SseRead {
  const offset = options.lineOffset ?? 0
  const trace = new WireTraceBuilder(format, text)
  const notes = new NoteCounter(offset)
  const diagnostics: SseRead['diagnostics'] = []
  let lastLine = 1
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let number = 0
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos)
    const terminated = newline !== -1
    const stop = terminated ? newline : text.length
    const line = { number: ++number, text: text.slice(pos, stop), terminated }
    const begin = pos
    pos = stop + 1
    const body = line.text.trim()
    if (body === '') continue
    lastLine = line.number
    const at = line.number + offset
    trace.event(begin, begin + line.text.length, line.number)
    if (dialect.finished) {
      notes.add(
        { key: 'after-done', severity: 'warning', message: 'a line after the end of the stream: ignored' },
        line.number,
      )
      continue
    }
    const parsed =
      body.length > MAX_EVENT_CHARS || deeper(body) ? { error: 'over the size or depth limit' } : parse(body)
    if ('error' in parsed) {
      if (!line.terminated) {
        diagnostics.push({
          line: at,
          severity: 'warning',
          message: `${where(at, begin)}: the last line is cut short (no line break and not whole JSON: ${parsed.error}): not read`,
        })
        break
      }
      if (dialect.skipsBadLines !== undefined) {
        diagnostics.push({
          line: at,
          severity: 'error',
          message: `${where(at, begin)}: not JSON (${parsed.error}): skipped, and reading goes on (${dialect.skipsBadLines})`,
        })
        continue
      }
      diagnostics.push({
        line: at,
        severity: 'error',
        message: `${where(at, begin)}: not JSON (${parsed.error}): the stream fails here (MALFORMED_RESPONSE), the lines after it are not read`,
      })
      trace.emit(dialect.malformed(`${where(at, begin)}: ${parsed.error}`, body))
      break
    }
    trace.emit(dialect.push(parsed.value, ''))
    for (const note of dialect.takeNotes()) notes.add(note, line.number)
  }
  return finishRead(trace, dialect, notes, diagnostics, lastLine, options)
}

/**
 * An SSE body (Cohere v2, the AI SDK's UI message stream), framed as `eventsource-parser` frames it (the framing of
 * docs/protocol.md §9): each dispatched event's data is one wire event, parsed as JSON unless it is an end marker.
 */
export function readSseWire(
  text: string,
  format: string,
  dialect: WireDialect,
  options: WireOptions = {},
): SseRead {
  const offset = options.lineOffset ?? 0
  const head = readHttpHead(text)
  const trace = new WireTraceBuilder(format, text)
  const notes = new NoteCounter(offset)
  const diagnostics: SseRead['diagnostics'] = []
  let lastLine = head?.bodyLine ?? 1
  let broken = false
  const scan = scanSse(
    text,
    (event) => {
      if (broken) return
      lastLine = event.line
      trace.event(event.start, event.end, event.line)
      // The end marker after the finish is the normal end: it makes no chunk and needs no word.
      if (dialect.finished && dialect.markers?.has(event.data)) return
      if (dialect.finished) {
        notes.add(
          { key: 'after-end', severity: 'warning', message: 'an event after the end of the stream: ignored' },
          event.line,
        )
        return
      }
      const data = event.data
      const at = event.line + offset
      if (dialect.markers?.has(data)) {
        trace.emit(dialect.push(data, event.event))
      } else {
        const parsed =
          data.length > MAX_EVENT_CHARS || deeper(data)
            ? { error: 'over the size or depth limit' }
            : parse(data)
        if ('error' in parsed) {
          broken = true
          diagnostics.push({
            line: at,
            severity: 'error',
            message: `${where(at, event.start)}: event data is not JSON (${parsed.error}): the stream fails here (MALFORMED_RESPONSE), the events after it are not read`,
          })
          trace.emit(dialect.malformed(`${where(at, event.start)}: ${parsed.error}`, data))
          return
        }
        trace.emit(dialect.push(parsed.value, event.event))
      }
      for (const note of dialect.takeNotes()) notes.add(note, event.line)
    },
    head?.bodyStart ?? 0,
    head?.bodyLine ?? 1,
  )
  if (!dialect.finished && scan.undispatched !== null) {
    const tail = scan.undispatched
    trace.event(tail.start, tail.end, tail.line)
    diagnostics.push({
      line: tail.line + offset,
      severity: 'warning',
      message: `${where(tail.line + offset, tail.start)}: the body's last event has no blank line after it (cut short?): an SSE parser never dispatches it`,
    })
  }
  if (scan.strangeCount > 0)
    diagnostics.push({
      line: (scan.strange[0]?.line ?? 0) + offset,
      severity: 'warning',
      message: `line ${(scan.strange[0]?.line ?? 0) + offset}: ${scan.strangeCount} line${scan.strangeCount === 1 ? '' : 's'} that are no SSE field: ignored`,
    })
  return finishRead(trace, dialect, notes, diagnostics, lastLine, options)
}

function finishRead(
  trace: WireTraceBuilder,
  dialect: WireDialect,
  notes: NoteCounter,
  diagnostics: SseRead['diagnostics'],
  lastLine: number,
  options: WireOptions,
): SseRead {
  if (!dialect.finished) {
    trace.emit(dialect.end(), false)
    for (const note of dialect.takeNotes()) notes.add(note, lastLine)
  }
  diagnostics.push(...notes.diagnostics())
  if (trace.eventCount === 0) {
    diagnostics.push({ severity: 'error', message: 'no events in the body' })
    return { attempt: null, diagnostics }
  }
  return {
    attempt: bareStream(options.id ?? 'stream', trace.chunks, trace.build(options.request)),
    diagnostics,
  }
}

/** A reader's result for a whole file holding one body. */
export function wireSource(read: SseRead): ReadResult {
  if (read.attempt === null || read.attempt.chunks.length === 0)
    return { diagnostics: read.diagnostics, sessions: [] }
  return { diagnostics: read.diagnostics, sessions: [streamsSession([read.attempt])] }
}
