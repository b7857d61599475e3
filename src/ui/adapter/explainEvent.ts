import type { SourcedChunk } from '../../core/protocol'
import { english, type T } from '../i18n/translate'
import type { WireTrace } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'
import { partitionPoint } from '../../core/base/partitionPoint'
import { explainWireEvent } from './explainWire'
import { explainResponses } from './explainResponses'

/**
 * Why a raw event became no chunk, or what is odd about one that did:
 * - `held`: a finish reason or usage the adapter remembers until the end marker (`[DONE]`, §9);
 * - `after-finish`: the adapter reads nothing once the stream has finished;
 * - `metadata`: a role-only delta, empty content, no choices, a message id;
 * - `keep-alive`: an SSE comment or a `ping`;
 * - `not-read`: fields the harness's adapter ignores (named);
 * - `undispatched`: the body's last event with no blank line after it, which the harness's SSE parser never dispatches;
 * - `late-delta`: a delta arriving after an earlier event's `finish_reason` (the adapter still reads it).
 */
export type EventNote = {
  readonly kind:
    'held' | 'after-finish' | 'metadata' | 'keep-alive' | 'not-read' | 'undispatched' | 'late-delta'
  readonly text: string
}

/** Delta fields the harness's DeepSeek adapter reads (§9). */
const READ_DELTA_KEYS: ReadonlySet<string> = new Set(['content', 'reasoning_content', 'tool_calls', 'role'])
const DELTA_CHUNKS: ReadonlySet<string> = new Set(['text-delta', 'reasoning-delta', 'tool-call-delta'])

/**
 * The first wire event of an OpenAI-style trace that carries a string `finish_reason`, or -1: one native regex pass
 * over the body, so a million-event capture costs no JSON parse per event.
 */
export function firstFinishReasonEvent(trace: WireTrace): number {
  if (trace.format !== 'openai-sse') return -1
  const match = /"finish_reason"\s*:\s*"/.exec(trace.text)
  if (match === null) return -1
  return partitionPoint(trace.count, (i) => trace.start[i]! <= match.index) - 1
}

/**
 * What the Adapter view says beside event `event`: why it produced no chunk, or a flag on a delta after the finish
 * reason. Null when there is nothing to say. Looks at one event only (the view asks per visible pair).
 *
 * @example
 * explainEvent(trace, 3, chunks, firstFinishReasonEvent(trace)) // { kind: 'held', text: 'held for [DONE]: …' }
 */
export function explainEvent(
  trace: WireTrace,
  event: number,
  chunks: readonly SourcedChunk[],
  finishReasonAt: number,
  t: T = english,
): EventNote | null {
  const from = trace.chunkFrom[event]!
  const to = trace.chunkTo[event]!
  const { data, name } = readEvent(trace.text.slice(trace.start[event]!, trace.end[event]!))
  if (to > from) {
    if (finishReasonAt < 0 || event <= finishReasonAt) return null
    for (let pos = from; pos < to; pos++)
      if (DELTA_CHUNKS.has(chunks[pos]!.chunk.type))
        return {
          kind: 'late-delta',
          text: t('adapter.lateDelta', {
            event: String(finishReasonAt + 1),
            line: String(trace.line[finishReasonAt]),
          }),
        }
    return null
  }
  const wire = explainWireEvent(trace, event, from > 0 && chunks[from - 1]!.chunk.type === 'finish', t)
  if (wire !== undefined) return wire
  if (from > 0 && chunks[from - 1]!.chunk.type === 'finish')
    return {
      kind: 'after-finish',
      text: t('adapter.afterFinish'),
    }
  if (
    (trace.format === 'openai-sse' || trace.format === 'openai-responses-sse') &&
    event === trace.count - 1 &&
    !/(\r\n|\r|\n)(\r\n|\r|\n)/.test(trace.text.slice(trace.start[event]!))
  )
    return {
      kind: 'undispatched',
      text: t('adapter.undispatched'),
    }
  if (data === null || name === 'ping') return { kind: 'keep-alive', text: t('adapter.keepAlive') }
  if (trace.format === 'openai-sse') return explainOpenAi(data, t)
  if (trace.format === 'anthropic-sse') return explainAnthropic(data, name, t)
  if (trace.format === 'openai-responses-sse') return explainResponses(data, t)
  return null
}

