import { useEffect, useRef, type RefObject } from 'react'
import { ChunkSearch } from '../../app/search/chunkSearch'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { searchFields } from './describeChunk'

/** Waits for an idle period (after a frame, when no input is pending) where the browser has them. */
function idle(): Promise<void> {
  return new Promise((resolve) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => resolve(), { timeout: 200 })
      : setTimeout(resolve, 0),
  )
}

/**
 * The search of the engine's chunks (a worker each), started when the engine appears (indexing in idle slices) and
 * ended with it. A ref: the search box's effects, declared after this hook, see the new engine's search.
 */
export function useChunkSearch(engine: ReplayEngine): RefObject<ChunkSearch | null> {
  const ref = useRef<ChunkSearch | null>(null)
  useEffect(() => {
    const created = new ChunkSearch(engine.chunks, searchFields, { yieldToHost: idle })
    ref.current = created
    return () => {
      created.dispose()
      if (ref.current === created) ref.current = null
    }
  }, [engine])
  return ref
}
