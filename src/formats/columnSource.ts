import { holdSession, RowBatches, type HeldStream, type RowRunList } from '../core/chunkStore'
import type { Columns } from '../core/columns'
import { COLUMN_BATCH, ColumnWriter, heldChunkCode } from '../core/columnWriter'
import { buildStreamSession, SessionSegmenter } from '../core/session'
import { isRecord } from '../core/base/isRecord'
import { eachNdjsonChunk, noChunks } from './chunkFiles'
import type { FlatTaker } from './flatRuns'
import { detectFormat } from './registry'
import { eachLine, isBlank, type ProgressHook } from './json'
import { loadSource } from './load'
import { memberChunk } from './packedRow'
import { SessionJsonlReader } from './sessionJsonl'
import { citationDiagnostics, eventsRoom } from './sessionSource'
import type { AnyChunk } from '../core/protocol'
import type { Diagnostic, LoadedSource, ReadResult } from './types'

/**
 * {@link loadSource} as the page and the command line get it: a harness session log or a chunk NDJSON file is read
 * straight into column batches (core/columns.ts: typed arrays and one string table per batch) while its lines are
 * parsed, instead of into one object per event and per chunk that would be encoded afterwards (docs/ARCHITECTURE.md,
 * "How chunks are held"). The result equals loadSource's, diagnostics included: `session.events` and
 * `attempt.chunks` are built on first read, and `chunksOf(attempt)` reads the columns. Every other input, and the
 * few logs the columns do not cover (out of seq order; a chunk event whose chunk is no chunk object), go through
 * loadSource itself.
 *
 * @example
 * const source = loadColumns(text, 'session.jsonl')
 * chunksOf(source.sessions[0].streams[0]).typeAt(0) // 'block-start', read from the columns
 */
export function loadColumns(
  text: string,
  name?: string,
  onProgress?: ProgressHook,
  sink?: BatchSink,
): LoadedSource {
  const format = isBlank(text) ? null : detectFormat(text)
  if (format === 'dsh-session-jsonl' || format === 'chunk-ndjson') {
    let read: ReadResult | null = null
    try {
      read =
        format === 'dsh-session-jsonl'
          ? readSessionColumns(text, onProgress, sink)
          : readNdjsonColumns(text, onProgress, sink)
    } catch {
      // loadSource reads it again and turns the same failure into its message.
    }
    if (read !== null) return { format, ...(name !== undefined ? { name } : {}), ...read }
  }
  return loadSource(text, name, onProgress)
}

/** The most of a text's start any text sniffer reads (registry.ts; the lesson sniffer's 256 Ki characters). */
const SNIFF_CHARS = 1 << 18
/** The most non-blank lines a sniffer parses (detect.ts). */
const SNIFF_LINES = 20

/**
 * The format {@link loadColumns} finds for any text that starts with `start`, when that is a format whose columns
 * are read in pieces ({@link ColumnPieces}) and the start alone decides it: it ends at a line end and holds what
 * every sniffer looks at (docs/ARCHITECTURE.md, "How to add a format"), 256 Ki characters and 20 non-blank lines.
 * Null otherwise: the whole text is needed then.
 */
export function pieceFormat(start: string): 'dsh-session-jsonl' | 'chunk-ndjson' | null {
  if (start.length < SNIFF_CHARS || !start.endsWith('\n')) return null
  let lines = 0
  for (let from = 0; lines < SNIFF_LINES && from < start.length;) {
    const end = start.indexOf('\n', from)
    if (!isBlank(start, from, end)) lines += 1
    from = end + 1
  }
  if (lines < SNIFF_LINES) return null
  const format = detectFormat(start)
  return format === 'dsh-session-jsonl' || format === 'chunk-ndjson' ? format : null
}

