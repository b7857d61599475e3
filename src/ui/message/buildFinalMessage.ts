import type { AssemblyRead } from '../../core/analyzeStream'
import { english, type T } from '../i18n/translate'
import type { ContentBlock, FinishReason, TokenUsage } from '../../core/protocol'
import type { Attempt, RecordedMessage, Session } from '../../core/session'
import { diffMessages, type MessageDiff } from '../blocks/buildDiff'

/** The message the panel shows: `blocks()`, or `interruptedBlocks()` for a cancelled attempt (docs/protocol.md §6). */
export type ShownMessage = {
  readonly blocks: readonly ContentBlock[] | null
  readonly error: string | null
  /** Which harness call threw `error`: a push (the harness stopped reading there), `blocks()` or `interruptedBlocks()`. */
  readonly thrower: 'push' | 'blocks()' | 'interruptedBlocks()' | null
  /** Shown as `interruptedBlocks()`: no finish, and the harness recorded an interrupted message. */
  readonly interrupted: boolean
}

/**
 * Picks what the harness would keep: a stream with no finish whose recorded message is `interrupted` was cancelled,
 * and the harness stores `interruptedBlocks()` (text and reasoning only); anything else stores `blocks()`.
 *
 * @example
 * shownMessage(frame, attempt.recorded) // { blocks: [...], error: null, interrupted: false }
 */
export function shownMessage(read: AssemblyRead, recorded: RecordedMessage | null): ShownMessage {
  // A push that threw ended the attempt in that error: no message, cancelled or not (§3).
  if (read.errorPos !== null) return { blocks: null, error: read.error, thrower: 'push', interrupted: false }
  if (!read.hasFinish && recorded?.interrupted === true) {
    const error = read.interruptedBlocksError
    return {
      blocks: read.interruptedBlocks,
      error,
      thrower: error === null ? null : 'interruptedBlocks()',
      interrupted: true,
    }
  }
  return {
    blocks: read.blocks,
    error: read.error,
    thrower: read.error === null ? null : 'blocks()',
    interrupted: false,
  }
}

/**
 * The panel's error line: which harness call threw, where, and what the harness does next (docs/protocol.md §3). A push
 * that throws is the agent loop's end: the chunk is logged, the stream is not read further, no assistant/message is
 * written and the turn ends in an error with code UNKNOWN and this message.
 *
 * @example
 * describeThrow(shown, 'seq 7') // 'push throws at seq 7: Cannot read properties of null (reading 'type') — …'
 */
export function describeThrow(shown: ShownMessage, where: string | null): string | null {
  if (shown.error === null || shown.thrower === null) return null
  if (shown.thrower !== 'push') return `${shown.thrower} throws: ${shown.error}`
  return `push throws${where === null ? '' : ` at ${where}`}: ${shown.error} — the harness stops reading the stream there, writes no assistant/message and ends the turn in an error (code UNKNOWN) with this message`
}

/** "usage in 120 / out 18 · cache read 30 · reasoning 4", every field the chunk carried. */
export function describeUsage(usage: TokenUsage | null, t: T = english): string {
  if (usage === null) return t('usage.none')
  // Raw numbers, no grouping: the line is monospace and reads like the chunk's own fields.
  const raw = (value: number) => String(value)
  const parts = [t('usage.inOut', { input: raw(usage.inputTokens), output: raw(usage.outputTokens) })]
  if (usage.cacheReadTokens !== undefined) parts.push(t('usage.cacheRead', { n: raw(usage.cacheReadTokens) }))
  if (usage.cacheWriteTokens !== undefined)
    parts.push(t('usage.cacheWrite', { n: raw(usage.cacheWriteTokens) }))
  if (usage.reasoningTokens !== undefined) parts.push(t('usage.reasoning', { n: raw(usage.reasoningTokens) }))
  const cached = (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0)
  // The counts are disjoint (docs/protocol.md §1): billed input adds the cached parts.
  if (cached > 0) parts.push(t('usage.billed', { n: raw(usage.inputTokens + cached) }))
  return parts.join(' · ')
}

/** "finish tool-calls", "finish error AUTH: bad key (status 401)", or the stop a missing finish reads as. */
export function describeFinish(
  finish: FinishReason,
  hasFinish: boolean,
  streaming = false,
  t: T = english,
): string {
  if (!hasFinish && streaming) return t('finish.streaming')
  if (!hasFinish) return t('finish.missing')
  if (!('failure' in finish) || typeof finish.failure !== 'object' || finish.failure === null)
    return t('finish.kind', { kind: finish.kind })
  const { code, message, status, requestId, providerRetryAfterMs } = finish.failure
  const extra = [
    status !== undefined ? t('finish.status', { status: String(status) }) : null,
    providerRetryAfterMs !== undefined ? t('finish.retryAfter', { ms: String(providerRetryAfterMs) }) : null,
    requestId !== undefined ? t('finish.request', { id: requestId }) : null,
  ].filter((part) => part !== null)
  const head = t('finish.failure', { kind: finish.kind, code, message })
  return `${head}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`
}

