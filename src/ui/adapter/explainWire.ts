import type { WireTrace } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'
import { NOT_BLOCKS } from '../../formats/aisdk/aiSdkParts'
import type { EventNote } from './explainEvent'

const WIRE_FORMATS: ReadonlySet<string> = new Set([
  'ollama-ndjson',
  'cohere-sse',
  'ai-sdk-ui-sse',
  'ai-sdk-devtools',
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
): EventNote | null | undefined {
  if (!WIRE_FORMATS.has(trace.format)) return undefined
  const raw = trace.text.slice(trace.start[event]!, trace.end[event]!)
  const ndjson = trace.format === 'ollama-ndjson' || trace.format === 'ai-sdk-devtools'
  const payload = payloadOf(raw, ndjson)
  if (payload === null) return { kind: 'keep-alive', text: 'no data: nothing to read' }
  if ('text' in payload && payload.text === '[DONE]')
    return { kind: 'held', text: 'the end marker: the finish came with the finish part' }
  if (afterFinish)
    return {
      kind: 'after-finish',
      text: 'dropped after the finish: the reader reads nothing once the stream ended',
    }
  if ('text' in payload) {
    return {
      kind: 'undispatched',
      text:
        event === trace.count - 1
          ? 'cut short: the body ends inside this event, which is no whole JSON (or has no blank line after it): not read'
          : trace.format === 'ollama-ndjson'
            ? 'not JSON: skipped, as ollama-js skips it'
            : 'not JSON: the stream failed here',
    }
  }
  const json = payload.json
  if (!isRecord(json)) return { kind: 'not-read', text: 'not read: JSON, but no object' }
  if (trace.format === 'ollama-ndjson') return explainOllama(json)
  if (trace.format === 'cohere-sse') return explainCohere(json)
  return explainAiSdk(json)
}

function explainOllama(line: Record<string, unknown>): EventNote {
  const message = isRecord(line['message']) ? line['message'] : line
  const empty = ['content', 'thinking', 'response'].every(
    (k) => message[k] === undefined || message[k] === '',
  )
  return empty
    ? { kind: 'metadata', text: 'metadata only: an empty delta (model and time), nothing to append' }
    : { kind: 'not-read', text: 'not read: no content, thinking or tool_calls this reader keeps' }
}

function explainCohere(event: Record<string, unknown>): EventNote {
  switch (event['type']) {
    case 'message-start':
      return { kind: 'metadata', text: 'metadata only: the message id and an empty message' }
    case 'citation-start':
    case 'citation-end':
      return { kind: 'not-read', text: 'not read: citations, which no StreamChunk carries' }
    case 'content-delta':
    case 'tool-call-delta':
    case 'tool-plan-delta':
      return { kind: 'metadata', text: 'metadata only: an empty delta, nothing to append' }
    default:
      return {
        kind: 'not-read',
        text: `not read: ${String(event['type'])} is no chat stream event this reader keeps`,
      }
  }
}

function explainAiSdk(part: Record<string, unknown>): EventNote {
  const type = String(part['type'])
  if (part['providerExecuted'] === true)
    return {
      kind: 'not-read',
      text: 'not read: a provider-executed tool call, no block of the message (as pi-ai drops server-side blocks)',
    }
  if (type === 'tool-input-end')
    return {
      kind: 'metadata',
      text: 'metadata only: the block closes at tool-call, which carries the final input',
    }
  if (type.startsWith('data-'))
    return { kind: 'not-read', text: `not read: ${type}, the app's own data part` }
  const why = NOT_BLOCKS[type]
  if (why === undefined) return { kind: 'not-read', text: `not read: ${type} is no part this reader keeps` }
  const metadata = type.includes('start') || type.includes('metadata') || type.endsWith('-step')
  return {
    kind: metadata ? 'metadata' : 'not-read',
    text: `${metadata ? 'metadata only' : 'not read'}: ${why}`,
  }
}