/**
 * {@link loadColumns} for a text that comes in pieces of any length (the loading worker decodes a file while it
 * reads it, app/workers/readFile.ts), of a format {@link pieceFormat} found from its start: the complete lines of
 * each piece are read as it comes, so no whole text is ever held. `end()` gives what loadColumns gives for the
 * whole text, or null where loadColumns would fall back to loadSource (the reader gave up on the columns): the
 * whole text is needed then.
 *
 * @example
 * const pieces = new ColumnPieces(pieceFormat(start)!, 'session.jsonl', file.size, sink)
 * for await (const text of decoded) pieces.add(text)
 * const source = pieces.end() ?? loadColumns(wholeText, 'session.jsonl')
 */
export class ColumnPieces {
  private readonly reader: ColumnReader
  /** The text after the last line end so far. */
  private carry = ''
  /** Lines read so far; −1 before the first. */
  private visited = -1
  private failed = false

  /** `room`: the text's length, or a bound of it (a file's size in bytes), to size the first arrays. */
  constructor(
    private readonly format: 'dsh-session-jsonl' | 'chunk-ndjson',
    private readonly name: string | undefined,
    room: number,
    sink?: BatchSink,
  ) {
    this.reader = format === 'dsh-session-jsonl' ? sessionColumns(room >> 4, sink) : ndjsonColumns(sink)
  }

  add(text: string): void {
    const last = text.lastIndexOf('\n')
    if (last === -1 || this.failed) {
      if (!this.failed) this.carry += text
      return
    }
    if (this.visited === -1) {
      // The first lines from the text's very start, where eachLine drops a BOM as loadColumns's does.
      const first = this.carry + text.slice(0, last + 1)
      this.read(first, 0, 0)
      this.visited = newlines(first, 0)
    } else {
      // The line the carry began, then the rest of the piece, each after a line end (from 1: no BOM taken).
      const end = text.indexOf('\n')
      this.read(`\n${this.carry}${text.slice(0, end + 1)}`, 1, this.visited)
      this.visited += 1
      if (last > end) {
        const rest = text.slice(end, last + 1)
        this.read(rest, 1, this.visited)
        this.visited += newlines(rest, 1)
      }
    }
    this.carry = text.slice(last + 1)
  }

  end(): LoadedSource | null {
    if (this.carry !== '')
      this.read(
        this.visited === -1 ? this.carry : `\n${this.carry}`,
        this.visited === -1 ? 0 : 1,
        Math.max(0, this.visited),
      )
    if (this.failed) return null
    let read: ReadResult | null = null
    try {
      read = this.reader.finish()
    } catch {
      // loadSource reads it again and turns the same failure into its message.
    }
    return read === null
      ? null
      : { format: this.format, ...(this.name !== undefined ? { name: this.name } : {}), ...read }
  }

  private read(text: string, from: number, visited: number): void {
    if (this.failed) return
    try {
      this.reader.lines(text, from, visited)
    } catch {
      this.failed = true
    }
  }
}

/** How many line ends `text` has from `from` on. */
function newlines(text: string, from: number): number {
  let count = 0
  for (let at = text.indexOf('\n', from); at !== -1; at = text.indexOf('\n', at + 1)) count += 1
  return count
}

/**
 * Told of each batch as soon as it is full, while the rest of the text is read, and of the last one when the text
 * ends if others came before it (core/columnWriter.ts): the loading worker posts it then,
 * so the page can replay a stream's first chunks while its last ones are parsed (app/open/earlyReplay.ts). The
 * batch is one the result will hold, unless the reader gives up on the columns (loadSource reads the text then).
 * A session log's batches are its events; `rowsOf(stream)` is that stream's chunk events' rows so far (a view,
 * valid during the call), `firstStream` the lowest stream with chunks so far (−1: none). A chunk file's batches
 * are its one stream's chunks.
 */
export type BatchSink = (
  batch:
    | { readonly kind: 'chunks'; readonly columns: Columns }
    | {
        readonly kind: 'events'
        readonly columns: Columns
        readonly firstStream: number
        readonly rowsOf: (stream: number) => Int32Array
      },
) => void

/**
 * A session log (docs/protocol.md §6, §7) read as readSessionSource reads it, its events written as rows while the
 * log is segmented (both need seq order: segmenting hands each chunk to its stream, which takes the row just
 * written). Null when the log is out of seq order or a stream's chunk is not its event's own (segmenting wraps a
 * chunk event whose chunk is no object with a string type): loadSource reads those.
 */
