import { findStream, type StreamEntry } from '../../formats/streamRefs'
import { useChunkscope } from '../StoreContext'

/** The selected stream's entry (its attempt, chunks and recorded message), or null. */
export function useCurrentStream(): StreamEntry | null {
  const source = useChunkscope((s) => s.source)
  const key = useChunkscope((s) => s.streamKey)
  return findStream(source, key)
}
