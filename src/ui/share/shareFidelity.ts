import type { ReplayEngine } from '../../core/ReplayEngine'
import { compareRecorded, type Attempt } from '../../core/session'
import type { Diagnostic } from '../../formats/types'
import { findingList, recordedMismatch } from '../findings/buildFindings'

/**
 * What a person looking at one attempt sees that a share link must carry unchanged: the Findings list
 * (`recorded-mismatch` included), the recorded message and the comparison with it, the finish and usage of the
 * whole stream, the reader's diagnostics about that attempt, and the cursor. The sender's view and the view of
 * whoever opens the link are built by the same function over what each side has, so "the link reproduces what
 * the sender saw" is a plain equality.
 */
export type StreamView = {
  /** `error recorded-mismatch seq 102: …`, in the Findings panel's order. */
  readonly findings: readonly string[]
  readonly recorded: { readonly seq: number; readonly interrupted: boolean; readonly match: boolean } | null
  readonly finish: string
  readonly hasFinish: boolean
  readonly usage: string | null
  readonly diagnostics: readonly string[]
  /** Cursor in the full stream's positions. */
  readonly k: number
}

/**
 * The view of `attempt` in `source` with its engine, at cursor `k` (in the engine's positions; `offset` is the
 * window's first position, 0 otherwise). `diagnostics` are the ones shown beside the attempt.
 */
export function streamView(
  attempt: Attempt,
  engine: ReplayEngine,
  k: number,
  diagnostics: readonly Diagnostic[],
  offset = 0,
): StreamView {
  // One comparison per view (the dialog builds the sender's and the opener's once per option).
  const comparison = compareRecorded(attempt)
  const list = findingList(engine.findings, recordedMismatch(attempt, comparison))
  const findings: string[] = []
  for (let position = 0; position < list.length; position++) {
    const { severity, rule, seq, message } = list.at(position)
    findings.push(`${severity} ${rule} seq ${seq}: ${message}`)
  }
  const { result } = engine
  return {
    findings,
    recorded:
      attempt.recorded === null || comparison === null
        ? null
        : { seq: attempt.recorded.seq, interrupted: attempt.recorded.interrupted, match: comparison.match },
    finish: JSON.stringify(result.finish),
    hasFinish: result.hasFinish,
    usage: result.usage === null ? null : JSON.stringify(result.usage),
    diagnostics: diagnostics.map((d) => `${d.severity}: ${d.message}`),
    k: offset + k,
  }
}

/** What a link would change in what its opener sees, in words for the Share dialog; empty lists: nothing. */
export type FidelityReport = {
  /** Finding rules the sender sees that the opener would not (`recorded-mismatch`). */
  readonly lose: readonly string[]
  /** Finding rules the opener would see that the sender does not (`finish-missing`). */
  readonly add: readonly string[]
  /** Other things that would read differently: `the recorded message`, `the finish`, `the usage`, `diagnostics`. */
  readonly change: readonly string[]
}

/** Lost and added findings by rule (counted: two of a rule against one is one lost), and what else differs. */
export function compareViews(sender: StreamView, recipient: StreamView): FidelityReport {
  const lose: string[] = []
  const add: string[] = []
  const remaining = [...recipient.findings]
  for (const finding of sender.findings) {
    const at = remaining.indexOf(finding)
    if (at >= 0) remaining.splice(at, 1)
    else lose.push(ruleOf(finding))
  }
  for (const finding of remaining) add.push(ruleOf(finding))
  const change: string[] = []
  if (JSON.stringify(sender.recorded) !== JSON.stringify(recipient.recorded))
    change.push('the recorded message')
  if (sender.finish !== recipient.finish || sender.hasFinish !== recipient.hasFinish)
    change.push('the finish')
  if (sender.usage !== recipient.usage) change.push('the usage')
  if (sender.diagnostics.some((line) => !recipient.diagnostics.includes(line))) change.push('diagnostics')
  if (sender.k !== recipient.k) change.push('the cursor')
  // A finding whose text changed (another seq) is both lost and added: name it once, as changed.
  const both = lose.filter((rule) => add.includes(rule))
  return {
    lose: unique(lose.filter((rule) => !both.includes(rule))),
    add: unique(add.filter((rule) => !both.includes(rule))),
    change: [...unique(both).map((rule) => `${rule} (its text)`), ...change],
  }
}

/** "this link would lose: recorded-mismatch; would add: finish-missing" — null when nothing differs. */
export function describeFidelity(report: FidelityReport): string | null {
  const parts: string[] = []
  if (report.lose.length > 0) parts.push(`would lose: ${report.lose.join(', ')}`)
  if (report.add.length > 0) parts.push(`would add: ${report.add.join(', ')}`)
  if (report.change.length > 0) parts.push(`would change: ${report.change.join(', ')}`)
  return parts.length === 0 ? null : `this link ${parts.join('; ')}`
}

function ruleOf(line: string): string {
  return line.split(' ')[1] ?? line
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)]
}