export function readSessionColumns(
  text: string,
  onProgress?: ProgressHook,
  sink?: BatchSink,
): ReadResult | null {
  const reader = sessionColumns(eventsRoom(text), sink)
  reader.lines(text, 0, 0, onProgress)
  return reader.finish()
}

/**
 * What a column reader does with its text: `lines(text, from, visited, onProgress)` reads the lines of `text` from
 * `from` on (each piece of a text that comes in pieces ends at a line end, but the last; `visited` lines came
 * before, and a piece after the first starts with the line end before it, `from` 1, so that no character of the
 * text is taken for a leading BOM but the first: json.ts `eachLine`), `finish()` gives the result.
 */
type ColumnReader<Result = ReadResult | null> = {
  lines(text: string, from: number, visited: number, onProgress?: ProgressHook): void
  finish(): Result
}

function sessionColumns(room: number, sink?: BatchSink): ColumnReader {
  const streams: RowList[] = []
  const rowsOf = (stream: number) => streams[stream]?.view() ?? new Int32Array(0)
  const writer = new ColumnWriter(
    true,
    COLUMN_BATCH,
    sink && ((columns) => sink({ kind: 'events', columns, firstStream: streams.findIndex(Boolean), rowsOf })),
  )
  /** The chunk object the segmenter is being given: it hands over that very object unless it wraps it. */
  let given: unknown
  let own = true
  const segmenter = new SessionSegmenter(room, (stream, chunk) => {
    if (chunk !== given) own = false
    ;(streams[stream] ??= new RowList()).push(writer.length - 1)
  })
  let lastSeq = -Infinity
  let ordered = true
  const inOrder = (seq: number): boolean => {
    if (seq < lastSeq) ordered = false
    lastSeq = seq
    return ordered
  }
  const reader = new SessionJsonlReader({
    event: (event) => {
      writer.event(event)
      if (!inOrder(event.seq)) return
      given = isRecord(event.data) ? event.data['chunk'] : undefined
      segmenter.add(event)
    },
    member: (seq, time, turn, step, chunk, line, packed) => {
      writer.member(seq, time, line, packed, turn, step, chunk)
      if (!inOrder(seq)) return
      given = chunk
      segmenter.chunk(seq, time, turn, step, chunk)
    },
    members: (members, line, packed) => {
      writer.members(members, line, packed, (k) => memberChunk(members, k))
      const count = members.payload.length
      const first = writer.length - count
      if (!inOrder(members.seq0)) return
      lastSeq = members.seq0 + count - 1
      ;(streams[segmenter.chunkRun(members.seq0, count, members.turn, members.step)] ??=
        new RowList()).pushRun(first, count)
    },
  })
  const visit = (line: string, number: number, terminated: boolean) =>
    reader.read({ number, text: line, terminated })
  return {
    lines: (text, from, visited, onProgress) => {
      eachLine(text, visit, onProgress, from, visited)
    },
    finish: () => {
      if (!ordered || !own) return null
      const read = reader.result()
      const diagnostics = read.diagnostics
      if (read.header === null && writer.length === 0) {
        diagnostics.push({ severity: 'error', message: 'no session header and no events could be read' })
        return { diagnostics, sessions: [] }
      }
      const session = segmenter.session(read.header, [])
      const events = batchesOf(writer.finish())
      const held: HeldStream[] = session.streams.map((_, stream) => streams[stream]!.array())
      const runs = session.streams.map((_, stream) => streams[stream]!.runList())
      holdSession(session, events, writer.whole, held, runs)
      diagnostics.push(...citationDiagnostics(session))
      return { diagnostics, sessions: [session] }
    },
  }
}

/** Chunk NDJSON read as readChunkNdjson reads it, each kept chunk written as a row of its one stream. */
export function readNdjsonColumns(text: string, onProgress?: ProgressHook, sink?: BatchSink): ReadResult {
  const reader = ndjsonColumns(sink)
  reader.lines(text, 0, 0, onProgress)
  return reader.finish()
}

