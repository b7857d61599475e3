import type { StreamChunk } from '../../core/protocol'
import { isRecord } from '../../core/base/isRecord'
import { noteBuffer } from '../sse/translator'
import { InlineBlocks, routeUsage } from '../wire/inlineBlocks'
import type { WireDialect } from '../wire/readWire'

type PiStop = 'stop' | 'length' | 'toolUse' | 'error'

/** Parts that carry nothing for the assistant message's blocks, and why (for the diagnostics). */
export const NOT_BLOCKS: Readonly<Record<string, string>> = {
  start: 'message metadata',
  'start-step': 'a step boundary',
  'finish-step': 'a step boundary',
  'stream-start': 'call warnings',
  'response-metadata': 'the response id and model',
  'message-metadata': 'message metadata',
  'tool-output-available': 'a tool result (the harness stores results as tool events, not in the message)',
  'tool-output-error': 'a tool result',
  'tool-result': 'a provider-executed tool result',
  'tool-approval-request': 'an approval request',
  'tool-output-denied': 'a denied tool call',
  'source-url': 'a source',
  'source-document': 'a source',
  source: 'a source',
  file: 'a file part',
  raw: "the provider's raw chunk",
}

/** The AI SDK's finish reason (a string, or `{unified, raw}` in LanguageModelV3) as pi-ai's stop reasons. */
function stopOf(reason: unknown, toolInStep: boolean): { stopReason: PiStop; errorMessage?: string } {
  const value = isRecord(reason) ? reason['unified'] : reason
  switch (value) {
    case undefined:
    case 'stop':
      return { stopReason: toolInStep && value === undefined ? 'toolUse' : 'stop' }
    case 'length':
      return { stopReason: 'length' }
    case 'tool-calls':
      return { stopReason: 'toolUse' }
    default:
      return { stopReason: 'error', errorMessage: `Provider finish_reason: ${String(value)}` }
  }
}

/** A count that is a number, or `{total}` (LanguageModelV3's usage objects). */
function total(value: unknown): unknown {
  return isRecord(value) ? value['total'] : value
}

/**
 * The AI SDK's usage as the route's: input is the uncached count (`noCache` of LanguageModelV3's `{total, noCache,
 * cacheRead, cacheWrite}`, else v2's flat `inputTokens` less `cachedInputTokens`), cache reads and writes beside it.
 */
function usageOf(usage: unknown) {
  if (!isRecord(usage)) return null
  const input = usage['inputTokens']
  if (isRecord(input))
    return routeUsage(input['noCache'] ?? input['total'], total(usage['outputTokens']), {
      read: input['cacheRead'],
      write: input['cacheWrite'],
    })
  // LanguageModelV2: `inputTokens` counts the cached ones too (`cachedInputTokens` is part of it).
  const flat = input ?? usage['promptTokens']
  const cached = usage['cachedInputTokens']
  const uncached = typeof flat === 'number' && typeof cached === 'number' ? flat - cached : flat
  return routeUsage(uncached, total(usage['outputTokens']) ?? usage['completionTokens'], { read: cached })
}

/** The usage an app put in its message metadata (the UI stream itself has none): `usage` or `totalUsage`. */
function metadataUsage(part: Record<string, unknown>) {
  const meta = part['messageMetadata']
  return isRecord(meta) ? (usageOf(meta['usage']) ?? usageOf(meta['totalUsage'])) : null
}

/**
 * The Vercel AI SDK's stream parts by the principles of the harness's pi-ai route (docs/protocol.md §9, "Wires without a harness route", "AI SDK"):
 * both vocabularies — the UI message stream's (`tool-input-available`, `inputTextDelta`, `errorText`) and the
 * language-model stream parts `@ai-sdk/devtools` stores (`tool-call`, `tool-input-end`, `delta`, `usage` on
 * `finish`). `text-*` and `reasoning-*` parts are blocks keyed by their `id`, closed inline at their `-end`; a tool
 * call is a block keyed by its call id, closed at `tool-input-available` / `tool-call` with the final input. A
 * provider-executed tool call (`providerExecuted: true`) is no block of the message, as pi-ai drops server-side
 * blocks. `finish` closes what is open, then usage (from `finish.usage`, or the app's `messageMetadata.usage`;
 * zeros when neither), then finish. `error` and `abort` end the stream in band.
 */
