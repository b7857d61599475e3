import { chunkChaos } from '../../core/experiments/chunkChaos'
import { minimizeStream } from '../../core/experiments/minimize'
import { wireChaos } from '../../formats/sse/wireChaos'
import { harnessPipeline } from '../../formats/sse/wireReads'
import type { ExperimentRequest, ExperimentResponse } from './experimentMessages'

/** Runs one experiment where it is called (the worker, or the page where there are no workers), posting as it goes. */
export function runExperiment(request: ExperimentRequest, post: (message: ExperimentResponse) => void): void {
  try {
    if (request.kind === 'minimize') {
      let last = 0
      const result = minimizeStream(request.chunks, request.recorded, request.property, {
        onProgress: ({ steps, size }) => {
          if (steps - last < 5) return
          last = steps
          post({ type: 'progress', steps, size })
        },
      })
      post({ type: 'minimized', result })
      return
    }
    const chunks = chunkChaos(request.chunks, { seed: request.seed })
    const wire =
      request.wire === null
        ? null
        : wireChaos(request.wire.bytes, harnessPipeline(request.wire.dialect), { seed: request.seed })
    post({
      type: 'chaos',
      result: {
        chunks: { ...chunks, variants: chunks.variants.map(({ chunks: _, ...rest }) => rest) },
        wire,
      },
    })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
