import type { Diagnostic, LoadedSource } from '../types'

/** Longer labels are cut: the label is a sentence about the edits, not a place for data (it came from a URL). */
export const MAX_DERIVED_LABEL = 500

/**
 * How a derived stream was made (`edited: 2 edits (drop #4, move #2 → #3)`): payload field `derived` (optional; old
 * readers ignore it, v2 links carry it with the rest of the payload), so every scope of a share — the whole log,
 * one attempt, a window — opens labelled as edited, not only the scope whose log header says so
 * (docs/protocol.md §13). It names positions and chunk types only, so a redacted share keeps it.
 */
export function derivedField(source: LoadedSource): { derived?: string } {
  return source.derived === undefined ? {} : { derived: source.derived }
}

/** The label in an opened payload: a string is kept (cut to MAX_DERIVED_LABEL); anything else is a warning. */
export function withSharedDerived(source: LoadedSource, value: unknown): LoadedSource {
  if (value === undefined) return source
  if (typeof value !== 'string' || value.length === 0) {
    const diagnostic: Diagnostic = {
      severity: 'warning',
      message: `the link's "derived" label is ${typeof value === 'string' ? 'empty' : 'not text'}: opened without it`,
    }
    return { ...source, diagnostics: [...source.diagnostics, diagnostic] }
  }
  const derived = value.length > MAX_DERIVED_LABEL ? `${value.slice(0, MAX_DERIVED_LABEL)}…` : value
  return { ...source, derived }
}
