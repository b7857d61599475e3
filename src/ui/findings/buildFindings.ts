import { chunksOf } from '../../core/chunkList'
import { RULES, type Finding, type Severity } from '../../core/checks'
import { jsonEqual } from '../../core/jsonEqual'
import type { ContentBlock } from '../../core/protocol'
import { attemptDivergence, describeMismatch } from '../../core/firstDivergence'
import { describeRecorded, type Attempt, type RecordedComparison } from '../../core/session'

/**
 * The Findings list of the selected stream: the session-level `recorded-mismatch` first (docs/protocol.md §5, it is
 * not one of the engine's stream checks), then the engine's findings in stream order. Never copies the engine's
 * array: a million-chunk stream may have a million findings.
 */
export type FindingList = {
  readonly length: number
  readonly at: (position: number) => Finding
  /**
   * Whether the cursor has reached the finding at this position, given the frame's `findingCount` (engine findings
   * visible at the cursor) and whether the cursor is at the end.
   */
  readonly reached: (position: number, findingCount: number, atEnd: boolean) => boolean
}

export function findingList(
  findings: readonly Finding[],
  mismatch: Finding | null,
  /** Findings about the captured wire (`wire-sequence`), listed after the engine's. */
  wire: readonly Finding[] = [],
): FindingList {
  const extra = mismatch === null ? 0 : 1
  const engine = findings.length + extra
  return {
    length: engine + wire.length,
    at: (position) =>
      position < extra
        ? mismatch!
        : position < engine
          ? findings[position - extra]!
          : wire[position - engine]!,
    // The mismatch compares the whole attempt with its message, and a wire finding is about the capture as a
    // whole: like an end-of-stream check, they show at the end.
    reached: (position, findingCount, atEnd) =>
      position < extra || position >= engine ? atEnd : position - extra < findingCount,
  }
}

export type SeverityCounts = Record<Severity, number>

export function countBySeverity(list: FindingList): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 }
  for (let position = 0; position < list.length; position++) counts[list.at(position).severity] += 1
  return counts
}

/** Positions of the findings whose severity is shown; null when every severity is (no copy needed). */
export function visiblePositions(list: FindingList, hidden: ReadonlySet<Severity>): Int32Array | null {
  if (hidden.size === 0) return null
  const positions = new Int32Array(list.length)
  let size = 0
  for (let position = 0; position < list.length; position++) {
    if (!hidden.has(list.at(position).severity)) positions[size++] = position
  }
  return positions.subarray(0, size)
}

/**
 * `recorded-mismatch` for an attempt whose re-assembly differs from its stored assistant/message (§5, §6), shown
 * at the attempt's last chunk; null when it matches or nothing cites the attempt.
 *
 * @example
 * recordedMismatch(attempt, compareRecorded(attempt))?.message
 * // 'blocks() differs from assistant/message seq 103: block 0 (reasoning) text differs: 190 chars assembled, 412 recorded; …'
 */
export function recordedMismatch(attempt: Attempt, comparison: RecordedComparison | null): Finding | null {
  const recorded = attempt.recorded
  if (comparison === null || comparison.match || recorded === null) return null
  const chunks = chunksOf(attempt)
  const last = chunks.at(chunks.length - 1)
  const what = recorded.interrupted ? 'interruptedBlocks()' : 'blocks()'
  const parts = [
    `${what} differs from ${recorded.interrupted ? 'the interrupted ' : ''}${describeRecorded(recorded)}: ${describeDifference(comparison)}`,
  ]
  const { missing, foreign, uncited } = recorded.citation
  if (missing.length > 0) parts.push(`it cites ${plural(missing.length, 'seq')} not in the log`)
  if (foreign.length > 0) parts.push(`${plural(foreign.length, 'cited seq')} of other events`)
  if (uncited.length > 0) parts.push(`${plural(uncited.length, 'chunk')} of the attempt not cited`)
  // The finding points at the cause: the first chunk where the stream stops agreeing with the record.
  const divergence = attemptDivergence(attempt)
  const end = (attempt.window ? attempt.window.total - attempt.window.from : chunks.length) - 1
  return {
    rule: 'recorded-mismatch',
    severity: RULES['recorded-mismatch'],
    // A window of the stream: the whole stream's last chunk, which may lie past the window.
    seq: divergence?.seq ?? attempt.window?.lastSeq ?? last?.seq ?? recorded.seq,
    pos: divergence?.pos ?? Math.max(0, end),
    message: parts.join('; ') + describeMismatch(comparison, divergence),
  }
}

/** The first difference between what the chunks assemble to and what the harness stored. */
export function describeDifference(comparison: RecordedComparison): string {
  const { assembled, expected } = comparison
  if (assembled === null) return `assembly throws (${comparison.error ?? 'unknown error'})`
  if (assembled.length !== expected.length) {
    return `${plural(assembled.length, 'block')} assembled, ${expected.length} recorded`
  }
  for (let index = 0; index < assembled.length; index++) {
    const difference = blockDifference(assembled[index]!, expected[index]!)
    if (difference !== null) return `block ${index} ${difference}`
  }
  return 'the blocks differ'
}

function blockDifference(got: ContentBlock, want: ContentBlock): string | null {
  if (got.type !== want.type) return `is ${got.type} here, ${want.type} recorded`
  const fields = ['text', 'id', 'name', 'arguments'] as const
  for (const field of fields) {
    const a = (got as Record<string, unknown>)[field]
    const b = (want as Record<string, unknown>)[field]
    if (a === b) continue
    if (typeof a === 'string' && typeof b === 'string') {
      return `(${got.type}) ${field} differs: ${plural(a.length, 'char')} assembled, ${b.length} recorded`
    }
    return `(${got.type}) ${field} differs`
  }
  return jsonEqual(got, want) ? null : `(${got.type}) differs`
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
