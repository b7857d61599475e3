import { useMemo } from 'react'
import type { Attempt } from '../../core/session'
import { findStream } from '../../formats/streamRefs'
import { useChunkscope } from '../StoreContext'

/** The attempt of the selected stream, looked up once per (source, stream) rather than per step. */
export function useSelectedAttempt(): Attempt | null {
  const source = useChunkscope((s) => s.source)
  const key = useChunkscope((s) => s.streamKey)
  return useMemo(() => findStream(source, key)?.attempt ?? null, [source, key])
}
