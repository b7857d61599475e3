import type { StreamResult } from './analyzeStream'
import type { Attempt, RecordedComparison } from './session'

/** How an attempt reads in a list: quiet when it ended normally, a warning or an error otherwise. */
export type SummaryTone = 'muted' | 'warning' | 'error'

/** How an attempt's stored message relates to it (docs/protocol.md §6). */
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
  readonly tone: SummaryTone
  /** Error findings, `recorded-mismatch` included (it is an error finding of the session, §5). */
  readonly errors: number
  readonly warnings: number
  readonly recorded: RecordedMark
}

export type ResultPart = Pick<StreamResult, 'finish' | 'hasFinish' | 'findings'>

/**
 * One line's worth about an attempt (the Outline's badge): how it finished, how many findings, whether its stored
 * message matches. Pure; the app's attempt results compute it once per attempt.
 *
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
  const tone: SummaryTone =
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
