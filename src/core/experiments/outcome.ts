import { analyzeStream, type StreamResult } from '../analyzeStream'
import type { Finding, RuleId } from '../checks'
import { jsonEqual } from '../jsonEqual'
import type { ContentBlock, FinishReason, SourcedChunk, TokenUsage } from '../protocol'

/**
 * What a variant of a stream is compared by (docs/protocol.md §13): the final message the harness would keep —
 * `blocks()` or its throw, finish, usage — and which §5 rules fire, counted per rule (positions move when chunks
 * are split or dropped, so a finding is the same finding when its rule is).
 */
export type StreamOutcome = {
  readonly blocks: readonly ContentBlock[] | null
  readonly error: string | null
  readonly finish: FinishReason
  readonly hasFinish: boolean
  readonly usage: TokenUsage | null
  /** Rule id → how many findings of it, rules sorted. */
  readonly rules: Readonly<Record<string, number>>
  readonly findings: readonly Finding[]
}

export type OutcomeDiff = {
  /** The final message (blocks or throw, finish, usage) differs. */
  readonly message: boolean
  /** Which of blocks, error, finish, usage differ. */
  readonly fields: readonly ('blocks' | 'error' | 'finish' | 'usage')[]
  /** Rules that fire more often in `before` than in `after`, and the other way round. */
  readonly lost: readonly RuleId[]
  readonly gained: readonly RuleId[]
}

export function outcomeOf(chunks: readonly SourcedChunk[], result?: StreamResult): StreamOutcome {
  const read = result ?? analyzeStream(chunks)
  const rules: Record<string, number> = {}
  for (const finding of [...read.findings].sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)))
    rules[finding.rule] = (rules[finding.rule] ?? 0) + 1
  return {
    blocks: read.blocks,
    error: read.error,
    finish: read.finish,
    hasFinish: read.hasFinish,
    usage: read.usage,
    rules,
    findings: read.findings,
  }
}

/**
 * How `after` differs from `before`; null when the message and the rules that fire are the same.
 *
 * @example
 * diffOutcomes(outcomeOf(stream), outcomeOf(withStraggler)) // { message: false, fields: [], lost: [], gained: ['delta-after-end'] }
 */
export function diffOutcomes(before: StreamOutcome, after: StreamOutcome): OutcomeDiff | null {
  const fields: OutcomeDiff['fields'][number][] = []
  if (!jsonEqual(before.blocks, after.blocks)) fields.push('blocks')
  if (before.error !== after.error) fields.push('error')
  if (!jsonEqual(before.finish, after.finish) || before.hasFinish !== after.hasFinish) fields.push('finish')
  if (!jsonEqual(before.usage, after.usage)) fields.push('usage')
  const lost: RuleId[] = []
  const gained: RuleId[] = []
  for (const rule of new Set([...Object.keys(before.rules), ...Object.keys(after.rules)])) {
    const a = before.rules[rule] ?? 0
    const b = after.rules[rule] ?? 0
    if (a > b) lost.push(rule as RuleId)
    if (b > a) gained.push(rule as RuleId)
  }
  if (fields.length === 0 && lost.length === 0 && gained.length === 0) return null
  return { message: fields.length > 0, fields, lost: lost.sort(), gained: gained.sort() }
}

/** `message differs (blocks, finish); + delta-after-end; − usage-missing` (`same message; + …`), for the CLI and the UI. */
export function describeOutcomeDiff(diff: OutcomeDiff | null): string {
  if (diff === null) return 'same message and findings'
  const parts: string[] = []
  parts.push(diff.message ? `message differs (${diff.fields.join(', ')})` : 'same message')
  if (diff.gained.length > 0) parts.push(`+ ${diff.gained.join(', ')}`)
  if (diff.lost.length > 0) parts.push(`− ${diff.lost.join(', ')}`)
  return parts.join('; ')
}
