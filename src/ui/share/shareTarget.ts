import type { ExportTarget } from '../../formats/export'
import type { ShareInput } from '../../formats/share/payload'
import type { ChunkscopeState } from '../../app/store'
import { findStream } from '../../formats/streamRefs'

/** What the Share dialog shares: the selected stream of the loaded source, at the cursor. Null: nothing to share. */
export function shareInputOf(state: Pick<ChunkscopeState, 'source' | 'streamKey' | 'k'>): ShareInput | null {
  const entry = findStream(state.source, state.streamKey)
  if (state.source === null || entry === null) return null
  return {
    source: state.source,
    sessionIndex: entry.sessionIndex,
    attempt: entry.attempt,
    streamKey: entry.key,
    k: state.k,
  }
}

/** What the Export menu writes: the selected stream, and its session for the session log. */
export function exportTargetOf(state: Pick<ChunkscopeState, 'source' | 'streamKey'>): ExportTarget | null {
  const entry = findStream(state.source, state.streamKey)
  const session = state.source?.sessions[entry?.sessionIndex ?? 0]
  if (state.source === null || entry === null || session === undefined) return null
  return {
    session,
    attempt: entry.attempt,
    ...(state.source.name !== undefined ? { name: state.source.name } : {}),
    ...(state.source.derived !== undefined ? { derived: state.source.derived } : {}),
  }
}
