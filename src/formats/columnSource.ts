import { holdSession, RowBatches, type HeldStream } from '../core/chunkStore'
import type { Columns } from '../core/columns'
import { COLUMN_BATCH, ColumnWriter, heldChunkCode } from '../core/columnWriter'
import { buildStreamSession, SessionSegmenter } from '../core/session'
import { isRecord } from '../core/base/isRecord'
import { eachNdjsonChunk, noChunks } from './chunkFiles'
import { detectFormat } from './registry'
import { eachLine, isBlank, type ProgressHook } from './json'
import { loadSource } from './load'
import { memberChunk } from './packedRow'
import { SessionJsonlReader } from './sessionJsonl'
import { citationDiagnostics, eventsRoom } from './sessionSource'
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

/**
 * Told of each batch as soon as it is full, while the rest of the text is read: the loading worker posts it then,
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
  const segmenter = new SessionSegmenter(eventsRoom(text), (stream, chunk) => {
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
  eachLine(text, (line, number, terminated) => reader.read({ number, text: line, terminated }), onProgress)
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
  holdSession(session, events, writer.whole, held)
  diagnostics.push(...citationDiagnostics(session))
  return { diagnostics, sessions: [session] }
}

/** Chunk NDJSON read as readChunkNdjson reads it, each kept chunk written as a row of its one stream. */
export function readNdjsonColumns(text: string, onProgress?: ProgressHook, sink?: BatchSink): ReadResult {
  const writer = new ColumnWriter(
    false,
    COLUMN_BATCH,
    sink && ((columns) => sink({ kind: 'chunks', columns })),
  )
  const diagnostics: Diagnostic[] = []
  eachNdjsonChunk(
    text,
    diagnostics,
    (chunk) => writer.sourced(writer.length, null, chunk),
    onProgress,
    // A chunk the columns hold as numbers has every field of its type: no check would report it.
    { code: heldChunkCode, take: (value, code) => writer.sourcedHeld(writer.length, null, value, code) },
  )
  if (writer.length === 0) return noChunks(diagnostics)
  const session = buildStreamSession([])
  holdSession(session, new RowBatches(), [], [batchesOf(writer.finish())])
  return { diagnostics, sessions: [session] }
}

function batchesOf(columns: readonly Columns[]): RowBatches {
  const batches = new RowBatches()
  for (const batch of columns) batches.add(batch)
  return batches
}

/** A growing list of row numbers, kept as an Int32Array (a stream of a 100 MB log has millions). */
class RowList {
  private rows = new Int32Array(1024)
  private length = 0

  push(row: number): void {
    if (this.length === this.rows.length) {
      const grown = new Int32Array(this.rows.length * 2)
      grown.set(this.rows)
      this.rows = grown
    }
    this.rows[this.length++] = row
  }

  /** Rows first, first + 1, …, first + count − 1. */
  pushRun(first: number, count: number): void {
    while (this.length + count > this.rows.length) {
      const grown = new Int32Array(this.rows.length * 2)
      grown.set(this.rows)
      this.rows = grown
    }
    for (let k = 0; k < count; k++) this.rows[this.length + k] = first + k
    this.length += count
  }

  array(): Int32Array {
    return this.rows.slice(0, this.length)
  }

  /** The rows so far, without a copy (until the next push). */
  view(): Int32Array {
    return this.rows.subarray(0, this.length)
  }
}
