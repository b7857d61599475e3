import type { StreamChunk } from '../../core/protocol'
import { isRecord } from '../../core/base/isRecord'
import { noteBuffer } from '../sse/translator'
import { InlineBlocks, routeUsage, type InlineKind } from '../wire/inlineBlocks'
import type { WireDialect } from '../wire/readWire'

type PiStop = 'stop' | 'length' | 'toolUse' | 'error'

/**
 * The event types of the Gemini Interactions API stream (docs/protocol.md §9, "Gemini Interactions"): the step
 * events of the current API revision and the content events of the first one. Dotted, keyed by `event_type`, so
 * neither the Responses API's `response.*` `type`s nor Cohere's hyphenated ones are among them.
 */
export const INTERACTION_EVENTS: ReadonlySet<string> = new Set([
  'interaction.created',
  'interaction.start',
  'interaction.status_update',
  'interaction.completed',
  'interaction.complete',
  'step.start',
  'step.delta',
  'step.stop',
  'content.start',
  'content.delta',
  'content.stop',
])

/** An interaction's `status` as the stop reason pi-ai's nearest readers give (its Responses reader for statuses). */
function stopOf(status: unknown, sawToolCall: boolean): { stopReason: PiStop; errorMessage?: string } {
  switch (status) {
    case 'completed':
    case undefined:
      return { stopReason: sawToolCall ? 'toolUse' : 'stop' }
    case 'requires_action':
      return { stopReason: 'toolUse' }
    case 'incomplete':
      return { stopReason: 'length' }
    case 'failed':
    case 'cancelled':
      return { stopReason: 'error', errorMessage: `Interaction ${status}` }
    default:
      return { stopReason: 'error', errorMessage: `Unhandled interaction status: ${String(status)}` }
  }
}

