import type { SqlJsStatic } from 'sql.js'
import { loadColumns, type BatchSink } from '../../formats/columnSource'
import { decodeTextInput, isBinaryContainer, loadBytes, withDiagnostics } from '../../formats/loadBytes'
import type { LoadedSource } from '../../formats/types'
import { fitToBudget, refuseInput } from './budget'
import { readsOver } from './rangeReads'
import { readStreamed } from './readFile'
import type { LoadProgress, LoadRequest } from './loadMessages'

export type ReadProgress = (phase: LoadProgress['phase'], done: number, total: number) => void

/**
 * What the loading worker does with a request, callable on any thread: the worker runs it off the main thread,
 * and where there are no workers (Node) the page runs the very same path, so a zstd log, a zip export or a SQLite
 * store opens the same way everywhere. Files go through loadBytes, which recognises the binary containers by their
 * magic bytes. A big session log or chunk NDJSON file is decoded and parsed in pieces while it is read
 * (readFile.ts), straight into column batches (formats/columnSource.ts), which the worker then sends as they are; any
 * other text file is decoded whole first and its bytes dropped before parsing, so the reader never holds the bytes,
 * the text and the parsed events at once. An input over the browser limits (`budget.ts`) is refused before
 * a byte is read (the worker shares the tab's memory), and a stream crossing one is cut, with a diagnostic, before
 * the source leaves the worker: what the page cannot afford is never copied to it. `sink` is told of each column
 * batch as soon as the reader fills it (the worker posts it while it reads on).
 */
export async function readInput(
  request: LoadRequest,
  progress: ReadProgress,
  sqlJs?: () => Promise<SqlJsStatic>,
  sink?: BatchSink,
): Promise<LoadedSource> {
  const refused = refuseInput(
    request.type === 'load-file' ? request.file.size : request.text.length,
    request.name,
  )
  if (refused !== null) throw new Error(refused)
  let early = sink
  if (request.type === 'load-file') {
    let posted = false
    const streamed = await readStreamed(
      request.file,
      request.name,
      progress,
      sink &&
        ((batch) => {
          posted = true
          sink(batch)
        }),
      request.reads === undefined ? undefined : readsOver(request.reads),
    )
    if (streamed !== null) {
      progress('parsing', request.file.size, request.file.size)
      return fitToBudget(streamed)
    }
    // Read whole, as any other file. What was posted while it streamed is not the source's (splitSource's `early`
    // tells the page so): nothing more is posted early then.
    if (posted) early = undefined
  }
  let bytes: Uint8Array | null = request.type === 'load-file' ? await readBytes(request.file, progress) : null
  const size = bytes === null ? (request.type === 'load-text' ? request.text.length : 0) : bytes.length
  // Binary containers and one-piece formats report no progress (total 0: an indeterminate bar, not a stuck 0%);
  // line-based readers (session logs, NDJSON) say how far into the text they are.
  progress('parsing', 0, 0)
  let source: LoadedSource
  if (bytes !== null && isBinaryContainer(bytes)) {
    source = await loadBytes(bytes, request.name, sqlJs === undefined ? {} : { sqlJs })
  } else {
    const decoded =
      bytes === null
        ? { text: request.type === 'load-text' ? request.text : '', diagnostics: [] }
        : decodeTextInput(bytes)
    bytes = null
    source = withDiagnostics(
      loadColumns(decoded.text, request.name, (done, total) => progress('parsing', done, total), early),
      decoded.diagnostics,
    )
  }
  progress('parsing', size, size)
  return fitToBudget(source)
}

/** Reads a Blob's bytes in pieces into one buffer, so a large file shows reading progress. */
async function readBytes(file: Blob, progress: ReadProgress): Promise<Uint8Array> {
  const reader = file.stream().getReader()
  let bytes = new Uint8Array(file.size)
  let done = 0
  let lastReport = 0
  for (;;) {
    const { value, done: finished } = await reader.read()
    if (finished) break
    if (done + value.byteLength > bytes.length) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, done + value.byteLength))
      grown.set(bytes.subarray(0, done))
      bytes = grown
    }
    bytes.set(value, done)
    done += value.byteLength
    if (done - lastReport > 4 << 20) {
      progress('reading', done, file.size)
      lastReport = done
    }
  }
  progress('reading', file.size, file.size)
  return done === bytes.length ? bytes : bytes.subarray(0, done)
}
