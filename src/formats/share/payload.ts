import type { AssemblerState } from '../../core/BlockAssembler'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import {
  buildSession,
  buildStreamSession,
  type Attempt,
  type AttemptWindow,
  type PackedRowType,
  type Session,
  type SessionEvent,
} from '../../core/session'
import { chunkProblem } from '../chunkShape'
import { toSessionRecords, type SessionRecord } from '../export/sessionJsonl'
import { kindOf } from '../json'
import { decodePackedRow, readSessionJsonl } from '../sessionJsonl'
import type { Diagnostic, LoadedSource } from '../types'
import { isRedacting, redactChunks, redactEvents, type RedactionOptions } from './redact'
import { compactState, expandState } from './carriedState'
import { cutWindow } from './window'
import { derivedField, withSharedDerived } from './derivedField'
import { lessonField, withSharedLesson } from './lessonField'
import type { Lesson } from '../lesson/lesson'
import {
  applyShareAttempt,
  fillMatchedRecord,
  attemptDiagnostics,
  readDiagnostics,
  readWindowEnd,
  shareAttemptOf,
  windowEndOf,
  type ShareAttempt,
  type ShareWindowEnd,
} from './attemptContext'
import { isRecord } from '../../core/base/isRecord'

/**
 * Share payload, version 1: the JSON a `#v1.` link carries (compressed, optionally encrypted: see shareLink.ts).
 *
 * ```
 * {
 *   "v": 1,
 *   "name": "session.jsonl",                 // optional: the shared file's name, for the title
 *   "source": {                              // the data itself, one of:
 *     "kind": "session",                     //   a whole harness log, as the records of its canonical
 *     "records": [ {header}, {event|packed row}, … ]   //   packed JSONL layout (docs/protocol.md §6, §7)
 *   } | {
 *     "kind": "chunks",                      //   one stream (a bare file, one attempt, or a window of one)
 *     "chunks": [ StreamChunk, … ],
 *     "seq":  [ Δseq, … ],                   //   seq[i] − seq[i−1] (seq[−1] = 0): runs of 1 compress to nothing
 *     "time": [ Δtime | null, … ]            //   time[i] − previous non-null time (first: from 0); null = unknown
 *   },
 *   "stream": "t1.s2.a1",                    // the selected stream's key in the shared file (null: the only one)
 *   "k": 41,                                 // the cursor: position in that stream, 0…its length
 *   "window": { "from": 4000, "to": 4200, "total": 90000, "state": AssemblerState, "built": [0, 2] },
 *                                            // optional, kind "chunks": the chunks are positions [from, to) and
 *                                            //   state the assembler after [0, from) (BlockAssembler.exportState);
 *                                            //   `built` lists positions in state.partials whose frozen block equals
 *                                            //   what their deltas built: their `block` is left out (half the size)
 *   "redacted": { "text": true, "arguments": true, "events": true }   // optional: what was hidden
 * }
 * ```
 *
 * Readers must keep decoding v1 forever; a change that old readers cannot ignore gets a new version.
 */
export type SharePayloadV1 = {
  readonly v: 1
  readonly name?: string
  readonly source: ShareSessionSource | ShareChunksSource
  readonly stream: string | null
  readonly k: number
  readonly window?: ShareWindow
  readonly redacted?: RedactionOptions
  /** Kind `chunks` from a log: which attempt it was and its recorded message (old readers ignore it). */
  readonly attempt?: ShareAttempt
  /** The reader's diagnostics the sender saw about what is shared (seq gaps, torn rows…), as text. */
  readonly diagnostics?: readonly Diagnostic[]
  /** A lesson's narration and questions (lessonField.ts; old readers ignore it). */
  readonly lesson?: Lesson
  /** How an edited stream was made (derivedField.ts; old readers ignore it). */
  readonly derived?: string
}

