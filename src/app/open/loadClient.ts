import { loadSource } from '../../formats/load'
import type { LoadedSource } from '../../formats/types'
import type { LoadProgress, LoadRequest, LoadResponse } from '../workers/loadMessages'
import { fitToBudget, refuseInput } from '../workers/budget'
import { SourceAssembler } from '../workers/transfer'

export type LoadInput =
  { readonly file: Blob; readonly name: string } | { readonly text: string; readonly name: string }

/**
 * Reads and parses an input off the main thread (a module Web Worker), reporting progress. Falls back to the
 * calling thread where there are no workers (unit tests in Node). Either way an input over the browser limits
 * (`workers/budget.ts`) is refused before it is read, or its streams are cut with a diagnostic naming the limit. Only the newest load's result is kept by the
 * store; an older one still finishing is simply dropped.
 */
export function loadInBackground(
  input: LoadInput,
  onProgress: (progress: LoadProgress) => void,
): Promise<LoadedSource> {
  // Refused before anything is copied to a worker (the worker checks again: it may be handed a request directly).
  const refused = refuseInput('text' in input ? input.text.length : input.file.size, input.name)
  if (refused !== null) return Promise.reject(new Error(refused))
  if (typeof Worker === 'undefined') {
    return ('text' in input ? Promise.resolve(input.text) : input.file.text()).then((text) =>
      fitToBudget(loadSource(text, input.name)),
    )
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../workers/loadWorker.ts', import.meta.url), { type: 'module' })
    let assembler: SourceAssembler | null = null
    let expected = 0
    let received = 0
    worker.onmessage = (event: MessageEvent<LoadResponse>) => {
      const message = event.data
      switch (message.type) {
        case 'progress':
          onProgress(message.progress)
          return
        case 'shell':
          assembler = new SourceAssembler(message.source, message.plan)
          expected = message.parts
          return
        case 'part':
          assembler?.add(message.part)
          received += 1
          if (received % 20 === 0) onProgress({ phase: 'transferring', done: received, total: expected })
          return
        case 'done':
          worker.terminate()
          if (assembler === null) reject(new Error('the loading worker sent no source'))
          else resolve(assembler.finish())
          return
        case 'failed':
          worker.terminate()
          reject(new Error(message.message))
          return
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