function ndjsonColumns(sink?: BatchSink): ColumnReader<ReadResult> {
  const writer = new ColumnWriter(
    false,
    COLUMN_BATCH,
    sink && ((columns) => sink({ kind: 'chunks', columns })),
  )
  const diagnostics: Diagnostic[] = []
  const take = (chunk: AnyChunk) => writer.sourced(writer.length, null, chunk)
  // A chunk the columns hold as numbers has every field of its type: no check would report it.
  const held: FlatTaker = {
    code: heldChunkCode,
    take: (value, code) => writer.sourcedHeld(writer.length, null, value, code),
  }
  return {
    lines: (text, from, visited, onProgress) =>
      eachNdjsonChunk(text, diagnostics, take, onProgress, held, from, visited),
    finish: () => {
      if (writer.length === 0) return noChunks(diagnostics)
      const session = buildStreamSession([])
      holdSession(session, new RowBatches(), [], [batchesOf(writer.finish())])
      return { diagnostics, sessions: [session] }
    },
  }
}

function batchesOf(columns: readonly Columns[]): RowBatches {
  const batches = new RowBatches()
  for (const batch of columns) batches.add(batch)
  return batches
}

/**
 * A growing list of row numbers kept as runs of consecutive rows (a stream's chunk events mostly follow each other:
 * a packed row's members are one run), which is what the stream's RowMap is made of (core/chunkStore.ts); the rows
 * themselves are written out only when asked for ({@link array}, {@link view}), the ones a view wrote not again.
 */
export class RowList {
  private pos: Int32Array<ArrayBuffer> = new Int32Array(64)
  private row: Int32Array<ArrayBuffer> = new Int32Array(64)
  private runs = 0
  private length = 0
  /** The rows written out so far, the first `written` of them up to date. */
  private rows: Int32Array<ArrayBuffer> = new Int32Array(0)
  private written = 0

  push(row: number): void {
    this.pushRun(row, 1)
  }

  /** Rows first, first + 1, …, first + count − 1. */
  pushRun(first: number, count: number): void {
    if (count <= 0) return
    const last = this.runs - 1
    if (last >= 0 && this.row[last]! + (this.length - this.pos[last]!) === first) {
      this.length += count
      return
    }
    if (this.runs + 1 >= this.pos.length) {
      this.pos = grown(this.pos, this.pos.length * 2)
      this.row = grown(this.row, this.row.length * 2)
    }
    this.pos[this.runs] = this.length
    this.row[this.runs] = first
    this.runs += 1
    this.length += count
  }

  /** The rows' runs, as RowMap takes them (valid until the next push). */
  runList(): RowRunList {
    this.pos[this.runs] = this.length
    return { pos: this.pos, row: this.row, count: this.runs }
  }

  /** Every row, in an array of their own (the list is done after this). */
  array(): Int32Array {
    if (this.rows.length !== this.length) this.rows = grown(this.rows.subarray(0, this.written), this.length)
    this.view()
    return this.rows
  }

  /** The rows so far, without a copy (until the next push). */
  view(): Int32Array {
    const { length } = this
    if (this.rows.length < length) this.rows = grown(this.rows, Math.max(length, this.rows.length * 2))
    const rows = this.rows
    // From the run the first row not yet written is in.
    let run = 0
    for (let low = 0, high = this.runs - 1; low <= high;) {
      const mid = (low + high) >>> 1
      if (this.pos[mid]! <= this.written) {
        run = mid
        low = mid + 1
      } else high = mid - 1
    }
    for (let at = this.written; run < this.runs; run++) {
      const end = run + 1 < this.runs ? this.pos[run + 1]! : length
      const base = this.row[run]! - this.pos[run]!
      for (; at < end; at++) rows[at] = base + at
    }
    this.written = length
    return rows.subarray(0, length)
  }
}

/** `array`'s values in a longer array. */
function grown(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const longer = new Int32Array(size)
  longer.set(array)
  return longer
}