export type ShareSessionSource = { readonly kind: 'session'; readonly records: SessionRecord[] }
export type ShareChunksSource = {
  readonly kind: 'chunks'
  readonly chunks: AnyChunk[]
  readonly seq: number[]
  readonly time: (number | null)[]
}
export type ShareWindow = {
  readonly from: number
  readonly to: number
  readonly total: number
  readonly state: AssemblerState
  /** Positions in `state.partials` whose `block` was left out because it equals the block the deltas built. */
  readonly built?: number[]
} & Partial<ShareWindowEnd> & {
    /** Like `built`, for `end`. */
    readonly endBuilt?: number[]
  }

export type SharePayload = SharePayloadV1

/** What to share: a loaded source, the stream the user is on, and the cursor. */
export type ShareInput = {
  readonly source: LoadedSource
  /** Index of the session holding the stream (0 for everything but a zip's subagents). */
  readonly sessionIndex?: number
  readonly attempt: Attempt
  /** The stream's key in the app (`t1.s2.a1`, `stream`). */
  readonly streamKey: string
  readonly k: number
}

export type ShareScope = {
  /** `session`: the whole log (when the source is one); `stream`: only the selected attempt's chunks. */
  readonly scope?: 'session' | 'stream'
  /** Only chunks [from, to) of the stream, with the assembler state at `from` (implies `scope: 'stream'`). */
  readonly window?: { readonly from: number; readonly to: number }
  readonly redact?: RedactionOptions
}

/**
 * The payload for a share, smallest first by the options: a window or `scope: 'stream'` carries one stream's
 * chunks; a whole harness log travels as its packed records (of the session holding the stream, when there are
 * several). Redaction applies before anything is cut.
 *
 * @example
 * buildSharePayload({ source, attempt, streamKey: 't1.s1.a1', k: 12 }, { scope: 'stream', redact: FULL_REDACTION })
 */
export function buildSharePayload(input: ShareInput, options: ShareScope = {}): SharePayload {
  const { source, attempt, streamKey } = input
  const session = source.sessions[input.sessionIndex ?? 0]
  const redact = isRedacting(options.redact) ? options.redact : undefined
  const isLog = session !== undefined && (session.header !== null || session.events.length > 0)
  const named = source.name !== undefined ? { name: source.name } : {}
  // The lesson and the derived label ride with the redaction tag: every payload below carries them.
  const redactedTag = {
    ...(redact !== undefined ? { redacted: redact } : {}),
    ...lessonField(source, redact !== undefined),
    ...derivedField(source),
  }
  const k = Math.max(0, Math.min(attempt.chunks.length, Math.trunc(input.k)))
  const sessionIndex = input.sessionIndex ?? 0
  if (options.window === undefined && isLog && options.scope !== 'stream') {
    // The stream's own session travels (a zip's subagent, one live capture of several): opened, it is session 0,
    // where the stream's key is its attempt id.
    const events = redact !== undefined ? redactEvents(session.events, redact) : session.events
    const records = toSessionRecords({ header: session.header, events })
    const stream = (input.sessionIndex ?? 0) === 0 ? streamKey : attempt.id
    const diagnostics = carried(source.diagnostics)
    return { v: 1, ...named, source: { kind: 'session', records }, stream, k, ...redactedTag, ...diagnostics }
  }
  const chunks = redact !== undefined ? redactChunks(attempt.chunks, redact) : attempt.chunks
  const stream = isLog || streamKey !== 'stream' ? streamKey : null
  // A bare stream with a recorded message (an AI SDK devtools generation, §9) carries it too: `recorded-mismatch`
  // and the comparison are the sender's view (docs/protocol.md §5, §14).
  const context = {
    ...(attempt.kind !== 'stream' || attempt.recorded !== null
      ? { attempt: shareAttemptOf(attempt, redact) }
      : {}),
    ...carried(attemptDiagnostics(source, sessionIndex, attempt)),
  }
  if (options.window === undefined) {
    return { v: 1, ...named, source: chunksSource(chunks), stream, k, ...redactedTag, ...context }
  }
  const cut = cutWindow(chunks, options.window.from, options.window.to)
  // The window stops early but the opener must see the whole stream's finish, usage, findings and comparison.
  const { end, ...rest } = windowEndOf(chunks, cut.from, cut.to, context.attempt?.recorded)
  const compactEnd = compactState(end)
  return {
    v: 1,
    ...named,
    source: chunksSource(cut.chunks),
    stream,
    k: Math.max(cut.from, Math.min(cut.to, k)),
    window: {
      from: cut.from,
      to: cut.to,
      total: cut.total,
      ...compactState(cut.state),
      end: compactEnd.state,
      ...(compactEnd.built !== undefined ? { endBuilt: compactEnd.built } : {}),
      ...rest,
    },
    ...redactedTag,
    ...context,
  }
}

