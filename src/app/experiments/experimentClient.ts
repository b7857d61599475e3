import type { ExperimentRequest, ExperimentResponse } from './experimentMessages'
import { runExperiment } from './runExperiment'

export type RunningExperiment = {
  /** The final message: `minimized`, `chaos` or `failed`; `cancelled` when cancel came first. */
  readonly done: Promise<ExperimentResponse | { readonly type: 'cancelled' }>
  /** Stops the worker at once: nothing more is posted. */
  cancel(): void
}

/**
 * Runs an experiment in its own module worker, off the page's thread, with progress; `cancel` terminates it.
 * Without workers (unit tests in Node) it runs inline, after a macrotask so the caller can show it started.
 */
export function startExperiment(
  request: ExperimentRequest,
  onProgress: (progress: { steps: number; size: number }) => void,
): RunningExperiment {
  let finish: (message: ExperimentResponse | { type: 'cancelled' }) => void = () => {}
  const done = new Promise<ExperimentResponse | { type: 'cancelled' }>((resolve) => (finish = resolve))
  const take = (message: ExperimentResponse) => {
    if (message.type === 'progress') onProgress(message)
    else finish(message)
  }
  if (typeof Worker === 'undefined') {
    let cancelled = false
    setTimeout(() => {
      if (!cancelled) runExperiment(request, take)
    }, 0)
    return {
      done,
      cancel: () => {
        cancelled = true
        finish({ type: 'cancelled' })
      },
    }
  }
  const worker = new Worker(new URL('../workers/experimentsWorker.ts', import.meta.url), { type: 'module' })
  worker.onmessage = (event: MessageEvent<ExperimentResponse>) => {
    take(event.data)
    if (event.data.type !== 'progress') worker.terminate()
  }
  worker.onerror = (event) => {
    worker.terminate()
    finish({ type: 'failed', message: event.message || 'the experiments worker stopped' })
  }
  worker.postMessage(request)
  return {
    done,
    cancel: () => {
      worker.terminate()
      finish({ type: 'cancelled' })
    },
  }
}
