import type { T } from '../i18n/translate'
import { isRecord } from '../../core/base/isRecord'
import type { EventNote } from './explainEvent'

/**
 * Why a legacy Completions chunk made no chunk (docs/protocol.md §9, "Legacy OpenAI Completions"): a finish
 * reason or usage held for `[DONE]`, another choice than 0, Azure's filter results, or nothing but empty text.
 */
export function explainCompletions(chunk: Record<string, unknown>, t: T): EventNote {
  const held: string[] = []
  const dropped: string[] = []
  const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : []
  for (const choice of choices) {
    if (!isRecord(choice)) continue
    const index = choice['index'] ?? 0
    if (index !== 0) dropped.push(t('adapter.wire.otherChoice', { index: String(index) }))
    else if (typeof choice['finish_reason'] === 'string')
      held.push(`finish_reason ${JSON.stringify(choice['finish_reason'])}`)
  }
  if (chunk['usage']) held.push('usage')
  if (held.length > 0)
    return { kind: 'held', text: t('adapter.heldDone', { what: held.join(t('adapter.and')) }) }
  if (chunk['prompt_filter_results'] !== undefined) dropped.push('prompt_filter_results')
  if (dropped.length > 0)
    return { kind: 'not-read', text: t('adapter.notRead', { what: dropped.join(', ') }) }
  return {
    kind: 'metadata',
    text: t('adapter.metadataOnly', {
      what: choices.length === 0 ? t('adapter.noChoices') : t('adapter.wire.emptyDelta'),
    }),
  }
}

/**
 * Why a Gemini Interactions event made no chunk (docs/protocol.md §9, "Gemini Interactions"): the interaction's id
 * and status (kept for the finish), a server-side tool step, a thought signature, a delta with nothing in it.
 */
export function explainInteractions(event: Record<string, unknown>, t: T): EventNote {
  const type = String(event['event_type'])
  switch (type) {
    case 'interaction.created':
    case 'interaction.start':
      return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.interactionId') }) }
    case 'interaction.status_update':
      return {
        kind: 'held',
        text: t('adapter.wire.interactionStatus', { status: String(event['status']) }),
      }
    case 'step.start':
    case 'content.start': {
      const shape = event[type === 'step.start' ? 'step' : 'content']
      const kind = isRecord(shape) ? String(shape['type']) : '?'
      return kind === 'function_call'
        ? { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.callOpensAtDelta') }) }
        : {
            kind: 'not-read',
            text: t('adapter.notRead', { what: t('adapter.wire.serverStep', { type: kind }) }),
          }
    }
    case 'step.delta':
    case 'content.delta': {
      const delta = isRecord(event['delta']) ? String(event['delta']['type']) : '?'
      if (delta === 'thought_signature')
        return { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.wire.thoughtSignature') }) }
      if (delta === 'text' || delta === 'thought_summary' || delta === 'arguments_delta')
        return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.emptyDelta') }) }
      return {
        kind: 'not-read',
        text: t('adapter.notRead', { what: t('adapter.wire.serverStep', { type: delta }) }),
      }
    }
    case 'step.stop':
    case 'content.stop':
      return { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.wire.noBlockToClose') }) }
    default:
      return {
        kind: 'not-read',
        text: t('adapter.notRead', { what: t('adapter.wire.cohereOther', { type }) }),
      }
  }
}

/**
 * Why a Bedrock ConverseStream frame made no chunk (docs/protocol.md §9.4); the Adapter view's raw line of a frame is
 * `<event type> <payload>`. pi-ai keeps the stop reason and usage for the end of the body.
 */
export function explainBedrockFrame(raw: string, t: T): EventNote {
  const type = raw.slice(0, raw.indexOf(' ') === -1 ? raw.length : raw.indexOf(' '))
  switch (type) {
    case 'messageStart':
      return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.bedrockRole') }) }
    case 'messageStop':
    case 'metadata':
      return {
        kind: 'held',
        text: t('adapter.wire.bedrockHeld', { what: type === 'metadata' ? 'usage' : 'stopReason' }),
      }
    case 'contentBlockStart':
    case 'contentBlockDelta':
    case 'contentBlockStop':
      return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.noBlockToClose') }) }
    default:
      return {
        kind: 'not-read',
        text: t('adapter.notRead', { what: t('adapter.wire.cohereOther', { type }) }),
      }
  }
}
