import { ColumnPieces, pieceFormat, type BatchSink } from '../../formats/columnSource'
import { isBinaryContainer } from '../../formats/loadBytes'
import type { LoadedSource } from '../../formats/types'
import type { LoadProgress } from './loadMessages'

type ReadProgress = (phase: LoadProgress['phase'], done: number, total: number) => void

/** How much of a file is read first, to find its format; a file no bigger is read whole. */
export const HEAD_BYTES = 1 << 20
/** Progress is reported after about this many bytes. */
const REPORT_EVERY = 4 << 20

/**
 * A big session log or chunk NDJSON file read, decoded and parsed in pieces as its bytes come (docs/ARCHITECTURE.md,
 * "How chunks are held"): its first MiB decides the format (formats/columnSource.ts `pieceFormat`), then the rest
 * comes in pieces of a MiB, the next asked for before one is decoded (one streaming TextDecoder, so a character
 * split between two pieces decodes as one) and its complete lines parsed. Reading thus overlaps parsing, and
 * neither the file's bytes nor its text is ever held whole. Null when the file must be read whole instead, as
 * readInput reads it: it is small, a binary container, of another format, not UTF-8 throughout (readInput's
 * decoding then names the first bad byte, as for any file), or the reader gave up on the columns.
 */
export async function readStreamed(
  file: Blob,
  name: string,
  progress: ReadProgress,
  sink?: BatchSink,
): Promise<LoadedSource | null> {
  if (file.size <= HEAD_BYTES) return null
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer())
  return decodePieces(head, pieces(file.slice(HEAD_BYTES)), file.size, name, progress, sink)
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
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const first = decodeOrNull(decoder, head)
  if (first === null) return null
  const format = pieceFormat(first.slice(0, first.lastIndexOf('\n') + 1))
  if (format === null) return null
  const columns = new ColumnPieces(format, name, size, sink)
  columns.add(first)
  let done = head.length
  let reported = 0
  for await (const bytes of rest) {
    const text = decodeOrNull(decoder, bytes)
    if (text === null) return null
    columns.add(text)
    done += bytes.length
    if (done - reported >= REPORT_EVERY) {
      progress('parsing', done, size)
      reported = done
    }
  }
  const last = decodeOrNull(decoder)
  if (last === null) return null
  columns.add(last)
  return columns.end()
}

/** The text of the next bytes (all of them, without `bytes`), or null at a byte that is not UTF-8. */
function decodeOrNull(decoder: TextDecoder, bytes?: Uint8Array): string | null {
  try {
    return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true })
  } catch {
    return null
  }
}

/** Bytes read at a time: a MiB, so that a piece's decoding and parsing costs more than asking for the next. */
const PIECE_BYTES = 1 << 20

/**
 * A Blob's bytes in pieces of {@link PIECE_BYTES}, each asked for before the last is handed out: the browser reads
 * the next piece while this thread decodes and parses the one before.
 */
async function* pieces(blob: Blob): AsyncIterable<Uint8Array> {
  const read = (at: number) => blob.slice(at, at + PIECE_BYTES).arrayBuffer()
  let next = read(0)
  // A read abandoned with the rest of the file (a byte that is not UTF-8) may fail unawaited.
  next.catch(() => {})
  for (let at = 0; at < blob.size; at += PIECE_BYTES) {
    const bytes = new Uint8Array(await next)
    if (at + PIECE_BYTES < blob.size) {
      next = read(at + PIECE_BYTES)
      next.catch(() => {})
    }
    yield bytes
  }
}
