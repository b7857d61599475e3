/// <reference lib="webworker" />
import { loadSource } from '../../formats/load'
import { decodeTextInput, isBinaryContainer, loadBytes, withDiagnostics } from '../../formats/loadBytes'
import { fitToBudget, refuseInput } from './budget'
import type { LoadProgress, LoadRequest, LoadResponse } from './loadMessages'
import { loadSqlJsBrowser } from './sqlJsBrowser'
import { splitSource } from './transfer'

// A thin entry point over formats/: read bytes with progress, parse, post the result back.
const scope = self as unknown as DedicatedWorkerGlobalScope

function post(message: LoadResponse): void {
  scope.postMessage(message)
}

function progress(phase: LoadProgress['phase'], done: number, total: number): void {
  post({ type: 'progress', progress: { phase, done, total } })
}

/** Reads a Blob's bytes in pieces into one buffer, so a large file shows reading progress. */
async function readBytes(file: Blob): Promise<Uint8Array> {
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

scope.onmessage = async (event: MessageEvent<LoadRequest>) => {
  const request = event.data
  try {
    // Refused before a byte is read: the worker shares the tab's memory, so an oversized input would hurt the page.
    const refused = refuseInput(
      request.type === 'load-file' ? request.file.size : request.text.length,
      request.name,
    )
    if (refused !== null) {
      post({ type: 'failed', message: refused })
      return
    }
    // Files go through loadBytes, which recognises the binary containers (zstd, zip, SQLite) by their magic bytes.
    // A text file is decoded first and its bytes dropped before parsing, so the worker never holds the bytes, the
    // text and the parsed events at once.
    let bytes: Uint8Array | null = request.type === 'load-file' ? await readBytes(request.file) : null
    const size = bytes === null ? (request.type === 'load-text' ? request.text.length : 0) : bytes.length
    // Binary containers and one-piece formats report no progress (total 0: an indeterminate bar, not a stuck 0%);
    // line-based readers (session logs, NDJSON) say how far into the text they are.
    progress('parsing', 0, 0)
    let source
    if (bytes !== null && isBinaryContainer(bytes)) {
      source = await loadBytes(bytes, request.name, { sqlJs: loadSqlJsBrowser })
    } else {
      const decoded =
        bytes === null
          ? { text: request.type === 'load-text' ? request.text : '', diagnostics: [] }
          : decodeTextInput(bytes)
      bytes = null
      const text = decoded.text
      source = withDiagnostics(
        loadSource(text, request.name, (done, total) => progress('parsing', done, total)),
        decoded.diagnostics,
      )
    }
    progress('parsing', size, size)
    // Cut before the transfer: what the page cannot afford is never copied to it.
    const { shell, plan, parts } = splitSource(fitToBudget(source))
    post({ type: 'shell', source: shell, plan, parts: parts.length })
    for (const part of parts) post({ type: 'part', part })
    post({ type: 'done' })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