/** The joined `data:` lines and the `event:` name of one raw SSE event; `data` null when it has none (comments). */
function readEvent(raw: string): { data: string | null; name: string | null } {
  const data: string[] = []
  let name: string | null = null
  for (const line of raw.split(/\r\n|\r|\n/)) {
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
    else if (line.startsWith('event:')) name = line.slice(6).trim()
  }
  return { data: data.length === 0 ? null : data.join('\n'), name }
}

function explainOpenAi(data: string, t: T): EventNote | null {
  const payload = parse(data)
  if (payload === null) return null
  if (!isRecord(payload))
    return { kind: 'not-read', text: t('adapter.notReadBy', { what: t('adapter.jsonNoObject') }) }
  const held: string[] = []
  const unread: string[] = []
  const metadata: string[] = []
  const choices = payload['choices']
  if (Array.isArray(choices)) {
    if (choices.length === 0) metadata.push(t('adapter.noChoices'))
    for (const choice of choices) {
      if (!isRecord(choice)) continue
      if (typeof choice['finish_reason'] === 'string')
        held.push(`finish_reason ${JSON.stringify(choice['finish_reason'])}`)
      const delta = choice['delta']
      if (!isRecord(delta)) continue
      for (const key in delta) {
        const value = delta[key]
        if (key === 'role') metadata.push(t('adapter.roleOnly'))
        else if (value === '' || value === null) metadata.push(t('adapter.empty', { key }))
        else if (!READ_DELTA_KEYS.has(key) || (key === 'content' && typeof value !== 'string'))
          unread.push(`delta.${key}`)
      }
    }
  }
  if (payload['usage']) held.push('usage')
  if (payload['error'] !== undefined) unread.push('error')
  if (held.length > 0)
    return { kind: 'held', text: t('adapter.heldDone', { what: held.join(t('adapter.and')) }) }
  if (unread.length > 0) return { kind: 'not-read', text: t('adapter.notReadBy', { what: unique(unread) }) }
  return {
    kind: 'metadata',
    text: t('adapter.metadataOnly', {
      what: metadata.length === 0 ? t('adapter.nothingRead') : unique(metadata),
    }),
  }
}

/** The Anthropic reader (pi-ai's, §9) keeps these for later or for the message; the rest it skips. */
function explainAnthropic(data: string, name: string | null, t: T): EventNote {
  const payload = parse(data)
  const type = name ?? (isRecord(payload) && typeof payload['type'] === 'string' ? payload['type'] : null)
  switch (type) {
    case 'message_start':
      return {
        kind: 'metadata',
        text: t('adapter.metadataOnly', { what: t('adapter.anthropic.messageStart') }),
      }
    case 'message_delta':
      return {
        kind: 'held',
        text: t('adapter.anthropic.messageDelta'),
      }
    case 'message_stop':
      return { kind: 'held', text: t('adapter.anthropic.messageStop') }
    case 'content_block_delta': {
      const delta = isRecord(payload) && isRecord(payload['delta']) ? payload['delta']['type'] : undefined
      return delta === 'signature_delta'
        ? { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.anthropic.signature') }) }
        : {
            kind: 'not-read',
            text: t('adapter.notReadBy', { what: t('adapter.anthropic.delta', { delta: String(delta) }) }),
          }
    }
    default:
      return { kind: 'not-read', text: t('adapter.notReadBy', { what: type ?? t('adapter.noType') }) }
  }
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown
  } catch {
    return null
  }
}

function unique(items: readonly string[]): string {
  return [...new Set(items)].join(', ')
}
