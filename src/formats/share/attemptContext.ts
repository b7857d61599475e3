import { BlockAssembler, type AssemblerState } from '../../core/BlockAssembler'
import { AssemblyPass } from '../../core/analyzeStream'
import { RULES, type CheckerState, type Finding, type FindingParams, type RuleId } from '../../core/checks'
import { firstDivergence, type DivergenceCause, type FirstDivergence } from '../../core/firstDivergence'
import type { ContentBlock, SourcedChunk } from '../../core/protocol'
import {
  compareRecorded,
  type Attempt,
  type AttemptKind,
  type AttemptWindow,
  type RecordedMessage,
} from '../../core/session'
import { isRecord } from '../json'
import type { Diagnostic, LoadedSource } from '../types'
import { redactChunks, redactRecordedContent, type RedactionOptions } from './redact'

/**
 * What a link that carries one attempt's chunks (not the whole log) must also carry so the opener sees what the
 * sender saw: which attempt it was and its recorded `assistant/message` (docs/protocol.md §6, so `recorded-mismatch`
 * and the comparison survive), and for a window the whole stream's end state and its findings outside the window.
 * All of it is untrusted data on the way in: read leniently, shown as text, never run.
 */
export type ShareAttempt = {
  readonly turn: number | null
  readonly step: number | null
  readonly attempt: number | null
  readonly kind: AttemptKind
  readonly recorded?: ShareRecorded
}

export type ShareRecorded = {
  readonly seq: number
  readonly interrupted: boolean
  /** Left out when `matches`: the opener rebuilds it from the stream (half the link for a healthy attempt). */
  readonly content?: readonly ContentBlock[]
  /** The recorded content equals what the whole stream assembles (docs/protocol.md §6). */
  readonly matches?: true
  readonly shape: RecordedMessage['shape']
  /** The cited seqs that are no event in the log / other events' / the attempt's chunks left uncited. */
  readonly citation: RecordedMessage['citation']
}

/** The carried part of a window: see {@link AttemptWindow}. */
export type ShareWindowEnd = {
  readonly end: AssemblerState
  /** The checks' memory at the window's start (docs/protocol.md §14); absent in older links. */
  readonly startChecks?: CheckerState
  /** The chunk whose push threw, outside the window (position from the window's start, seq). */
  readonly thrown?: { readonly pos: number; readonly seq: number }
  readonly findings: readonly Finding[]
  readonly endFrom: number
  readonly lastSeq: number
  /** The whole stream's first divergence from its recorded message, `pos` counted from the window's start. */
  readonly divergence?: FirstDivergence
}

/** The attempt's identity and recorded message, redacted like its chunks. */
export function shareAttemptOf(attempt: Attempt, redact: RedactionOptions | undefined): ShareAttempt {
  const recorded = attempt.recorded
  // Redaction masks the chunks and the record alike, so a record that matches still matches once redacted.
  const matches = recorded !== null && compareRecorded(attempt)?.match === true
  return {
    turn: attempt.turn,
    step: attempt.step,
    attempt: attempt.attempt,
    kind: attempt.kind,
    ...(recorded === null
      ? {}
      : {
          recorded: {
            seq: recorded.seq,
            interrupted: recorded.interrupted,
            ...(matches
              ? { matches: true }
              : {
                  content:
                    redact === undefined
                      ? recorded.content
                      : (redactRecordedContent(
                          recorded.content,
                          {
                            assembled: compareRecorded(attempt)?.assembled ?? null,
                            masked:
                              compareRecorded({ ...attempt, chunks: redactChunks(attempt.chunks, redact) })
                                ?.assembled ?? null,
                          },
                          redact,
                        ) as ContentBlock[]),
                }),
            shape: recorded.shape,
            citation: recorded.citation,
          },
        }),
  }
}

/**
 * For a window [from, to) of `chunks` (already redacted): the state after the whole stream and the whole stream's
 * findings outside the window, positions counted from `from`.
 */
export function windowEndOf(
  chunks: readonly SourcedChunk[],
  from: number,
  to: number,
  recorded?: ShareRecorded,
): ShareWindowEnd {
  const pass = new AssemblyPass(chunks)
  pass.advance(from)
  // What the checks remember at the window's start: without it the opener's would guess from the assembler alone.
  const startChecks = pass.checker.exportState()
  pass.advance()
  const all = pass.checker.findings
  const endAt = pass.checker.endFindingsFrom < 0 ? all.length : pass.checker.endFindingsFrom
  const findings: Finding[] = []
  for (let i = 0; i < endAt; i++) {
    const finding = all[i]!
    if (finding.pos < from || finding.pos >= to) findings.push(carried(finding, from))
  }
  const endFrom = findings.length
  for (let i = endAt; i < all.length; i++) findings.push(carried(all[i]!, from))
  // A matching record has no divergence (and travels without its content).
  const divergence =
    recorded?.content === undefined
      ? null
      : firstDivergence({
          chunks,
          expected: recorded.content,
          interrupted: recorded.interrupted,
          missing: recorded.citation.missing,
        })
  // The chunk whose push threw, when the window does not hold it: the end state says only that one did.
  const failure = pass.assembler.failure
  const thrown =
    failure !== undefined && failure.pos >= 0 && (failure.pos < from || failure.pos >= to)
      ? { pos: failure.pos - from, seq: chunks[failure.pos]!.seq }
      : undefined
  return {
    end: pass.assembler.exportState(),
    startChecks,
    ...(thrown !== undefined ? { thrown } : {}),
    findings,
    endFrom,
    lastSeq: chunks.at(-1)?.seq ?? 0,
    ...(divergence !== null ? { divergence: { ...divergence, pos: divergence.pos - from } } : {}),
  }
}

