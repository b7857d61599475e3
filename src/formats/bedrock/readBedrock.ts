import { bareStream, streamsSession, type WireTrace } from '../../core/session'
import type { ContainerRead } from '../containers'
import { NoteCounter, type SseRead } from '../sse/readSse'
import type { Diagnostic, ReadResult } from '../types'
import { WireTraceBuilder } from '../wire'
import { createConverseTranslator } from './converse'
import { readEventFrames, type EventFrame, type FrameFailure } from './eventFrames'

/** The Converse events pi-ai reads, for recognising the decoded form (one `{"<event>": {…}}` object a line). */
const CONVERSE_KEY =
  /^\{\s*"(messageStart|contentBlockStart|contentBlockDelta|contentBlockStop|messageStop|metadata|[a-zA-Z]+Exception)"\s*:/

/**
 * A Bedrock ConverseStream body in its binary event-stream framing, read as the harness's pi-ai route would
 * (docs/protocol.md §9.4). The Adapter view shows one line per frame: `<type> <payload>`.
 */
export async function readBedrockEventStream(bytes: Uint8Array): Promise<ContainerRead> {
  const { frames, failure } = readEventFrames(bytes)
  const read = readFrames(frames, failure)
  if (read.attempt === null) return { sessions: [], diagnostics: read.diagnostics }
  return { sessions: [streamsSession([read.attempt])], diagnostics: read.diagnostics }
}

/**
 * Decoded frames (from the bytes, or recovered from a body saved as text) → one stream through the Converse
 * translator, reading up to `failure` and failing there with the SDK's message (docs/protocol.md §9.4).
 */
export function readFrames(
  frames: readonly EventFrame[],
  failure: FrameFailure | null,
  options: { id?: string; request?: WireTrace['request'] } = {},
): SseRead {
  const lines: string[] = []
  const starts: number[] = []
  let length = 0
  for (const frame of frames) {
    const line = `${frame.type} ${frame.payload.replace(/\r?\n/g, ' ')}`
    starts.push(length)
    lines.push(line)
    length += line.length + 1
  }
  const text = lines.join('\n')
  const trace = new WireTraceBuilder('bedrock-eventstream', text)
  const translator = createConverseTranslator()
  const notes = new NoteCounter()
  const diagnostics: Diagnostic[] = []
  frames.forEach((frame, i) => {
    const line = i + 1
    trace.event(starts[i]!, starts[i]! + lines[i]!.length, line)
    if (translator.finished) {
      notes.add(
        { key: 'after-finish', severity: 'warning', message: 'event after the end of the stream: ignored' },
        line,
      )
      return
    }
    // An `error` frame is thrown by the SDK as its `:error-message` (no Bedrock prefix).
    const chunks =
      frame.messageType === 'error'
        ? translator.fail(frame.payload || 'UnknownError')
        : translator.push(frame.payload, frame.type)
    trace.emit(chunks)
    for (const note of translator.takeNotes()) notes.add(note, line)
  })
  if (failure !== null) {
    const severity = failure.sdkMessage === null ? 'warning' : 'error'
    diagnostics.push({ byte: failure.offset, severity, message: failure.diagnostic })
  }
  trace.emit(
    failure?.sdkMessage != null ? translator.fail(failure.sdkMessage) : translator.end('done'),
    false,
  )
  diagnostics.push(...notes.diagnostics())
  if (frames.length === 0) {
    diagnostics.push({ severity: 'error', message: 'no frame of this Bedrock event stream could be read' })
    return { attempt: null, diagnostics }
  }
  return {
    attempt: bareStream(options.id ?? 'stream', trace.chunks, trace.build(options.request)),
    diagnostics,
  }
}

/** Whether the text is Bedrock ConverseStream events already decoded from their frames, one JSON object a line. */
export function sniffConverseEvents(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').trimStart()
  return CONVERSE_KEY.test(first.slice(0, 200))
}

/**
 * The decoded form (an SDK's log of `{"contentBlockDelta": {…}}` objects, one per line — NDJSON; a JSON array of them is not read): each object's one
 * key is the event type, its value the payload, read by the same translator as the binary frames.
 */
export function readConverseEvents(text: string): ReadResult {
  const trimmed = text.replace(/^\uFEFF/, '').trim()
  const events: { type: string; payload: unknown; line: number }[] = []
  const diagnostics: Diagnostic[] = []
  trimmed.split('\n').forEach((raw, i) => {
    const line = raw.trim()
    if (line === '') return
    try {
      const value = JSON.parse(line) as unknown
      const keys = typeof value === 'object' && value !== null ? Object.keys(value) : []
      if (keys.length !== 1) throw new Error('not an object with one event key')
      events.push({ type: keys[0]!, payload: (value as Record<string, unknown>)[keys[0]!], line: i + 1 })
    } catch (error) {
      diagnostics.push({
        line: i + 1,
        severity: 'warning',
        message: `line ${i + 1}: ${error instanceof Error ? error.message : String(error)}: ignored`,
      })
    }
  })
  const trace = new WireTraceBuilder('bedrock-converse-events', trimmed)
  const translator = createConverseTranslator()
  const notes = new NoteCounter()
  const starts = [0]
  for (let i = 0; i < trimmed.length; i++) if (trimmed.charCodeAt(i) === 10) starts.push(i + 1)
  for (const event of events) {
    const start = starts[event.line - 1]!
    const end = starts[event.line] === undefined ? trimmed.length : starts[event.line]! - 1
    trace.event(start, end, event.line)
    if (translator.finished) continue
    trace.emit(translator.push(JSON.stringify(event.payload), event.type))
    for (const note of translator.takeNotes()) notes.add(note, event.line)
  }
  trace.emit(translator.end('done'), false)
  diagnostics.push(...notes.diagnostics())
  if (events.length === 0)
    return {
      sessions: [],
      diagnostics: [...diagnostics, { severity: 'error', message: 'no Bedrock events' }],
    }
  return { sessions: [streamsSession([bareStream('stream', trace.chunks, trace.build())])], diagnostics }
}
