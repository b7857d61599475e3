import { analyzeStream, type StreamResult } from './analyzeStream'
import { RULES, type Finding } from './checks'
import type { ContentBlock, FinishReason, ReplayEnvelope, TokenUsage } from './protocol'
import { compareRecorded, describeRecorded, type Attempt } from './session'
import { attemptDivergence, describeCause, describeMismatch, type FirstDivergence } from './firstDivergence'
import { wireSequenceFindings } from './wireSequence'

/**
 * One stream as `chunkscope inspect --json` reports it. This shape is a contract other tools rely on: fields may
 * be added, never renamed.
 */
export type StreamReport = {
  /** `t1.s2.a1`, `stream` for a bare chunk file; `<session>/<id>` for sessions after the first. */
  readonly id: string
  readonly turn: number | null
  readonly step: number | null
  readonly attempt: number | null
  /** Log seqs of the attempt's chunks; 0-based positions for bare files. */
  readonly seqs: readonly number[]
  /** `blocks()`; null when the harness throws (a push, `errorSeq`, or the read itself). */
  readonly blocks: readonly ContentBlock[] | null
  /** The harness's error message, word for word (docs/protocol.md §3). */
  readonly error: string | null
  /**
   * Seq of the chunk whose push threw; null when none did. The harness's agent loop logs that chunk, reads no
   * further one and ends the turn in an error (code UNKNOWN) with `error` as its message.
   */
  readonly errorSeq: number | null
  /** `interruptedBlocks()`: what a cancel keeps; null when it throws (`interruptedBlocksError`). */
  readonly interruptedBlocks: readonly ContentBlock[] | null
  readonly interruptedBlocksError: string | null
  readonly finish: FinishReason
  /** False when no finish chunk arrived (`finish` then reads as stop). */
  readonly hasFinish: boolean
  readonly usage: TokenUsage | null
  readonly replayState: ReplayEnvelope | null
  readonly ignored: readonly { readonly seq: number; readonly kind: string; readonly index: number }[]
  /** docs/protocol.md §5 findings, `recorded-mismatch` included. */
  readonly findings: readonly Omit<Finding, 'pos'>[]
  readonly recorded: null | {
    readonly seq: number
    readonly interrupted: boolean
    readonly match: boolean
    /**
     * For a mismatch: the first chunk (seq) after which block `block` of the message no longer agrees with the
     * record, and why when known (`cause`: seq-gap, straggler, first-close-differs, max-tokens-drop,
     * re-serialised-block-end, push-error; null when unknown), `causeText` in words. Null when it matches.
     */
    readonly firstDivergence: null | {
      readonly seq: number
      readonly block: number
      readonly field: string
      readonly cause: string | null
      readonly causeText: string
      /** For `seq-gap`: the missing seqs as [from, to] ranges. */
      readonly missing?: readonly (readonly [number, number])[]
    }
  }
}

/**
 * Assembles and checks one attempt and compares it with its recorded message (docs/protocol.md §5, §6).
 *
 * @example
 * reportStream('t1.s1.a1', session.streams[0]).recorded // { seq: 37, interrupted: false, match: true }
 */
export function reportStream(id: string, attempt: Attempt): StreamReport {
  return reportAnalyzed(
    id,
    attempt,
    analyzeStream(attempt.chunks),
    attempt.chunks.map((chunk) => chunk.seq),
    attemptDivergence,
  )
}

/**
 * {@link reportStream} of an attempt whose chunks were analyzed as they were read and not kept (`chunkscope
 * inspect` of a session log): its pass's result, its chunks' seqs, and where to find the first divergence from its
 * recorded message when they differ (that needs the chunks: such a caller reads the log again).
 */
export function reportAnalyzed(
  id: string,
  attempt: Attempt,
  result: StreamResult,
  seqs: readonly number[] | LazySeqs,
  divergenceOf: (attempt: Attempt) => FirstDivergence | null,
): StreamReport {
  const findings: Omit<Finding, 'pos'>[] = result.findings.map(({ rule, severity, seq, message }) => ({
    rule,
    severity,
    seq,
    message,
  }))
  // Checks of the captured wire itself (docs/protocol.md §5), after the stream's.
  for (const { rule, severity, seq, message } of wireSequenceFindings(attempt))
    findings.push({ rule, severity, seq, message })
  const comparison = compareRecorded(attempt, result)
  const recorded = attempt.recorded
  const divergence = comparison !== null && !comparison.match ? divergenceOf(attempt) : null
  if (recorded !== null && comparison !== null && !comparison.match) {
    findings.unshift({
      rule: 'recorded-mismatch',
      severity: RULES['recorded-mismatch'],
      seq: divergence?.seq ?? recorded.seq,
      message: `the assembled ${recorded.interrupted ? 'interruptedBlocks()' : 'blocks()'} differ from ${describeRecorded(recorded)}${comparison.error ? ` (${comparison.error})` : ''}${describeMismatch(comparison, divergence)}`,
    })
  }
  const report: StreamReport = {
    id,
    turn: attempt.turn,
    step: attempt.step,
    attempt: attempt.attempt,
    seqs: Array.isArray(seqs) ? seqs : [],
    blocks: result.blocks,
    error: result.error,
    errorSeq: result.errorPos === null ? null : (listed(seqs)[result.errorPos] ?? null),
    interruptedBlocks: result.interruptedBlocks,
    interruptedBlocksError: result.interruptedBlocksError,
    finish: result.finish,
    hasFinish: result.hasFinish,
    usage: result.usage,
    replayState: result.replayState,
    ignored: result.ignored.map(({ seq, kind, index }) => ({ seq, kind, index })),
    findings,
    recorded:
      recorded === null || comparison === null
        ? null
        : {
            seq: recorded.seq,
            interrupted: recorded.interrupted,
            match: comparison.match,
            firstDivergence:
              divergence === null
                ? null
                : {
                    seq: divergence.seq,
                    block: divergence.block,
                    field: divergence.field,
                    cause: divergence.cause?.kind ?? null,
                    causeText: describeCause(divergence.cause),
                    ...(divergence.cause?.kind === 'seq-gap' ? { missing: divergence.cause.missing } : {}),
                  },
          },
  }
  if (!Array.isArray(seqs)) listLater(report, seqs as LazySeqs)
  return report
}

/**
 * A stream's seqs as their count and a way to list them, for a caller that holds them in a form of its own (a log
 * analyzed as it was read, cli/loadForReport.ts). The report lists them the first time its `seqs` is read:
 * `inspect` without `--json` prints only their number ({@link chunkCount}) and never builds an array of millions.
 */
export type LazySeqs = { readonly count: number; readonly list: () => readonly number[] }

const lazyCounts = new WeakMap<StreamReport, number>()

/** How many chunks a report's stream has, without listing seqs the report has not listed yet. */
export function chunkCount(report: StreamReport): number {
  return lazyCounts.get(report) ?? report.seqs.length
}

function listed(seqs: readonly number[] | LazySeqs): readonly number[] {
  return Array.isArray(seqs) ? seqs : (seqs as LazySeqs).list()
}

/**
 * Makes `report.seqs` (already in its place among the keys, which is the order `--json` prints) a getter that lists
 * them once and then stays the listed array; whoever reads or serialises the report sees an array as ever.
 */
function listLater(report: StreamReport, seqs: LazySeqs): void {
  lazyCounts.set(report, seqs.count)
  Object.defineProperty(report, 'seqs', {
    configurable: true,
    enumerable: true,
    get() {
      const value = seqs.list()
      Object.defineProperty(report, 'seqs', { configurable: true, enumerable: true, writable: true, value })
      return value
    },
  })
}