/**
 * A finding as a link carries it: positions counted from `from`, with its message and the values the browser
 * translates it from (`params`, docs/protocol.md §5), so the opener reads it in the sender's words and in their own
 * language alike. Links made before `params` travelled carry the message alone.
 */
function carried(finding: Finding, from: number): Finding {
  return { ...finding, pos: finding.pos - from }
}

/** Applies a carried attempt identity and recorded message to the opened stream (bad fields are ignored). */
export function applyShareAttempt(attempt: Attempt, value: unknown): void {
  if (!isRecord(value)) return
  const int = (v: unknown) => (Number.isSafeInteger(v) ? (v as number) : null)
  attempt.turn = int(value['turn'])
  attempt.step = int(value['step'])
  attempt.attempt = int(value['attempt'])
  const kind = value['kind']
  if (kind === 'first' || kind === 'retry' || kind === 'after-finish') attempt.kind = kind
  const recorded = value['recorded']
  if (!isRecord(recorded) || !Number.isSafeInteger(recorded['seq'])) return
  const matches = recorded['matches'] === true
  if (!matches && !Array.isArray(recorded['content'])) return
  // Every block as the log recorded it, odd ones too (a `5`, a block without a type): the sender's reader keeps
  // them, so the comparison and its first divergence (docs/protocol.md §6) read them on both sides.
  const content = (matches ? [] : recorded['content']) as ContentBlock[]
  const seqs = (v: unknown): number[] =>
    Array.isArray(v) ? v.filter((n): n is number => Number.isSafeInteger(n)) : []
  const citation = isRecord(recorded['citation']) ? recorded['citation'] : {}
  const shape = recorded['shape']
  attempt.recorded = {
    seq: recorded['seq'] as number,
    line: 0,
    turn: attempt.turn,
    step: attempt.step,
    interrupted: recorded['interrupted'] === true,
    content,
    message: { role: 'assistant', content },
    shape: shape === 'legacy' || shape === 'no-content' ? shape : 'current',
    sourceEventSeqs: [],
    provenance: 'cited',
    attemptId: attempt.id,
    ...(matches ? { matches: true } : {}),
    citation: {
      missing: seqs(citation['missing']),
      foreign: seqs(citation['foreign']),
      uncited: seqs(citation['uncited']),
    },
  }
}

/** A carried window end (its states already read), checked; null when malformed. */
export function readWindowEnd(
  value: Record<string, unknown>,
  start: AssemblerState,
  end: AssemblerState,
  from: number,
  total: number,
): AttemptWindow | null {
  const findings = value['findings']
  const endFrom = value['endFrom']
  const lastSeq = value['lastSeq']
  if (!Array.isArray(findings) || !Number.isSafeInteger(endFrom)) return null
  const read: Finding[] = []
  for (const item of findings as unknown[]) {
    if (!isRecord(item)) return null
    const { rule, seq, pos, message } = item
    if (typeof rule !== 'string' || !(rule in RULES) || typeof message !== 'string') return null
    if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(pos)) return null
    const id = rule as RuleId
    const params = readParams(item['params'])
    read.push({
      rule: id,
      severity: RULES[id],
      seq: seq as number,
      pos: pos as number,
      message,
      ...(params !== null ? { params } : {}),
    })
  }
  const startChecks = readCheckerState(value['startChecks'])
  const thrown = value['thrown']
  const thrownRead =
    isRecord(thrown) && Number.isSafeInteger(thrown['pos']) && Number.isSafeInteger(thrown['seq'])
      ? { pos: thrown['pos'] as number, seq: thrown['seq'] as number }
      : null
  return {
    ...(thrownRead !== null ? { thrown: thrownRead } : {}),
    from,
    total,
    start,
    end,
    ...(startChecks !== null ? { startChecks } : {}),
    divergence: readDivergence(value['divergence']),
    findings: read,
    endFrom: Math.max(0, Math.min(read.length, endFrom as number)),
    lastSeq: Number.isSafeInteger(lastSeq) ? (lastSeq as number) : 0,
  }
}

/**
 * A carried finding's `params`: an object of strings and finite numbers, or null (absent in older links, or
 * malformed: the opener then shows the carried English message, as it did before params travelled).
 */
