import type { StreamChunk } from '../../core/protocol'
import { isRecord } from '../../core/base/isRecord'
import { noteBuffer } from '../sse/translator'
import { InlineBlocks, routeUsage } from '../wire/inlineBlocks'
import type { WireDialect } from '../wire/readWire'

type PiStop = 'stop' | 'length' | 'toolUse' | 'error'

/** Cohere's `finish_reason` as pi-ai's stop reasons (pi-ai has no Cohere reader; the nearest are its own maps). */
function stopOf(reason: unknown): { stopReason: PiStop; errorMessage?: string } {
  switch (reason) {
    case 'COMPLETE':
    case 'STOP_SEQUENCE':
      return { stopReason: 'stop' }
    case 'MAX_TOKENS':
      return { stopReason: 'length' }
    case 'TOOL_CALL':
      return { stopReason: 'toolUse' }
    default:
      return { stopReason: 'error', errorMessage: `Provider finish_reason: ${String(reason)}` }
  }
}

/** `delta.message` of an event, or an empty object. */
function messageOf(event: Record<string, unknown>): Record<string, unknown> {
  const delta = event['delta']
  return isRecord(delta) && isRecord(delta['message']) ? delta['message'] : {}
}

/**
 * A Cohere v2 chat stream by the principles of the harness's pi-ai route (docs/protocol.md §9, "Wires without a harness route", "Cohere v2"):
 * `content-start` opens a text (or, for `thinking` content, reasoning) block at the next free index, keyed by the
 * wire's content `index`; `content-delta` appends; `content-end` closes it inline. `tool-plan-delta` text is a
 * reasoning block (the model's plan before its tool calls), closed when the first content or tool call starts.
 * `tool-call-start` opens a tool-call block keyed by the wire's tool-call `index` (its own numbering) with the id and
 * name it carries and its first argument text; `tool-call-delta` appends argument text; `tool-call-end` closes with
 * the parsed arguments re-serialised. `message-end` closes what is open, then usage (`usage.tokens`, else
 * `usage.billed_units`), then finish. Citations are named and dropped.
 */
export function createCohereDialect(): WireDialect {
  const blocks = new InlineBlocks()
  const notes = noteBuffer()
  let finished = false
  const model = 'unknown'
  const closePlan = () => (blocks.has('plan') ? blocks.close('plan') : [])

  const fail = (message: string, code?: string): StreamChunk[] => {
    finished = true
    const usage = routeUsage(0, 0)
    if (code !== undefined)
      return [
        { type: 'usage', usage },
        { type: 'finish', reason: { kind: 'error', failure: { message, code } } },
      ]
    return blocks.finish({ stopReason: 'error', errorMessage: message, model }, usage)
  }

  return {
    push(payload, eventName) {
      if (finished) return []
      if (!isRecord(payload)) {
        notes.note('not-object', 'warning', 'event data that is no JSON object: skipped')
        return []
      }
      const type = typeof payload['type'] === 'string' ? payload['type'] : eventName
      const index = String(payload['index'])
      const message = messageOf(payload)
      switch (type) {
        case 'message-start':
          return []
        case 'content-start': {
          const content = isRecord(message['content']) ? message['content'] : {}
          const kind = content['type'] === 'thinking' ? 'reasoning' : 'text'
          if (content['type'] !== 'text' && content['type'] !== 'thinking')
            notes.note(
              'content-type',
              'warning',
              `content of type ${JSON.stringify(content['type'])}: read as text`,
            )
          const first = kind === 'text' ? content['text'] : content['thinking']
          const out = [...closePlan(), ...blocks.open(kind, `c${index}`)]
          if (typeof first === 'string' && first !== '') out.push(...blocks.delta(`c${index}`, first))
          return out
        }
        case 'content-delta': {
          const content = isRecord(message['content']) ? message['content'] : {}
          const piece = blocks.kindOf(`c${index}`) === 'reasoning' ? content['thinking'] : content['text']
          return typeof piece === 'string' ? blocks.delta(`c${index}`, piece) : []
        }
        case 'content-end':
          return blocks.close(`c${index}`)
        case 'tool-plan-delta': {
          const piece = message['tool_plan']
          if (typeof piece !== 'string' || piece === '') return []
          const out = blocks.has('plan') ? [] : blocks.open('reasoning', 'plan')
          return [...out, ...blocks.delta('plan', piece)]
        }
        case 'tool-call-start': {
          const call = isRecord(message['tool_calls']) ? message['tool_calls'] : {}
          const fn = isRecord(call['function']) ? call['function'] : {}
          const id = typeof call['id'] === 'string' ? call['id'] : ''
          const name = typeof fn['name'] === 'string' ? fn['name'] : ''
          const out = [...closePlan(), ...blocks.open('tool-call', `t${index}`, { id, name })]
          const args = fn['arguments']
          if (typeof args === 'string' && args !== '') out.push(...blocks.delta(`t${index}`, args))
          return out
        }
        case 'tool-call-delta': {
          const call = isRecord(message['tool_calls']) ? message['tool_calls'] : {}
          const fn = isRecord(call['function']) ? call['function'] : {}
          const args = fn['arguments']
          return typeof args === 'string' ? blocks.delta(`t${index}`, args) : []
        }
        case 'tool-call-end':
          return blocks.close(`t${index}`)
        case 'citation-start':
        case 'citation-end':
          notes.note('citations', 'info', 'citations: no StreamChunk carries them, not kept')
          return []
        case 'message-end': {
          finished = true
          const delta = isRecord(payload['delta']) ? payload['delta'] : {}
          const usage = isRecord(delta['usage']) ? delta['usage'] : {}
          const counts = isRecord(usage['tokens'])
            ? usage['tokens']
            : isRecord(usage['billed_units'])
              ? usage['billed_units']
              : {}
          if (usage['cached_tokens'] !== undefined)
            notes.note(
              'cached',
              'info',
              'usage.cached_tokens: not kept (Cohere does not say whether input_tokens includes them; the AI SDK drops them too)',
            )
          const stop = stopOf(delta['finish_reason'])
          // An ERROR finish carries the provider's reason in `delta.error`, a string as Cohere sends it (an object
          // kept as JSON): the message says it, so the failure is classified by its words (docs/protocol.md §9).
          const error = delta['error']
          if (stop.stopReason === 'error' && typeof error === 'string' && error !== '')
            stop.errorMessage = `${stop.errorMessage}: ${error}`
          else if (stop.stopReason === 'error' && isRecord(error)) stop.errorMessage = JSON.stringify(error)
          return blocks.finish(
            { stopReason: stop.stopReason, errorMessage: stop.errorMessage, model },
            routeUsage(counts['input_tokens'], counts['output_tokens']),
          )
        }
        default:
          notes.note(
            `event:${String(type)}`,
            'info',
            `event ${JSON.stringify(type)}: not a chat stream event, skipped`,
          )
          return []
      }
    },
    malformed: (message) => fail(message, 'MALFORMED_RESPONSE'),
    end() {
      if (finished) return []
      notes.note(
        'no-end',
        'warning',
        'the body ends before message-end: the stream fails (TRANSPORT), open blocks stay open',
      )
      return fail('Cohere stream ended before message-end')
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}
