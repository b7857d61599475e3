import type { Attempt, Session } from '../core/session'

/**
 * A session's outline as text, for inline snapshots: turns → steps → attempts, each attempt with its kind, chunk
 * seqs (runs compressed as `9-36`), how it ended and the message linked to it. Attempts without a (turn, step)
 * are listed after the turns.
 *
 * @example
 * turn 1 end@20 completed
 *   step 1
 *     t1.s1.a1 first [9-10] finish error EMPTY_RESPONSE
 *     t1.s1.a2 retry(dbe1…) [13-17] finish stop → message 18
 */
export function printSession(session: Session): string {
  const out: string[] = []
  for (const turn of session.turns) {
    const start = turn.start ? '' : ' (no turn/start)'
    const end = turn.end ? ` end@${turn.end.seq} ${kindOf(turn.end.reason)}` : ''
    out.push(`turn ${turn.turn}${start}${end}`)
    for (const step of turn.steps) {
      out.push(`  step ${step.step}`)
      for (const attempt of step.attempts) out.push(`    ${printAttempt(attempt)}`)
    }
  }
  for (const attempt of session.streams) {
    if (attempt.turn === null || attempt.step === null) out.push(printAttempt(attempt))
  }
  return out.join('\n')
}

export function printAttempt(attempt: Attempt): string {
  const last = attempt.chunks.at(-1)?.chunk
  const end = last?.type === 'finish' ? `finish ${printReason(last['reason'])}` : 'no finish'
  const recorded = attempt.recorded
  const linked = recorded ? ` → message ${recorded.seq}${recorded.interrupted ? ' interrupted' : ''}` : ''
  const retry = attempt.retryId !== undefined ? `(${attempt.retryId})` : ''
  return `${attempt.id} ${attempt.kind}${retry} [${seqRuns(attempt.chunks.map((c) => c.seq))}] ${end}${linked}`
}

function printReason(reason: unknown): string {
  const kind = kindOf(reason)
  const failure = (reason as { failure?: { code?: unknown } } | null)?.failure
  return failure?.code !== undefined ? `${kind} ${String(failure.code)}` : kind
}

function kindOf(value: unknown): string {
  const kind = (value as { kind?: unknown } | null)?.kind
  return typeof kind === 'string' ? kind : JSON.stringify(value)
}

/** `[1, 2, 3, 7, 9, 10]` → `1-3,7,9-10`. */
export function seqRuns(seqs: readonly number[]): string {
  const runs: string[] = []
  let start = 0
  for (let i = 1; i <= seqs.length; i++) {
    if (i < seqs.length && seqs[i] === seqs[i - 1]! + 1) continue
    const first = seqs[start]!
    const last = seqs[i - 1]!
    runs.push(first === last ? `${first}` : `${first}-${last}`)
    start = i
  }
  return seqs.length === 0 ? '' : runs.join(',')
}