/** At most this many diagnostics travel: a damaged file may have thousands, the first ones say what matters. */
const CARRIED_DIAGNOSTICS = 200

function carried(diagnostics: readonly Diagnostic[]): { diagnostics?: Diagnostic[] } {
  if (diagnostics.length === 0) return {}
  return {
    diagnostics: diagnostics
      .slice(0, CARRIED_DIAGNOSTICS)
      .map(({ line, severity, message }) => ({ ...(line !== undefined ? { line } : {}), severity, message })),
  }
}

function chunksSource(chunks: readonly SourcedChunk[]): ShareChunksSource {
  const seq: number[] = []
  const time: (number | null)[] = []
  let lastSeq = 0
  let lastTime = 0
  for (const sourced of chunks) {
    seq.push(sourced.seq - lastSeq)
    lastSeq = sourced.seq
    if (sourced.time === null) time.push(null)
    else {
      time.push(sourced.time - lastTime)
      lastTime = sourced.time
    }
  }
  return { kind: 'chunks', chunks: chunks.map((sourced) => sourced.chunk), seq, time }
}

/** A decoded link, ready to show: the source to load, the stream to select, where to put the cursor. */
export type OpenedShare = {
  readonly payload: SharePayload
  readonly source: LoadedSource
  /** The stream to select in `source` (a key as `listStreams` gives it). */
  readonly streamKey: string
  /** The cursor in that stream as the app replays it (for a window: relative to the window's first chunk). */
  readonly k: number
  /** For a window: pass as `ReplayEngine` option `initialState`; `offset` = window.from for display. */
  readonly window: { readonly from: number; readonly to: number; readonly total: number } | null
  readonly initialState: AssemblerState | null
  /** What was hidden (the app must say so), or null. */
  readonly redacted: RedactionOptions | null
  /** The stream's key in the file it was shared from, for the title (`t1.s2.a1 of session.jsonl`). */
  readonly sharedStream: string | null
}

/**
 * Validates a parsed payload (untrusted: it came from a URL) and turns it into a source. Never throws; anything
 * malformed gives `{ error }` in plain words. Nothing in a payload is ever executed: it is JSON data read by the
 * same lenient readers as a file.
 */
