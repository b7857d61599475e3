import { loadSource } from '../formats/load'
import type { LoadedSource } from '../formats/types'
import type { LoadProgress, LoadRequest, LoadResponse } from '../workers/loadMessages'

export type LoadInput =
  { readonly file: Blob; readonly name: string } | { readonly text: string; readonly name: string }

/**
 * Reads and parses an input off the main thread (a module Web Worker), reporting progress. Falls back to the
 * calling thread where there are no workers (unit tests in Node). Only the newest load's result is kept by the
 * store; an older one still finishing is simply dropped.
 */
export function loadInBackground(
  input: LoadInput,
  onProgress: (progress: LoadProgress) => void,
): Promise<LoadedSource> {
  if (typeof Worker === 'undefined') {
    return 'text' in input
      ? Promise.resolve(loadSource(input.text, input.name))
      : input.file.text().then((text) => loadSource(text, input.name))
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../workers/loadWorker.ts', import.meta.url), { type: 'module' })
    worker.onmessage = (event: MessageEvent<LoadResponse>) => {
      const message = event.data
      if (message.type === 'progress') onProgress(message.progress)
      else {
        worker.terminate()
        if (message.type === 'loaded') resolve(message.source)
        else reject(new Error(message.message))
      }
    }
    worker.onerror = (event) => {
      worker.terminate()
      reject(new Error(event.message || 'the loading worker failed'))
    }
    const request: LoadRequest =
      'text' in input ? { type: 'load-text', ...input } : { type: 'load-file', ...input }
    worker.postMessage(request)
  })
}
