import type { StreamChunk } from '../../core/protocol'

/**
 * An incremental wire → StreamChunk translator, the shape both SSE dialects share so live capture (issue 6) can
 * feed it a real HTTP stream event by event:
 * - `push(data)` takes one SSE event's data (the joined `data:` lines) and returns the chunks it became;
 * - `end('done' | 'eof')` closes the stream: `done` at the dialect's end marker, `eof` when the body ended first;
 * - after a finish chunk (end marker, failure) `finished` is true and further pushes return `[]`;
 * - `takeNotes()` returns (and forgets) what the last calls could not map, for diagnostics; translation never throws.
 */
export type WireTranslator = {
  push(data: string, event?: string): StreamChunk[]
  end(reason: 'done' | 'eof'): StreamChunk[]
  readonly finished: boolean
  takeNotes(): readonly TranslatorNote[]
}

/** Something a translator could not map, or noticed: grouped by `key` and counted by the reader. */
export type TranslatorNote = {
  readonly key: string
  readonly severity: 'error' | 'warning' | 'info'
  readonly message: string
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function describeParseError(data: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error)
  const shown = data.length > 60 ? `${data.slice(0, 60)}…` : data
  return `${reason} in ${JSON.stringify(shown)}`
}

/** What `takeNotes()` returns when there is nothing to say (no allocation per event). */
export const NO_NOTES: readonly TranslatorNote[] = Object.freeze([])