export function openSharePayload(value: unknown): OpenedShare | { error: string } {
  if (!isRecord(value)) return { error: `the link holds ${kindOf(value)}, not a Chunkscope share payload` }
  if (value['v'] !== 1)
    return { error: `the link's payload has version ${JSON.stringify(value['v'])}, expected 1` }
  const name = typeof value['name'] === 'string' ? value['name'] : undefined
  const raw = value['source']
  if (!isRecord(raw)) return { error: 'the link has no source' }
  const k = value['k']
  if (!Number.isSafeInteger(k) || (k as number) < 0) return { error: 'the link has no valid cursor' }
  const stream = typeof value['stream'] === 'string' ? value['stream'] : null
  const redacted = readRedaction(value['redacted'])
  let source: LoadedSource
  let streamKey: string
  let window: OpenedShare['window'] = null
  let initialState: AssemblerState | null = null
  if (raw['kind'] === 'session') {
    if (!Array.isArray(raw['records'])) return { error: 'the shared session has no records' }
    source = sessionFromRecords(raw['records'], name)
    source.diagnostics.unshift(...readDiagnostics(value['diagnostics']))
    const streams = source.sessions[0]?.streams ?? []
    if (streams.length === 0) return { error: 'the shared session holds no stream' }
    streamKey = streams.some((attempt) => attempt.id === stream) ? (stream as string) : streams[0]!.id
  } else if (raw['kind'] === 'chunks') {
    const read = chunksFromSource(raw)
    if ('error' in read) return read
    const session = buildStreamSession(read.chunks)
    // Keep the shared attempt's id (`t1.s2.a1`) so the opener sees which stream of the log this was.
    const shared = session.streams[0]!
    if (stream !== null) shared.id = stream
    applyShareAttempt(shared, value['attempt'])
    source = {
      format: 'chunk-json',
      ...(name !== undefined ? { name } : {}),
      diagnostics: withoutRepeats(readDiagnostics(value['diagnostics']), read.diagnostics),
      sessions: [session],
    }
    streamKey = shared.id
    if (value['window'] !== undefined) {
      const checked = readWindow(value['window'], read.chunks.length)
      if ('error' in checked) return checked
      window = { from: checked.from, to: checked.to, total: checked.total }
      initialState = checked.state
      if (checked.attemptWindow !== null) shared.window = checked.attemptWindow
    }
    // A recorded message equal to what the stream assembles travels as `matches` alone: rebuild it.
    fillMatchedRecord(shared)
  } else {
    return { error: `the link's source kind ${JSON.stringify(raw['kind'])} is unknown` }
  }
  source = withSharedDerived(withSharedLesson(source, value['lesson']), value['derived'])
  const attempt = source.sessions[0]?.streams.find((candidate) => candidate.id === streamKey)
  const length = attempt?.chunks.length ?? 0
  const offset = window?.from ?? 0
  const cursor = Math.max(0, Math.min(length, (k as number) - offset))
  return {
    payload: value as SharePayload,
    source,
    streamKey,
    k: cursor,
    window,
    initialState,
    redacted,
    sharedStream: stream,
  }
}

/**
 * The carried diagnostics (what the sender's reader said), then what reading the link's chunks again noticed that
 * they do not already say: a chunk the sender's reader reported (`line 5: assistant/chunk seq 4: chunk text-delta
 * has no string "text"`) is not reported a second time in other words (`chunk 0: text-delta has no string
 * "text"`). Each carried diagnostic covers one repeat.
 */
function withoutRepeats(carried: Diagnostic[], reread: readonly Diagnostic[]): Diagnostic[] {
  const unused = carried.map((diagnostic) => diagnostic.message)
  const out = carried.slice()
  for (const diagnostic of reread) {
    const reason = diagnostic.message.replace(/^chunk \d+: /, '')
    const at = unused.findIndex((message) => message.endsWith(reason))
    if (at >= 0) unused.splice(at, 1)
    else out.push(diagnostic)
  }
  return out
}

function readRedaction(value: unknown): RedactionOptions | null {
  if (!isRecord(value)) return null
  const options = {
    text: value['text'] === true,
    arguments: value['arguments'] === true,
    events: value['events'] === true,
  }
  return isRedacting(options) ? options : null
}