/** The assembled message against the recorded one, as the harness compares them (§6). */
export type RecordedVerdict =
  | { readonly kind: 'compared'; readonly diff: MessageDiff; readonly assembled: readonly ContentBlock[] }
  | { readonly kind: 'assembly-error'; readonly error: string }

export function compareWithRecorded(result: AssemblyRead, recorded: RecordedMessage): RecordedVerdict {
  const assembled = recorded.interrupted ? result.interruptedBlocks : result.blocks
  if (assembled === null) return { kind: 'assembly-error', error: result.error ?? 'assembly failed' }
  return { kind: 'compared', diff: diffMessages(assembled, recorded.content), assembled }
}

/**
 * Why an attempt has no recorded message (§6): a failed attempt is cited by nothing, a cancelled one with nothing
 * worth keeping writes nothing, and crash repair writes a message without sourceEventSeqs that links to no attempt.
 */
export function whyUnrecorded(
  attempt: Attempt,
  session: Session | undefined,
  result: AssemblyRead,
  streaming = false,
): string | null {
  // A bare chunk file has nothing recorded: nothing to explain.
  if (attempt.kind === 'stream') return null
  // A live capture still arriving: the message is written when the attempt ends (§6).
  if (streaming) return 'still streaming: the assistant/message is written when the attempt ends'
  const sameStep = (a: { turn: number | null; step: number | null }) =>
    a.turn === attempt.turn && a.step === attempt.step
  if (result.hasFinish && (result.finish.kind === 'error' || result.finish.kind === 'aborted')) {
    const code = 'failure' in result.finish ? ` ${result.finish.failure.code}` : ''
    const next = session?.streams.find((s) => sameStep(s) && s.attempt === (attempt.attempt ?? 0) + 1)
    const retry = next ? `; it was retried as ${next.id}` : ''
    return `uncited: the attempt failed (finish ${result.finish.kind}${code}) and the harness writes no message for a failed attempt${retry}`
  }
  const repaired = session?.messages.find((m) => m.provenance === 'unknown' && sameStep(m))
  const turnEnd = session?.turns.find((t) => t.turn === attempt.turn)?.end?.reason as
    { kind?: unknown } | undefined
  if (repaired !== undefined || turnEnd?.kind === 'interrupted') {
    const what = repaired
      ? `the repaired message at seq ${repaired.seq} carries no sourceEventSeqs, so it cites no chunk`
      : 'no message was written'
    return `crash repair: the stream was cut off; ${what}`
  }
  if (result.errorPos !== null)
    return `uncited: a push threw ("${result.error ?? ''}"), and the harness writes no message for an attempt that failed`
  if (!result.hasFinish) {
    const empty = result.interruptedBlocks?.length === 0
    return empty
      ? 'uncited: cancelled before any text or reasoning arrived (interruptedBlocks() is empty, so no message is written)'
      : 'uncited: no finish and no message (cancelled or cut off before the harness wrote one)'
  }
  return 'no assistant/message cites these chunks (the log may have been trimmed)'
}

/**
 * What a max-tokens finish dropped (§3: every tool-call block, open or closed, so truncated arguments never run),
 * from the blocks seen so far: the type a block-end gave, else the type it was opened with.
 *
 * @example
 * droppedToolCalls(frame) // 'max-tokens dropped tool-call block 1: truncated arguments never execute'
 */
export function droppedToolCalls(
  read: AssemblyRead,
  partials: readonly {
    readonly life: { readonly index: number; readonly blockType: string }
    readonly block?: { readonly type: string } | undefined
  }[],
): string | null {
  if (!read.hasFinish || read.finish.kind !== 'max-tokens') return null
  const dropped = partials
    .filter((p) => (p.block?.type ?? p.life.blockType) === 'tool-call')
    .map((p) => p.life.index)
  if (dropped.length === 0) return null
  const which = dropped.length === 1 ? `block ${dropped[0]}` : `blocks ${dropped.join(', ')}`
  return `max-tokens dropped tool-call ${which}: truncated arguments never execute`
}

/** The assembled message as JSON text, the shape the harness stores plus what the stream said about it. */
export function rawMessageJson(shown: ShownMessage, read: AssemblyRead): string {
  const message: Record<string, unknown> = { role: 'assistant', content: shown.blocks }
  if (shown.error !== null) message['error'] = shown.error
  if (shown.interrupted) message['interrupted'] = true
  if (read.usage !== null) message['usage'] = read.usage
  message['finish'] = read.hasFinish ? read.finish : null
  if (read.replayState !== null) message['replayState'] = read.replayState
  return JSON.stringify(message, null, 2)
}