function readParams(value: unknown): FindingParams | null {
  if (!isRecord(value)) return null
  const out: Record<string, string | number> = {}
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string' && !(typeof item === 'number' && Number.isFinite(item))) return null
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** Carried checks' memory: arrays of indexes (any JSON value, as the chunks gave them) and counts; else null. */
function readCheckerState(value: unknown): CheckerState | null {
  if (!isRecord(value)) return null
  const { seen, open, started, withDeltas, usageCount, finishSeen } = value
  if (![seen, open, started, withDeltas].every(Array.isArray)) return null
  if (!Number.isSafeInteger(usageCount) || (usageCount as number) < 0 || typeof finishSeen !== 'boolean')
    return null
  return {
    seen: seen as number[],
    open: open as number[],
    started: started as number[],
    withDeltas: withDeltas as number[],
    usageCount: usageCount as number,
    finishSeen,
  }
}

/** Diagnostics from a link: only well-formed entries, as text. */
export function readDiagnostics(value: unknown): Diagnostic[] {
  if (!Array.isArray(value)) return []
  const out: Diagnostic[] = []
  for (const item of value as unknown[]) {
    if (!isRecord(item) || typeof item['message'] !== 'string') continue
    const severity = item['severity']
    if (severity !== 'error' && severity !== 'warning' && severity !== 'info') continue
    const line = item['line']
    out.push({
      severity,
      message: item['message'],
      ...(Number.isSafeInteger(line) ? { line: line as number } : {}),
    })
  }
  return out
}

/**
 * The reader's diagnostics that concern one attempt: those on the lines between its first chunk and its recorded
 * message (or last chunk), where a seq gap, a torn row or a malformed chunk of that attempt is reported.
 */
export function attemptDiagnostics(
  source: LoadedSource,
  sessionIndex: number,
  attempt: Attempt,
): Diagnostic[] {
  const session = source.sessions[sessionIndex]
  if (session === undefined || attempt.chunks.length === 0) return []
  // A bare chunk file is one stream: everything its reader noticed is about it.
  if (session.events.length === 0) return source.diagnostics.slice()
  const first = attempt.chunks[0]!.seq
  const last = Math.max(attempt.chunks.at(-1)!.seq, attempt.recorded?.seq ?? -1)
  let low = Infinity
  let high = -Infinity
  for (const event of session.events) {
    if (event.seq < first || event.seq > last) continue
    low = Math.min(low, event.line)
    high = Math.max(high, event.line)
  }
  return source.diagnostics.filter(
    (diagnostic) => diagnostic.line !== undefined && diagnostic.line >= low && diagnostic.line <= high,
  )
}

const CAUSES = new Set([
  'seq-gap',
  'straggler',
  'first-close-differs',
  'max-tokens-drop',
  're-serialised-block-end',
  'push-error',
])

/** A carried first divergence, or null when absent or malformed (it is then not shown). */
function readDivergence(value: unknown): FirstDivergence | null {
  if (!isRecord(value)) return null
  const { pos, seq, block, field, cause } = value
  if (![pos, seq, block].every(Number.isSafeInteger) || typeof field !== 'string') return null
  let read: DivergenceCause | null = null
  if (isRecord(cause) && typeof cause['kind'] === 'string' && CAUSES.has(cause['kind'])) {
    const missing = Array.isArray(cause['missing'])
      ? (cause['missing'] as unknown[]).filter(
          (range): range is [number, number] =>
            Array.isArray(range) && range.length === 2 && range.every(Number.isSafeInteger),
        )
      : []
    const at = Number.isSafeInteger(cause['seq']) ? (cause['seq'] as number) : (seq as number)
    read =
      cause['kind'] === 'seq-gap'
        ? { kind: 'seq-gap', missing }
        : cause['kind'] === 'straggler'
          ? { kind: 'straggler', seq: at }
          : ({ kind: cause['kind'] } as DivergenceCause)
  }
  return { pos: pos as number, seq: seq as number, block: block as number, field, cause: read }
}

/**
 * For a record carried as `matches`: its content is what the whole stream assembles (`interruptedBlocks()` for an
 * interrupted one), rebuilt from the chunks or, for a window, from the carried end state.
 */
export function fillMatchedRecord(attempt: Attempt): void {
  const recorded = attempt.recorded as (RecordedMessage & { matches?: true }) | null
  if (recorded === null || recorded.matches !== true) return
  const assembler =
    attempt.window !== undefined ? BlockAssembler.fromState(attempt.window.end) : new BlockAssembler()
  if (attempt.window === undefined) for (const sourced of attempt.chunks) assembler.push(sourced.chunk)
  let content: ContentBlock[] = []
  try {
    if (assembler.failure === undefined)
      content = recorded.interrupted ? assembler.interruptedBlocks() : assembler.blocks()
  } catch {
    content = []
  }
  const { matches: _matches, ...rest } = recorded
  attempt.recorded = { ...rest, content, message: { role: 'assistant', content } }
}