/** The records of a session payload → a session, through the same decoders as a file (packed rows per §7). */
export function sessionFromRecords(records: readonly unknown[], name?: string): LoadedSource {
  const diagnostics: Diagnostic[] = []
  const events: SessionEvent[] = []
  let header = null
  const first = records[0]
  let start = 0
  if (isRecord(first) && first['type'] === 'session') {
    header = readSessionJsonl(JSON.stringify(first) + '\n').header
    start = 1
  }
  for (let i = start; i < records.length; i++) {
    const line = i + 1
    const record = records[i]
    const problem = (reason: string) =>
      diagnostics.push({ line, severity: 'error', message: `record ${line}: ${reason}; skipped` })
    if (!isRecord(record) || typeof record['type'] !== 'string') {
      problem(`not an event (got ${kindOf(record)})`)
      continue
    }
    const type = record['type']
    if (type === 'text-chunks' || type === 'reasoning-chunks' || type === 'tool-call-chunks') {
      const malformed = decodePackedRow(record, type as PackedRowType, line, events)
      if (malformed !== null) problem(`malformed ${type} row: ${malformed}`)
      continue
    }
    const seq = record['seq']
    if (!Number.isSafeInteger(seq) || (seq as number) < 0) {
      problem(`${type} has no valid seq`)
      continue
    }
    const sources = record['sourceEventSeqs']
    const time = record['time']
    events.push({
      type,
      seq: seq as number,
      time: typeof time === 'number' ? time : null,
      data: record['data'],
      line,
      ...(Array.isArray(sources) && sources.every((s) => Number.isSafeInteger(s) && s >= 0)
        ? { sourceEventSeqs: sources as number[] }
        : {}),
      ...(record['surfaceOp'] !== undefined ? { surfaceOp: record['surfaceOp'] } : {}),
    })
  }
  const session: Session = buildSession(header, events)
  return {
    format: 'dsh-session-jsonl',
    ...(name !== undefined ? { name } : {}),
    diagnostics,
    sessions: [session],
  }
}

function chunksFromSource(
  raw: Record<string, unknown>,
): { chunks: SourcedChunk[]; diagnostics: Diagnostic[] } | { error: string } {
  const { chunks, seq, time } = raw
  if (!Array.isArray(chunks) || !Array.isArray(seq) || !Array.isArray(time))
    return { error: 'the shared stream lacks its chunks, seqs or times' }
  if (seq.length !== chunks.length || time.length !== chunks.length)
    return { error: 'the shared stream is inconsistent: chunk, seq and time counts differ' }
  const out: SourcedChunk[] = []
  const diagnostics: Diagnostic[] = []
  let lastSeq = 0
  let lastTime = 0
  for (let i = 0; i < chunks.length; i++) {
    const dSeq = seq[i]
    const dTime = time[i]
    if (!Number.isSafeInteger(dSeq) || (dTime !== null && !Number.isSafeInteger(dTime)))
      return { error: `the shared stream's seq or time of chunk ${i} is not an integer` }
    lastSeq += dSeq as number
    let at: number | null = null
    if (dTime !== null) at = lastTime += dTime as number
    if (!Number.isSafeInteger(lastSeq) || (at !== null && !Number.isSafeInteger(at)))
      return { error: `the shared stream's seq or time of chunk ${i} leaves the safe integer range` }
    const chunk: unknown = chunks[i]
    const problem = chunkProblem(chunk)
    if (problem?.fatal) {
      diagnostics.push({
        severity: 'error',
        message: `chunk ${i}: not a StreamChunk: ${problem.reason}; skipped`,
      })
      continue
    }
    if (problem) diagnostics.push({ severity: 'warning', message: `chunk ${i}: ${problem.reason}` })
    out.push({ seq: lastSeq, time: at, chunk: chunk as AnyChunk })
  }
  return { chunks: out, diagnostics }
}

type ReadWindow = {
  from: number
  to: number
  total: number
  state: AssemblerState
  /** The carried end state and outside findings; null in a link from before they were carried. */
  attemptWindow: AttemptWindow | null
}

function readWindow(value: unknown, length: number): ReadWindow | { error: string } {
  if (!isRecord(value)) return { error: 'the link’s window is not an object' }
  const { from, to, total, state } = value
  const ints = [from, to, total].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)
  if (!ints || (to as number) - (from as number) !== length || (to as number) > (total as number))
    return { error: 'the link’s window does not match its chunks' }
  const start = expandState(state, value['built'])
  if (start === null) return { error: 'the link’s carried assembler state is malformed' }
  let attemptWindow: AttemptWindow | null = null
  if (value['end'] !== undefined) {
    const end = expandState(value['end'], value['endBuilt'])
    attemptWindow = end === null ? null : readWindowEnd(value, start, end, from as number, total as number)
    if (attemptWindow === null) return { error: 'the link’s carried end of the stream is malformed' }
  }
  return { from: from as number, to: to as number, total: total as number, state: start, attemptWindow }
}
