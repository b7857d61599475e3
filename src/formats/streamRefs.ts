import type { Attempt } from '../core/session'
import type { LoadedSource } from './types'

/**
 * A stream's address in a loaded source, as it appears in the URL (`#s=t1.s2.a1`): the attempt id for the first
 * session, `<session>/<attempt id>` for later ones (a zip's subagent sessions).
 */
export function streamKey(sessionIndex: number, attempt: Attempt): string {
  return sessionIndex === 0 ? attempt.id : `${sessionIndex}/${attempt.id}`
}

export type StreamEntry = { readonly key: string; readonly sessionIndex: number; readonly attempt: Attempt }

/** Every stream of a source, in outline order. */
export function listStreams(source: LoadedSource | null): StreamEntry[] {
  if (source === null) return []
  return source.sessions.flatMap((session, sessionIndex) =>
    session.streams.map((attempt) => ({ key: streamKey(sessionIndex, attempt), sessionIndex, attempt })),
  )
}

export function findStream(source: LoadedSource | null, key: string | null): StreamEntry | null {
  if (key === null) return null
  return listStreams(source).find((entry) => entry.key === key) ?? null
}
