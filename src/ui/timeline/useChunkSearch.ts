import { useCallback, useEffect, useRef } from 'react'
import { ChunkSearch } from '../../app/search/chunkSearch'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { inputPending } from '../idleSlices'
import { searchFields } from './describeChunk'

/**
 * Waits for an idle period (after a frame, when no input is pending) where the browser has them, and resolves with
 * the time left in it (none when it came by the timeout: the slice then runs its own length).
 */
function idle(): Promise<number | void> {
  return new Promise((resolve) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(
          (deadline) =>
            resolve(deadline.didTimeout ? undefined : Math.max(MIN_SLICE_MS, deadline.timeRemaining())),
          { timeout: 200 },
        )
      : setTimeout(resolve, 0),
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
