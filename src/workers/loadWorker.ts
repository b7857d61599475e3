/// <reference lib="webworker" />
import { loadSource } from '../formats/load'
import { loadBytes } from '../formats/loadBytes'
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
    // Files go through loadBytes, which recognises the binary containers (zstd, zip, SQLite) by their magic bytes.
    const input = request.type === 'load-file' ? await readBytes(request.file) : request.text
    // Only the size is needed after parsing: the raw bytes are not referenced while the result is split and posted.
    const size = input.length
    progress('parsing', 0, size)
    const source =
      typeof input === 'string'
        ? loadSource(input, request.name)
        : await loadBytes(input, request.name, { sqlJs: loadSqlJsBrowser })
    progress('parsing', size, size)
    const { shell, plan, parts } = splitSource(source)
    post({ type: 'shell', source: shell, plan, parts: parts.length })
    for (const part of parts) post({ type: 'part', part })
    post({ type: 'done' })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
