import { analyzeStream, type StreamResult } from '../../core/analyzeStream'
import { compareRecorded, type Attempt, type RecordedComparison } from '../../core/session'
import type { Tone } from './describeEvent'

/** Attempts longer than this are analysed only once selected (their engine's result is reused then). */
export const LAZY_CHUNKS = 200_000

/** How an attempt's stored message relates to it (PROTOCOL.md §6). */
export type RecordedMark =
  /** The linked message equals `blocks()`. */
  | { readonly kind: 'match' }
  | { readonly kind: 'mismatch' }
  /** An `interrupted: true` message, compared with `interruptedBlocks()`. */
  | { readonly kind: 'interrupted'; readonly match: boolean }
  /** No message cites it: a failed attempt, a cancel with nothing to keep, orphan chunks. */
  | { readonly kind: 'uncited' }
  /** A bare chunk file: there is no recorded message to compare with. */
  | { readonly kind: 'none' }

export type AttemptSummary = {
  /** `stop`, `tool-calls`, `max-tokens`, `error`, `aborted`, `no finish`, or `streaming` (a live capture). */
  readonly finish: string
  /** The failure code of an error/aborted finish. */
  readonly code: string | null
  readonly tone: Tone
  /** Error findings, `recorded-mismatch` included (it is an error finding of the session, §5). */
  readonly errors: number
  readonly warnings: number
  readonly recorded: RecordedMark
}

type ResultPart = Pick<StreamResult, 'finish' | 'hasFinish' | 'findings'>

/**
 * @example
 * summarizeAttempt(attempt, analyzeStream(attempt.chunks), compareRecorded(attempt))
 * // { finish: 'error', code: 'EMPTY_RESPONSE', tone: 'error', errors: 0, warnings: 0, recorded: { kind: 'uncited' } }
 */
export function summarizeAttempt(
  attempt: Attempt,
  result: ResultPart,
  comparison: RecordedComparison | null,
  streaming = false,
): AttemptSummary {
  let errors = 0
  let warnings = 0
  for (const finding of result.findings) {
    if (finding.severity === 'error') errors += 1
    else if (finding.severity === 'warning') warnings += 1
  }
  const recorded = markOf(attempt, comparison)
  if (recorded.kind === 'mismatch' || (recorded.kind === 'interrupted' && !recorded.match)) errors += 1
  const finish = result.finish
  // A live capture still arriving: no finish yet and no message yet is the normal state, not a warning.
  if (!result.hasFinish && streaming)
    return { finish: 'streaming', code: null, tone: 'muted', errors, warnings, recorded: { kind: 'none' } }
  if (!result.hasFinish)
    return { finish: 'no finish', code: null, tone: 'warning', errors, warnings, recorded }
  const code = 'failure' in finish ? (finish.failure.code ?? null) : null
  const tone: Tone =
    finish.kind === 'error'
      ? 'error'
      : finish.kind === 'stop' || finish.kind === 'tool-calls'
        ? 'muted'
        : 'warning'
  return { finish: String(finish.kind), code, tone, errors, warnings, recorded }
}

function markOf(attempt: Attempt, comparison: RecordedComparison | null): RecordedMark {
  if (attempt.kind === 'stream') return { kind: 'none' }
  if (attempt.recorded === null || comparison === null) return { kind: 'uncited' }
  if (attempt.recorded.interrupted) return { kind: 'interrupted', match: comparison.match }
  return comparison.match ? { kind: 'match' } : { kind: 'mismatch' }
}

// Caches keyed on the attempt object: a new source brings new attempts, and the old entries go with it.
const summaries = new WeakMap<Attempt, AttemptSummary>()
const comparisons = new WeakMap<Attempt, RecordedComparison | null>()

/** `compareRecorded` once per attempt (the Outline and the Findings panel both ask). */
export function recordedComparison(attempt: Attempt): RecordedComparison | null {
  if (comparisons.has(attempt)) return comparisons.get(attempt) ?? null
  const comparison = compareRecorded(attempt)
  comparisons.set(attempt, comparison)
  return comparison
}

/**
 * The attempt's summary, computed once: from the selected stream's engine result when given (no second pass),
 * else with `analyzeStream` for attempts up to {@link LAZY_CHUNKS} chunks; null for a longer one not yet selected.
 */
const engineSummaries = new WeakMap<ResultPart, AttemptSummary>()

export function attemptSummary(
  attempt: Attempt,
  engineResult?: ResultPart,
  streaming = false,
): AttemptSummary | null {
  // The selected stream's engine knows best: a window link's engine starts from a carried state that a fresh
  // pass over the attempt's chunks does not have. Its summary is cached per engine result.
  if (engineResult !== undefined) {
    const fromEngine = engineSummaries.get(engineResult)
    if (fromEngine) return fromEngine
    const summary = summarizeAttempt(attempt, engineResult, recordedComparison(attempt), streaming)
    engineSummaries.set(engineResult, summary)
    return summary
  }
  const cached = summaries.get(attempt)
  if (cached) return cached
  if (engineResult === undefined && attempt.chunks.length > LAZY_CHUNKS) return null
  const result = engineResult ?? analyzeStream(attempt.chunks)
  const summary = summarizeAttempt(attempt, result, recordedComparison(attempt))
  summaries.set(attempt, summary)
  return summary
}
