import type { WireTrace } from '../../core/session'
import { english, type T } from '../i18n/translate'
import { isRecord } from '../../core/base/isRecord'
import { NOT_BLOCKS } from '../../formats/aisdk/aiSdkParts'
import type { EventNote } from './explainEvent'
import { explainBedrockFrame, explainCompletions, explainInteractions } from './explainMoreWires'

const WIRE_FORMATS: ReadonlySet<string> = new Set([
  'ollama-ndjson',
  'cohere-sse',
  'ai-sdk-ui-sse',
  'ai-sdk-devtools',
  'openai-completions-sse',
  'gemini-interactions-sse',
])

/** The JSON of one raw event: an NDJSON line as it is, an SSE event's joined `data:` lines. */
function payloadOf(raw: string, ndjson: boolean): { json: unknown } | { text: string } | null {
  const data = ndjson
    ? raw
    : raw
        .split(/\r\n|\r|\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n')
  if (data.trim() === '') return null
  try {
    return { json: JSON.parse(data) as unknown }
  } catch {
    return { text: data }
  }
}

/**
 * Why a raw event of a wire without a harness route (docs/protocol.md §9, "Wires without a harness route") became
 * no chunk; `undefined` for the other formats (explainEvent answers for those). Only called for events that made
 * nothing; `afterFinish` when a finish chunk came before it.
 */
export function explainWireEvent(
  trace: WireTrace,
  event: number,
  afterFinish: boolean,
  t: T = english,
): EventNote | null | undefined {
  if (trace.format === 'bedrock-eventstream' && !afterFinish)
    return explainBedrockFrame(trace.text.slice(trace.start[event]!, trace.end[event]!), t)
  if (!WIRE_FORMATS.has(trace.format)) return undefined
  const raw = trace.text.slice(trace.start[event]!, trace.end[event]!)
  const ndjson = trace.format === 'ollama-ndjson' || trace.format === 'ai-sdk-devtools'
  const payload = payloadOf(raw, ndjson)
  if (payload === null) return { kind: 'keep-alive', text: t('adapter.wire.noData') }
  if ('text' in payload && payload.text === '[DONE]')
    return {
      kind: 'held',
      text: t(
        trace.format === 'gemini-interactions-sse'
          ? 'adapter.wire.interactionsDone'
          : 'adapter.wire.endMarker',
      ),
    }
  if (afterFinish)
    return {
      kind: 'after-finish',
      text: t('adapter.wire.afterFinish'),
    }
  if ('text' in payload) {
    return {
      kind: 'undispatched',
      text:
        event === trace.count - 1
          ? t('adapter.wire.cutShort')
          : trace.format === 'ollama-ndjson'
            ? t('adapter.wire.ollamaNotJson')
            : t('adapter.wire.notJson'),
    }
  }
  const json = payload.json
  if (!isRecord(json))
    return { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.jsonNoObject') }) }
  if (trace.format === 'ollama-ndjson') return explainOllama(json, t)
  if (trace.format === 'cohere-sse') return explainCohere(json, t)
  if (trace.format === 'openai-completions-sse') return explainCompletions(json, t)
  if (trace.format === 'gemini-interactions-sse') return explainInteractions(json, t)
  return explainAiSdk(json, t)
}

function explainOllama(line: Record<string, unknown>, t: T): EventNote {
  const message = isRecord(line['message']) ? line['message'] : line
  const empty = ['content', 'thinking', 'response'].every(
    (k) => message[k] === undefined || message[k] === '',
  )
  return empty
    ? { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.ollamaEmpty') }) }
    : { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.wire.ollamaNoContent') }) }
}

function explainCohere(event: Record<string, unknown>, t: T): EventNote {
  switch (event['type']) {
    case 'message-start':
      return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.cohereStart') }) }
    case 'citation-start':
    case 'citation-end':
      return { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.wire.citations') }) }
    case 'content-delta':
    case 'tool-call-delta':
    case 'tool-plan-delta':
      return { kind: 'metadata', text: t('adapter.metadataOnly', { what: t('adapter.wire.emptyDelta') }) }
    default:
      return {
        kind: 'not-read',
        text: t('adapter.notRead', { what: t('adapter.wire.cohereOther', { type: String(event['type']) }) }),
      }
  }
}

function explainAiSdk(part: Record<string, unknown>, t: T): EventNote {
  const type = String(part['type'])
  if (part['providerExecuted'] === true)
    return {
      kind: 'not-read',
      text: t('adapter.notRead', { what: t('adapter.wire.providerExecuted') }),
    }
  if (type === 'tool-input-end')
    return {
      kind: 'metadata',
      text: t('adapter.metadataOnly', { what: t('adapter.wire.toolInputEnd') }),
    }
  if (type.startsWith('data-'))
    return { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.wire.dataPart', { type }) }) }
  const why = NOT_BLOCKS[type]
  if (why === undefined)
    return { kind: 'not-read', text: t('adapter.notRead', { what: t('adapter.wire.unknownPart', { type }) }) }
  const metadata = type.includes('start') || type.includes('metadata') || type.endsWith('-step')
  return {
    kind: metadata ? 'metadata' : 'not-read',
    text: t(metadata ? 'adapter.metadataOnly' : 'adapter.notRead', { what: why }),
  }
}
