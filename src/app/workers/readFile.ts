import { concatBytes } from '../../core/base/concatBytes'
import { ColumnPieces, pieceFormat, type BatchSink } from '../../formats/columnSource'
import { isBinaryContainer } from '../../formats/loadBytes'
import type { LoadedSource } from '../../formats/types'
import type { LoadProgress } from './loadMessages'

type ReadProgress = (phase: LoadProgress['phase'], done: number, total: number) => void

/** How much of a file is read first, to find its format; a file no bigger is read whole. */
export const HEAD_BYTES = 1 << 20
/** Progress is reported after about this many bytes, or this long since the last report, whichever comes first. */
const REPORT_EVERY = 4 << 20
const REPORT_MS = 50
/**
 * A piece is decoded and parsed this much at a time, so that progress can be reported between: a whole 4 MiB piece
 * on code not yet optimized took ~200 ms of a 1M-chunk open with the bar still (bench/README.md, the load bench).
 */
const PARSE_BYTES = 1 << 20

/**
 * A big session log or chunk NDJSON file read, decoded and parsed in pieces as its bytes come (docs/ARCHITECTURE.md,
 * "How chunks are held"): its first MiB decides the format (formats/columnSource.ts `pieceFormat`), then the rest
 * comes in pieces of 4 MiB, the next asked for before one is decoded (whole lines at a time, so no character is
 * split) and its lines parsed. Reading thus overlaps parsing, and neither the file's bytes nor its text is ever
 * held whole. `reader`: where the bytes come from when not from this thread's own reads of `file` (the loading
 * worker's come from the page's thread, rangeReads.ts); two pieces are then asked for ahead, since the page answers
 * between its own tasks. Null when the file must be read whole instead, as readInput reads it: it is small, a binary
 * container, of another format, not UTF-8 throughout (readInput's decoding then names the first bad byte, as for any
 * file), or the reader gave up on the columns.
 */
export async function readStreamed(
  file: Blob,
  name: string,
  progress: ReadProgress,
  sink?: BatchSink,
  reader?: ReadRange,
): Promise<LoadedSource | null> {
  if (file.size <= HEAD_BYTES) return null
  const read: ReadRange = reader ?? ((from, to) => file.slice(from, to).arrayBuffer())
  const head = new Uint8Array(await read(0, HEAD_BYTES))
  const rest = pieces(read, HEAD_BYTES, file.size, reader === undefined ? 1 : 2)
  return decodePieces(head, rest, file.size, name, progress, sink)
}

/**
 * {@link readStreamed} over bytes already split: `head` (at least a MiB, to find the format) and then `rest`. Null
 * as there.
 */
export async function decodePieces(
  head: Uint8Array,
  rest: AsyncIterable<Uint8Array>,
  size: number,
  name: string,
  progress: ReadProgress,
  sink?: BatchSink,
): Promise<LoadedSource | null> {
  // A text file's first bytes are none of the containers' magic (a headerless SQLite file's 100 zero bytes start no
  // line of either format, so pieceFormat refuses it).
  if (isBinaryContainer(head)) return null
  const lines = new LineBytes()
  let first = ''
  if (!lines.read((text) => (first += text), head)) return null
  const format = pieceFormat(first)
  if (format === null) return null
  const columns = new ColumnPieces(format, name, size, sink)
  const add = (text: string) => columns.add(text)
  columns.add(first)
  let done = head.length
  progress('parsing', done, size)
  let reported = done
  let reportedAt = performance.now()
  for await (const bytes of rest) {
    for (let at = 0; at < bytes.length; at += PARSE_BYTES) {
      const part = bytes.subarray(at, at + PARSE_BYTES)
      if (!lines.read(add, part)) return null
      done += part.length
      if (done - reported >= REPORT_EVERY || performance.now() - reportedAt >= REPORT_MS) {
        progress('parsing', done, size)
        reported = done
        reportedAt = performance.now()
      }
    }
  }
  if (!lines.read(add)) return null
  return columns.end()
}

/**
 * A file's bytes decoded whole lines at a time (a line end's byte is never inside a character: UTF-8 continuation
 * bytes are 0x80–0xBF): the line a piece's start completes, with the bytes before it since the last line end, then
 * the piece's own lines up to its last line end, read where they are. One decode of whole characters is Chromium's
 * fast path; a streaming decode of the same pieces took ~40 % longer in a profile. A BOM is dropped at the file's
 * start only, as decodeTextInput drops it; a U+FEFF anywhere else is kept.
 */
class LineBytes {
  private readonly first = new TextDecoder('utf-8', { fatal: true })
  private readonly rest = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  private started = false
  /** Bytes after the last line end so far. */
  private pending: Uint8Array[] = []

  /**
   * Gives `take` the text of `bytes` up to their last line end (without bytes: all that is left), in one or two
   * pieces; false if it is not UTF-8.
   */
  read(take: (text: string) => void, bytes?: Uint8Array): boolean {
    if (bytes === undefined) return this.decode(concatBytes(this.pending), take)
    const last = bytes.lastIndexOf(0x0a)
    if (last === -1) {
      this.pending.push(bytes)
      return true
    }
    let from = 0
    if (this.pending.length > 0) {
      from = bytes.indexOf(0x0a) + 1
      if (!this.decode(concatBytes([...this.pending, bytes.subarray(0, from)]), take)) return false
    }
    this.pending = last + 1 === bytes.length ? [] : [bytes.subarray(last + 1)]
    return this.decode(bytes.subarray(from, last + 1), take)
  }

  private decode(bytes: Uint8Array, take: (text: string) => void): boolean {
    if (bytes.length === 0) return true
    const decoder = this.started ? this.rest : this.first
    this.started = true
    try {
      take(decoder.decode(bytes))
      return true
    } catch {
      return false
    }
  }
}

/** Bytes read at a time: a few MiB, so that a piece's decoding and parsing costs more than asking for the next. */
const PIECE_BYTES = 4 << 20

/** Reads bytes `from`–`to` of a file (a Blob's slice here; the page's thread when it reads for the worker). */
export type ReadRange = (from: number, to: number) => Promise<ArrayBuffer>

/**
 * A file's bytes in pieces of {@link PIECE_BYTES}, `ahead` of them asked for before one is handed out: the
 * reads go on while this thread decodes and parses the piece before.
 */
async function* pieces(
  read: ReadRange,
  from: number,
  size: number,
  ahead: number,
): AsyncIterable<Uint8Array> {
  const asked: Promise<ArrayBuffer>[] = []
  let next = from
  const ask = () => {
    const piece = read(next, Math.min(size, next + PIECE_BYTES))
    // A read abandoned with the rest of the file (a byte that is not UTF-8) may fail unawaited.
    piece.catch(() => {})
    asked.push(piece)
    next += PIECE_BYTES
  }
  const fill = () => {
    while (asked.length < ahead && next < size) ask()
  }
  fill()
  while (asked.length > 0) {
    const bytes = new Uint8Array(await asked.shift()!)
    fill()
    yield bytes
  }
}
