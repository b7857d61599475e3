import { useCallback, useEffect, useRef } from 'react'
import { ChunkSearch } from '../../app/search/chunkSearch'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { inputPending, whenQuiet } from '../idleSlices'
import { searchFields } from './describeChunk'

/**
 * Waits until the user is not stepping, then for an idle period (after a frame, when no input is pending) where the
 * browser has them, and resolves with the time left in it (none when it came by the timeout: the slice then runs
 * its own length). Like the other background work (idleSlices.ts), indexing leaves a stepping page the whole
 * machine: on two cores a slice run between two steps takes the CPU the step's raster and draw need.
 */
function idle(): Promise<number | void> {
  return new Promise((resolve) =>
    whenQuiet(
      (deadline) =>
        resolve(
          deadline === undefined || deadline.didTimeout
            ? undefined
            : Math.max(MIN_SLICE_MS, deadline.timeRemaining()),
        ),
      200,
    ),
  )
}

/** The least an idle slice gets, however little of the idle period is left (it still makes progress). */
const MIN_SLICE_MS = 2

/**
 * Indexing starts once the engine has stayed this long: a live capture replaces its engine on every update, and
 * each replacement would otherwise index again in a new worker.
 */
const SETTLE_MS = 300

/**
 * The search of the engine's chunks (a worker each), ended with the engine. It is made when first asked for, or
 * once the engine has settled, so indexing (in idle slices) is usually done before the first query.
 */
export function useChunkSearch(engine: ReplayEngine): () => ChunkSearch {
  const ref = useRef<{ readonly engine: ReplayEngine; readonly search: ChunkSearch } | null>(null)
  const get = useCallback(() => {
    if (ref.current?.engine !== engine) {
      ref.current?.search.dispose()
      ref.current = {
        engine,
        search: new ChunkSearch(engine.chunks, searchFields, { yieldToHost: idle, inputPending }),
      }
    }
    return ref.current.search
  }, [engine])
  useEffect(() => {
    const timer = setTimeout(get, SETTLE_MS)
    return () => {
      clearTimeout(timer)
      if (ref.current?.engine === engine) {
        ref.current.search.dispose()
        ref.current = null
      }
    }
  }, [engine, get])
  return get
}