export function createAiSdkDialect(): WireDialect {
  const blocks = new InlineBlocks()
  const notes = noteBuffer()
  const serverSide = new Set<string>()
  const skipped = new Map<string, number>()
  let usage: ReturnType<typeof usageOf> = null
  let finished = false
  let steps = 0
  // A finish without a reason is tool-calls only when the last step called a tool: a multi-step stream whose last
  // step answers in text after the tool results ends as that step did (docs/protocol.md §9, "Vercel AI SDK").
  let toolInStep = false
  const model = 'unknown'

  const summarize = () => {
    if (skipped.size > 0)
      notes.note(
        'skipped',
        'info',
        `parts that are no block: ${[...skipped].map(([type, n]) => `${type} ×${n} (${NOT_BLOCKS[type] ?? 'unknown'})`).join(', ')}`,
      )
    if (steps > 1)
      notes.note(
        'steps',
        'info',
        `${steps} steps in one stream: read as one stream (the UI stream has no per-step finish)`,
      )
  }
  const end = (stopReason: PiStop | 'aborted', errorMessage?: string): StreamChunk[] => {
    finished = true
    summarize()
    if (usage === null)
      notes.note(
        'no-usage',
        'info',
        'no usage in the stream (the UI message stream carries none): usage reads 0',
      )
    return blocks.finish({ stopReason, errorMessage, model }, usage ?? routeUsage(0, 0))
  }
  const skip = (type: string) => skipped.set(type, (skipped.get(type) ?? 0) + 1)
  const callId = (part: Record<string, unknown>) => String(part['toolCallId'] ?? part['id'])
  const toolKey = (id: string) => `t:${id}`
  const closeTool = (part: Record<string, unknown>, input: unknown): StreamChunk[] => {
    const id = callId(part)
    if (serverSide.has(id) || part['providerExecuted'] === true) {
      skip('provider-executed tool call')
      return []
    }
    toolInStep = true
    const args = typeof input === 'string' ? input : JSON.stringify(input ?? {})
    if (blocks.has(toolKey(id))) return blocks.close(toolKey(id), args)
    return blocks.wholeToolCall(toolKey(id), id, String(part['toolName'] ?? ''), args)
  }

  return {
    markers: new Set(['[DONE]']),
    push(payload) {
      if (finished) return []
      if (payload === '[DONE]') {
        notes.note('done-early', 'warning', '[DONE] before a finish part: the stream fails (TRANSPORT)')
        return end('error', 'AI SDK stream ended without a finish part')
      }
      if (!isRecord(payload) || typeof payload['type'] !== 'string') {
        notes.note('no-type', 'warning', 'a part without a string type: skipped')
        return []
      }
      const part = payload
      const type = payload['type']
      const delta = (part['delta'] ?? part['textDelta']) as unknown
      switch (type) {
        case 'text-start':
          return blocks.open('text', `x:${String(part['id'])}`)
        case 'reasoning-start':
          return blocks.open('reasoning', `r:${String(part['id'])}`)
        case 'text-delta':
          return typeof delta === 'string' ? blocks.delta(`x:${String(part['id'])}`, delta) : []
        case 'reasoning-delta':
          return typeof delta === 'string' ? blocks.delta(`r:${String(part['id'])}`, delta) : []
        case 'text-end':
          return blocks.close(`x:${String(part['id'])}`)
        case 'reasoning-end':
          return blocks.close(`r:${String(part['id'])}`)
        case 'tool-input-start': {
          const id = callId(part)
          if (part['providerExecuted'] === true) {
            serverSide.add(id)
            return []
          }
          toolInStep = true
          return blocks.open('tool-call', toolKey(id), { id, name: String(part['toolName'] ?? '') })
        }
        case 'tool-input-delta': {
          const piece = part['inputTextDelta'] ?? part['delta']
          return typeof piece === 'string' ? blocks.delta(toolKey(callId(part)), piece) : []
        }
        case 'tool-input-end':
          return []
        case 'tool-input-available':
        case 'tool-call':
          return closeTool(part, part['input'])
        case 'tool-input-error':
          notes.note(
            'input-error',
            'warning',
            'tool-input-error: a tool call whose input did not validate, kept as sent',
          )
          return closeTool(part, part['input'])
        case 'finish': {
          usage = usageOf(part['usage']) ?? metadataUsage(part) ?? usage
          const stop = stopOf(part['finishReason'], toolInStep)
          return end(stop.stopReason, stop.errorMessage)
        }
        case 'error': {
          const text = part['errorText'] ?? part['error']
          const message = typeof text === 'string' ? text : JSON.stringify(text)
          return end('error', message)
        }
        case 'abort':
          return end('aborted', typeof part['reason'] === 'string' ? part['reason'] : 'aborted')
        default:
          if (type === 'start-step') {
            steps += 1
            toolInStep = false
          }
          if (type === 'start' || type === 'message-metadata') usage = metadataUsage(part) ?? usage
          skip(type.startsWith('data-') ? 'data-*' : type)
          return []
      }
    },
    malformed: (message) => {
      finished = true
      return [
        { type: 'usage', usage: routeUsage(0, 0) },
        { type: 'finish', reason: { kind: 'error', failure: { message, code: 'MALFORMED_RESPONSE' } } },
      ]
    },
    end() {
      if (finished) return []
      notes.note('no-finish', 'warning', 'the body ends before a finish part: the stream fails (TRANSPORT)')
      return end('error', 'AI SDK stream ended without a finish part')
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}

/**
 * The UI message stream: SSE whose data parts have an AI SDK part type (and `[DONE]`). Part types are hyphenated
 * (`text-delta`), so no Anthropic event (underscores), Responses event (`response.`), chat-completions chunk (no
 * `type`) or Cohere event (`content-delta`, `message-end`: names the AI SDK never uses) is one.
 */
export const UI_PART_TYPES: ReadonlySet<string> = new Set([
  'start',
  'start-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-output-available',
  'tool-output-error',
  'finish-step',
  'finish',
  'error',
  'abort',
  'message-metadata',
  'source-url',
  'source-document',
  'file',
])