/** The block a step or content of this `type` opens; null for the server-side tools and media, which get none. */
function kindOf(type: unknown): InlineKind | null {
  if (type === 'text' || type === 'model_output') return 'text'
  if (type === 'thought' || type === 'thought_summary') return 'reasoning'
  if (type === 'function_call') return 'tool-call'
  return null
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/**
 * A Gemini Interactions stream by the principles of the harness's pi-ai route (docs/protocol.md §9, "Wires without
 * a harness route", "Gemini Interactions"): each step (`step.start`) or content (`content.start`) `index` is one
 * block at the next free index — `model_output` / `text` a text block, `thought` reasoning, `function_call` a tool
 * call with its id and name; deltas `text`, `thought_summary` (`content.text`), `arguments_delta` (argument text)
 * and a whole `function_call` (`arguments` as an object) go to it; `step.stop` / `content.stop` close it inline.
 * `interaction.completed` (`.complete`) ends the stream: open blocks close, usage from `interaction.usage`, the
 * finish from `interaction.status`. An `error` event fails in band. Thought signatures, annotations and the
 * server-side tool steps (search, code execution, URL context, MCP, results) are named and dropped.
 */
export function createInteractionsDialect(): WireDialect {
  const blocks = new InlineBlocks()
  const notes = noteBuffer()
  let finished = false
  let status: unknown
  const model = 'unknown'
  /** Per wire index: the `arguments` a function_call step started with (used when no argument text streams). */
  const startArgs = new Map<string, unknown>()
  const streamedArgs = new Set<string>()

  const fail = (message: string): StreamChunk[] => {
    finished = true
    return blocks.finish({ stopReason: 'error', errorMessage: message, model }, routeUsage(0, 0))
  }

  const open = (key: string, shape: Record<string, unknown>): StreamChunk[] => {
    const kind = kindOf(shape['type'])
    if (kind === null) {
      notes.note(
        `step:${String(shape['type'])}`,
        'info',
        `a ${JSON.stringify(shape['type'])} step or content (server-side tool, result or media): no block, its deltas dropped`,
      )
      return []
    }
    if (kind !== 'tool-call') return blocks.open(kind, key)
    // The content model's start names no call: its whole function_call delta opens the block, id and name with it.
    if (shape['id'] === undefined && shape['name'] === undefined && shape['arguments'] === undefined)
      return []
    startArgs.set(key, shape['arguments'])
    return blocks.open(kind, key, { id: text(shape['id']), name: text(shape['name']) })
  }

  const delta = (key: string, d: Record<string, unknown>): StreamChunk[] => {
    const type = d['type']
    // A delta for an index no start opened (the content model may skip content.start): its type opens the block.
    const out = !blocks.has(key) && kindOf(type) !== null ? open(key, d) : []
    switch (type) {
      case 'text':
        if (d['annotations'] !== undefined)
          notes.note(
            'annotations',
            'info',
            'text annotations (citations): no StreamChunk carries them, not kept',
          )
        return [...out, ...blocks.delta(key, text(d['text']))]
      case 'thought_summary': {
        const content = isRecord(d['content']) ? d['content'] : {}
        return [...out, ...blocks.delta(key, text(content['text']))]
      }
      case 'arguments_delta':
        streamedArgs.add(key)
        return [...out, ...blocks.delta(key, text(d['arguments']))]
      case 'function_call': {
        // The content model sends the call whole: its arguments object is the tool call's one delta.
        streamedArgs.add(key)
        return [...out, ...blocks.delta(key, JSON.stringify(d['arguments'] ?? {}))]
      }
      case 'thought_signature':
        notes.note(
          'signature',
          'info',
          'thought signatures: not kept (a wire without a harness route gets no replay envelope)',
        )
        return out
      default:
        if (!blocks.has(key))
          notes.note(
            `delta:${String(type)}`,
            'info',
            `a ${JSON.stringify(type)} delta (server-side tool, result or media): no block, dropped`,
          )
        else notes.note(`delta:${String(type)}`, 'info', `a ${JSON.stringify(type)} delta: not kept`)
        return out
    }
  }

  const stop = (key: string): StreamChunk[] => {
    const args = startArgs.get(key)
    startArgs.delete(key)
    // A function_call step whose arguments came whole in step.start and never streamed: they are its one delta.
    const whole =
      !streamedArgs.has(key) && isRecord(args) && Object.keys(args).length > 0
        ? blocks.delta(key, JSON.stringify(args))
        : []
    streamedArgs.delete(key)
    return [...whole, ...blocks.close(key)]
  }

  const complete = (interaction: Record<string, unknown>): StreamChunk[] => {
    finished = true
    if (interaction['status'] !== undefined) status = interaction['status']
    const usage = isRecord(interaction['usage']) ? interaction['usage'] : {}
    if (typeof usage['total_tool_use_tokens'] === 'number' && usage['total_tool_use_tokens'] > 0)
      notes.note(
        'tool-use-tokens',
        'info',
        'usage.total_tool_use_tokens: not kept (pi-ai counts no tool-use prompt tokens on its Google route either)',
      )
    const cached = usage['total_cached_tokens']
    const input = typeof usage['total_input_tokens'] === 'number' ? usage['total_input_tokens'] : 0
    const output = typeof usage['total_output_tokens'] === 'number' ? usage['total_output_tokens'] : 0
    const thought = typeof usage['total_thought_tokens'] === 'number' ? usage['total_thought_tokens'] : 0
    const read = typeof cached === 'number' ? cached : 0
    const stopped = stopOf(status, blocks.sawToolCall)
    return blocks.finish(
      { stopReason: stopped.stopReason, errorMessage: stopped.errorMessage, model },
      routeUsage(input - read, output + thought, { read }),
    )
  }

  return {
    markers: new Set(['[DONE]']),
    push(payload, eventName) {
      if (finished) return []
      // The SDK's stream stops reading at [DONE]: before interaction.completed, the stream ended without its end.
      if (payload === '[DONE]') {
        notes.note(
          'done-early',
          'warning',
          '[DONE] before interaction.completed: the stream fails (TRANSPORT) there',
        )
        return fail('Gemini Interactions stream ended ([DONE]) before interaction.completed')
      }
      if (!isRecord(payload)) {
        notes.note('not-object', 'warning', 'event data that is no JSON object: skipped')
        return []
      }
      const type = typeof payload['event_type'] === 'string' ? payload['event_type'] : eventName
      const key = String(payload['index'])
      switch (type) {
        case 'interaction.created':
        case 'interaction.start':
          return []
        case 'interaction.status_update':
          if (payload['status'] !== undefined) status = payload['status']
          return []
        case 'step.start':
        case 'content.start': {
          const shape = payload[type === 'step.start' ? 'step' : 'content']
          return open(key, isRecord(shape) ? shape : {})
        }
        case 'step.delta':
        case 'content.delta':
          return isRecord(payload['delta']) ? delta(key, payload['delta']) : []
        case 'step.stop':
        case 'content.stop':
          return stop(key)
        case 'interaction.completed':
        case 'interaction.complete':
          return complete(isRecord(payload['interaction']) ? payload['interaction'] : {})
        case 'error': {
          const error = isRecord(payload['error']) ? payload['error'] : {}
          const code = typeof error['code'] === 'string' ? `${error['code']}: ` : ''
          return fail(`${code}${text(error['message']) || 'Gemini Interactions stream error'}`)
        }
        default:
          notes.note(`event:${String(type)}`, 'info', `event ${JSON.stringify(type)}: not read`)
          return []
      }
    },
    malformed(where) {
      finished = true
      return [
        { type: 'usage', usage: routeUsage(0, 0) },
        {
          type: 'finish',
          reason: { kind: 'error', failure: { message: where, code: 'MALFORMED_RESPONSE' } },
        },
      ]
    },
    end() {
      if (finished) return []
      notes.note(
        'no-end',
        'warning',
        'the body ends before interaction.completed: the stream fails (TRANSPORT), open blocks stay open',
      )
      return fail('Gemini Interactions stream ended before interaction.completed')
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}
