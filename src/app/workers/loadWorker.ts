/// <reference lib="webworker" />
import type { LoadProgress, LoadRequest, LoadResponse } from './loadMessages'
import { readInput } from './readInput'
import { loadSqlJsBrowser } from './sqlJsBrowser'
import { partTransferables, splitSource } from './transfer'

// A thin entry point over readInput: read with progress, parse, post the result back in parts.
const scope = self as unknown as DedicatedWorkerGlobalScope

function post(message: LoadResponse, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer)
}

function progress(phase: LoadProgress['phase'], done: number, total: number): void {
  post({ type: 'progress', progress: { phase, done, total } })
}

scope.onmessage = async (event: MessageEvent<LoadRequest>) => {
  try {
    const source = await readInput(event.data, progress, loadSqlJsBrowser)
    const { shell, plan, parts } = splitSource(source)
    post({ type: 'shell', source: shell, plan, parts: parts.length })
    for (const next of parts) {
      const part = next()
      post({ type: 'part', part }, partTransferables(part))
    }
    post({ type: 'done' })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
