import type { SqlJsStatic } from 'sql.js'
import type { LoadedSource } from '../../formats/types'
import type { LoadProgress, LoadRequest, LoadResponse } from '../workers/loadMessages'
import { refuseInput } from '../workers/budget'
import { readInput } from '../workers/readInput'
import { LoadReceiver } from './loadReceiver'

export type LoadInput =
  { readonly file: Blob; readonly name: string } | { readonly text: string; readonly name: string }

/**
 * Reads and parses an input off the main thread (a module Web Worker), reporting progress. Where there are no
 * workers (unit tests in Node) the calling thread runs the worker's own {@link readInput}, binary containers
 * included (`sqlJs` starts SQLite there; the worker brings its own). Either way an input over the browser limits
 * (`workers/budget.ts`) is refused before it is read, or its streams are cut with a diagnostic naming the limit.
 * Only the newest load's result is kept by the opener; an older one still finishing is simply dropped.
 */
export function loadInBackground(
  input: LoadInput,
  onProgress: (progress: LoadProgress) => void,
  options: { readonly sqlJs?: () => Promise<SqlJsStatic> } = {},
): Promise<LoadedSource> {
  // Refused before anything is copied to a worker (the worker checks again: it may be handed a request directly).
  const refused = refuseInput('text' in input ? input.text.length : input.file.size, input.name)
  if (refused !== null) return Promise.reject(new Error(refused))
  const request: LoadRequest =
    'text' in input ? { type: 'load-text', ...input } : { type: 'load-file', ...input }
  if (typeof Worker === 'undefined') {
    return readInput(request, (phase, done, total) => onProgress({ phase, done, total }), options.sqlJs)
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../workers/loadWorker.ts', import.meta.url), { type: 'module' })
    const receiver = new LoadReceiver(onProgress)
    worker.onmessage = (event: MessageEvent<LoadResponse>) => {
      const received = receiver.receive(event.data)
      if (received.kind === 'pending') return
      worker.terminate()
      if (received.kind === 'done') resolve(received.source)
      else reject(new Error(received.message))
    }
    worker.onerror = (event) => {
      worker.terminate()
      receiver.stop()
      reject(new Error(event.message || 'the loading worker failed'))
    }
    worker.postMessage(request)
  })
}
