import { RULES, type Finding } from './checks'
import type { Attempt } from './sessionTypes'

/** The wire formats whose events carry a `sequence_number` that counts up by one (docs/protocol.md §9.2). */
const SEQUENCED: ReadonlySet<string> = new Set(['openai-responses-sse'])
const SEQUENCE = /"sequence_number"\s*:\s*(-?\d+)/
const MAX_FINDINGS = 1000

/**
 * The `wire-sequence` check (docs/protocol.md §5): in a captured OpenAI Responses stream each event's
 * `sequence_number` is one more than the previous event's. A jump means events are missing from the capture; a
 * number not above the previous one, that events were reordered or repeated. The harness never reads the number,
 * so the stream assembles the same either way: the finding says the capture is not the whole, ordered stream.
 * Each finding points at the first chunk at or after the event that breaks the count.
 *
 * @example
 * wireSequenceFindings(attempt)[0]?.message // 'sequence_number jumps from 6 to 9 at line 22: 2 events missing …'
 */
export function wireSequenceFindings(attempt: Attempt): Finding[] {
  const wire = attempt.wire
  if (wire === undefined || !SEQUENCED.has(wire.format) || attempt.chunks.length === 0) return []
  const findings: Finding[] = []
  let previous: number | null = null
  for (let i = 0; i < wire.count && findings.length < MAX_FINDINGS; i++) {
    const match = SEQUENCE.exec(wire.text.slice(wire.start[i]!, wire.end[i]!))
    if (match === null) continue
    const value = Number(match[1])
    if (previous !== null && value !== previous + 1) {
      const pos = Math.min(wire.chunkFrom[i]!, attempt.chunks.length - 1)
      const missing = value - previous - 1
      const message =
        value > previous
          ? `sequence_number jumps from ${previous} to ${value} at line ${wire.line[i]}: ${missing} event${missing === 1 ? '' : 's'} missing from the capture`
          : `sequence_number ${value} after ${previous} at line ${wire.line[i]}: events reordered or repeated (read in body order, as the harness does)`
      findings.push({
        rule: 'wire-sequence',
        severity: RULES['wire-sequence'],
        seq: attempt.chunks[pos]!.seq,
        pos,
        message,
      })
    }
    previous = value
  }
  return findings
}
