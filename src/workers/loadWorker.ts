/// <reference lib="webworker" />
import { loadSource } from '../formats/load'
import type { LoadProgress, LoadRequest, LoadResponse } from './loadMessages'
import { splitSource } from './transfer'

// A thin entry point over formats/: read bytes with progress, parse, post the result back.
const scope = self as unknown as DedicatedWorkerGlobalScope

function post(message: LoadResponse): void {
  scope.postMessage(message)
}

function progress(phase: LoadProgress['phase'], done: number, total: number): void {
  post({ type: 'progress', progress: { phase, done, total } })
}

/** Reads a Blob as UTF-8 text in pieces, so a large file shows reading progress. */
async function readText(file: Blob): Promise<string> {
  const reader = file.stream().getReader()
  const decoder = new TextDecoder()
  const parts: string[] = []
  let done = 0
  let lastReport = 0
  for (;;) {
    const { value, done: finished } = await reader.read()
    if (finished) break
    done += value.byteLength
    parts.push(decoder.decode(value, { stream: true }))
    if (done - lastReport > 4 << 20) {
      progress('reading', done, file.size)
      lastReport = done
    }
  }
  parts.push(decoder.decode())
  progress('reading', file.size, file.size)
  return parts.join('')
}

scope.onmessage = async (event: MessageEvent<LoadRequest>) => {
  const request = event.data
  try {
    const text = request.type === 'load-file' ? await readText(request.file) : request.text
    progress('parsing', 0, text.length)
    const source = loadSource(text, request.name)
    progress('parsing', text.length, text.length)
    const { shell, plan, parts } = splitSource(source)
    post({ type: 'shell', source: shell, plan, parts: parts.length })
    for (const part of parts) post({ type: 'part', part })
    post({ type: 'done' })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
