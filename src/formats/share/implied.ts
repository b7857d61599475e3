import { isRecord } from '../../core/base/isRecord'
import { Malformed } from './bytes'
import { builtBlocks, diffContent, patchContent, skippedSeqs } from './recordedDiff'

// What a v4 link leaves out because the rest of the link implies it (docs/protocol.md §14): an attempt's identity
// (`turn`, `step`, `attempt`) when the stream's key spells it (`t1.s2.a1`), and its recorded message's seq when it is
// the one after the last chunk's (the harness writes `assistant/message` right after the attempt's chunks, §6).
// The skeleton then ends with a fourth item, the bits of what was left out; the opener puts the fields back, in
// their place, from the same key and the decoded seqs. Anything else travels as it is. v5 also codes the recorded
// message's content against what the chunks build, and leaves out its missing cited seqs when the chunks skip
// exactly those (recordedDiff.ts); both stay in their place, the content as its difference, the list as `0`.

/** `turn`, `step` and `attempt` were left out of `attempt`: the stream's key spells them. */
const IDENTITY = 1
/** `seq` was left out of `attempt.recorded`: it is the last chunk's seq + 1. */
const RECORDED_SEQ = 2
/** v5: `attempt.recorded.content` is its difference from the blocks the chunks build. */
const CONTENT_DIFF = 4
/** v5: `attempt.recorded.citation.missing` is `0`: the seqs the chunks skip. */
const MISSING_SKIPPED = 8
/** Seqs from their differences (the first from 0), as the opener adds them up. */
export function absolute(deltas: readonly number[]): number[] {
  let seq = 0
  return deltas.map((delta) => (seq += delta))
}

/** What a link's chunks give the v5 additions: the chunks, and their seqs (not their differences). */
export type ImpliedStream = { readonly chunks: readonly unknown[]; readonly seqs: readonly number[] }
const KEY = /^t(\d+)\.s(\d+)\.a(\d+)$/
const IDENTITY_KEYS = ['turn', 'step', 'attempt'] as const

/**
 * The shell without what the stream's key and seqs imply, and the bits saying what went. `lastSeq`: the seq the
 * payload's seq deltas add up to (0 for no chunk), as the opener will add them up.
 */
export function leaveImplied(
  shell: unknown,
  lastSeq: number,
  stream?: ImpliedStream,
): { shell: unknown; implied: number } {
  if (!isRecord(shell) || !isRecord(shell['attempt'])) return { shell, implied: 0 }
  let attempt: Record<string, unknown> = shell['attempt']
  let implied = 0
  const spelled = typeof shell['stream'] === 'string' ? KEY.exec(shell['stream']) : null
  const keys = Object.keys(attempt)
  if (
    spelled !== null &&
    IDENTITY_KEYS.every(
      (key, i) =>
        keys[i] === key && Number.isSafeInteger(attempt[key]) && String(attempt[key]) === spelled[i + 1],
    )
  ) {
    const { turn: _t, step: _s, attempt: _a, ...rest } = attempt
    attempt = rest
    implied |= IDENTITY
  }
  const recorded = attempt['recorded']
  if (isRecord(recorded) && Object.keys(recorded)[0] === 'seq' && recorded['seq'] === lastSeq + 1) {
    const { seq: _seq, ...rest } = recorded
    attempt = { ...attempt, recorded: rest }
    implied |= RECORDED_SEQ
  }
  if (stream !== undefined && isRecord(attempt['recorded'])) {
    const left = leaveRecorded(attempt['recorded'], stream)
    attempt = { ...attempt, recorded: left.recorded }
    implied |= left.implied
  }
  return implied === 0 ? { shell, implied } : { shell: { ...shell, attempt }, implied }
}

/** Puts back what {@link leaveImplied} left out, in its place (the key order is part of what a link keeps). */
export function restoreImplied(
  shell: Record<string, unknown>,
  implied: unknown,
  lastSeq: number,
  stream?: ImpliedStream,
): void {
  if (implied === undefined) return
  const most = stream === undefined ? RECORDED_SEQ | IDENTITY : 15
  if (!Number.isSafeInteger(implied) || (implied as number) <= 0 || (implied as number) > most)
    throw new Malformed('its skeleton ends with an unknown item')
  const carried = shell['attempt']
  if (!isRecord(carried)) throw new Malformed('it leaves out an attempt it does not carry')
  let attempt: Record<string, unknown> = carried
  if (stream !== undefined && ((implied as number) & (CONTENT_DIFF | MISSING_SKIPPED)) !== 0) {
    if (!isRecord(attempt['recorded']))
      throw new Malformed('it leaves out a recorded message it does not carry')
    attempt = { ...attempt, recorded: restoreRecorded(attempt['recorded'], implied as number, stream) }
  }
  if (((implied as number) & RECORDED_SEQ) !== 0) {
    if (!isRecord(attempt['recorded']))
      throw new Malformed('it leaves out a recorded message it does not carry')
    attempt = { ...attempt, recorded: { seq: lastSeq + 1, ...attempt['recorded'] } }
  }
  if (((implied as number) & IDENTITY) !== 0) {
    const spelled = typeof shell['stream'] === 'string' ? KEY.exec(shell['stream']) : null
    if (spelled === null) throw new Malformed('it leaves out an identity its stream key does not spell')
    const [turn, step, number] = [1, 2, 3].map((i) => Number(spelled[i]))
    attempt = { turn, step, attempt: number, ...attempt }
  }
  shell['attempt'] = attempt
}

function leaveRecorded(
  recorded: Record<string, unknown>,
  stream: ImpliedStream,
): { recorded: Record<string, unknown>; implied: number } {
  let implied = 0
  const out = { ...recorded }
  const diff = Array.isArray(recorded['content'])
    ? diffContent(recorded['content'], builtBlocks(stream.chunks))
    : null
  if (diff !== null) {
    out['content'] = diff
    implied |= CONTENT_DIFF
  }
  const citation = recorded['citation']
  if (isRecord(citation) && Array.isArray(citation['missing']) && citation['missing'].length > 0) {
    const skipped = skippedSeqs(stream.seqs)
    if (skipped !== null && JSON.stringify(skipped) === JSON.stringify(citation['missing'])) {
      out['citation'] = { ...citation, missing: 0 }
      implied |= MISSING_SKIPPED
    }
  }
  return { recorded: out, implied }
}

function restoreRecorded(
  recorded: Record<string, unknown>,
  implied: number,
  stream: ImpliedStream,
): Record<string, unknown> {
  const out = { ...recorded }
  if ((implied & CONTENT_DIFF) !== 0)
    out['content'] = patchContent(recorded['content'], builtBlocks(stream.chunks))
  if ((implied & MISSING_SKIPPED) !== 0) {
    const citation = recorded['citation']
    const skipped = skippedSeqs(stream.seqs)
    if (!isRecord(citation) || citation['missing'] !== 0 || skipped === null)
      throw new Malformed('it leaves out missing seqs it cannot rebuild')
    out['citation'] = { ...citation, missing: skipped }
  }
  return out
}
