import type { SqlJsStatic } from 'sql.js'
import type { LoadedSource } from '../../formats/types'
import type { LoadProgress, LoadRequest, LoadResponse } from '../workers/loadMessages'
import { refuseInput } from '../workers/budget'
import { serveReads } from '../workers/rangeReads'
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
    const worker = takeWorker()
    const receiver = new LoadReceiver(onProgress)
    const reads = 'file' in input ? new MessageChannel() : null
    const ended = () => {
      reads?.port1.close()
      worker.terminate()
      whenIdle(prepareLoadWorker)
    }
    worker.onmessage = (event: MessageEvent<LoadResponse>) => {
      const received = receiver.receive(event.data)
      if (received.kind === 'pending') return
      ended()
      if (received.kind === 'done') resolve(received.source)
      else reject(new Error(received.message))
    }
    worker.onerror = (event) => {
      ended()
      receiver.stop()
      reject(new Error(event.message || 'the loading worker failed'))
    }
    if (reads === null || request.type !== 'load-file') worker.postMessage(request)
    else {
      serveReads(request.file, reads.port1)
      worker.postMessage({ ...request, reads: reads.port2 }, [reads.port2])
    }
  })
}

/**
 * A loading worker started before it is needed, so that opening a file does not wait for the worker's script to
 * load and compile (about a tenth of a second): one is kept ready, started when the opener is made and again
 * after each load (each load has a fresh worker, whose memory goes with it).
 */
let spare: { readonly worker: Worker; failed: boolean } | null = null

export function prepareLoadWorker(): void {
  if (typeof Worker === 'undefined' || spare !== null) return
  const ready = { worker: startWorker(), failed: false }
  // A worker whose script failed to start is not handed out: the next load starts its own and reports its error.
  ready.worker.onerror = () => {
    ready.failed = true
  }
  spare = ready
}

function takeWorker(): Worker {
  const ready = spare
  spare = null
  if (ready === null || ready.failed) {
    ready?.worker.terminate()
    return startWorker()
  }
  return ready.worker
}

function startWorker(): Worker {
  return new Worker(new URL('../workers/loadWorker.ts', import.meta.url), { type: 'module' })
}

function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 })
  else setTimeout(run, 500)
}
