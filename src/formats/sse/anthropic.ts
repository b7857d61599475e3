import type { ContentBlock, FinishReason, StreamChunk, TokenUsage } from '../../core/protocol'
import {
  describeParseError,
  isRecord,
  makeTranslator,
  type Dialect,
  type TranslatorKit,
  type WireTranslator,
} from './translator'

type Open = {
  readonly index: number
  readonly kind: 'text' | 'reasoning' | 'tool-call'
  readonly id: string
  readonly name: string
  text: string
  closed: boolean
}

/**
 * The Anthropic Messages SSE stream as the harness translates it (PROTOCOL.md §9): blocks close inline.
 * `content_block_start` → block-start (text; thinking → reasoning; tool_use → tool-call, whose first delta carries
 * its id and name); `text_delta` / `thinking_delta` / `input_json_delta` → text / reasoning / tool-call deltas;
 * `content_block_stop` → block-end with the complete block (a tool call's arguments = JSON.stringify of the parsed
 * concatenated `partial_json`, so they may differ from the deltas; `{}` when none came); at `message_stop` usage
 * (input, output, cache read/creation tokens from message_start and message_delta, last wins) then finish
 * (end_turn/stop_sequence→stop, tool_use→tool-calls, max_tokens→max-tokens, other → error `model stopped: <r>`
 * code r.toUpperCase()). An `error` event → finish error with a classified code. Chunk indexes count the mapped
 * blocks (0, 1, 2…): a block type the harness does not map (redacted_thinking, server tools) is left out and noted.
 *
 * @example
 * const t = createAnthropicTranslator()
 * t.push('{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}') // [bs0 text]
 */
export function createAnthropicTranslator(): WireTranslator {
  return makeTranslator('stream closed before message_stop', anthropicDialect)
}

function anthropicDialect({ note, fail, end }: TranslatorKit): Dialect {
  const byWire = new Map<number, Open>()
  let next = 0
  let usage: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number } = {}
  let hasUsage = false
  let stopReason: string | null = null
  const takeUsage = (wire: unknown) => {
    if (!isRecord(wire)) return
    const read = (key: string) => (typeof wire[key] === 'number' ? (wire[key] as number) : undefined)
    const fields = {
      input: read('input_tokens'),
      output: read('output_tokens'),
      cacheRead: read('cache_read_input_tokens'),
      cacheWrite: read('cache_creation_input_tokens'),
    }
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) {
        usage = { ...usage, [key]: value }
        hasUsage = true
      }
    }
  }

  const push = (data: string): StreamChunk[] => {
    let parsed: unknown
    try {
      parsed = JSON.parse(data)
    } catch (error) {
      return fail('MALFORMED_RESPONSE', `malformed stream event: ${describeParseError(data, error)}`)
    }
    if (!isRecord(parsed)) return fail('MALFORMED_RESPONSE', 'malformed stream event: not a JSON object')
    const type = parsed['type']
    switch (type) {
      case 'message_start': {
        const message = isRecord(parsed['message']) ? parsed['message'] : {}
        takeUsage(message['usage'])
        return []
      }
      case 'content_block_start': {
        const wireIndex = parsed['index']
        const block = isRecord(parsed['content_block']) ? parsed['content_block'] : {}
        const kind =
          block['type'] === 'text'
            ? 'text'
            : block['type'] === 'thinking'
              ? 'reasoning'
              : block['type'] === 'tool_use'
                ? 'tool-call'
                : null
        if (kind === null || typeof wireIndex !== 'number') {
          note(
            `block:${String(block['type'])}`,
            'info',
            `content block of type ${JSON.stringify(block['type'])} is not mapped`,
          )
          return []
        }
        const open: Open = {
          index: next,
          kind,
          id: typeof block['id'] === 'string' ? block['id'] : '',
          name: typeof block['name'] === 'string' ? block['name'] : '',
          text: '',
          closed: false,
        }
        next += 1
        byWire.set(wireIndex, open)
        const out: StreamChunk[] = [{ type: 'block-start', index: open.index, blockType: kind }]
        const initial = kind === 'text' ? block['text'] : kind === 'reasoning' ? block['thinking'] : undefined
        if (typeof initial === 'string' && initial !== '') {
          open.text += initial
          out.push({
            type: kind === 'text' ? 'text-delta' : 'reasoning-delta',
            index: open.index,
            text: initial,
          })
        }
        return out
      }
      case 'content_block_delta': {
        const open = byWire.get(parsed['index'] as number)
        const delta = isRecord(parsed['delta']) ? parsed['delta'] : {}
        if (open === undefined) {
          note(
            'delta-unknown-block',
            'warning',
            'delta for a content block that was not started (or not mapped)',
          )
          return []
        }
        switch (delta['type']) {
          case 'text_delta': {
            const text = typeof delta['text'] === 'string' ? delta['text'] : ''
            open.text += text
            return [{ type: 'text-delta', index: open.index, text }]
          }
          case 'thinking_delta': {
            const text = typeof delta['thinking'] === 'string' ? delta['thinking'] : ''
            open.text += text
            return [{ type: 'reasoning-delta', index: open.index, text }]
          }
          case 'input_json_delta': {
            const part = typeof delta['partial_json'] === 'string' ? delta['partial_json'] : ''
            open.text += part
            return [
              {
                type: 'tool-call-delta',
                index: open.index,
                id: open.id,
                name: open.name,
                argumentsDelta: part,
              },
            ]
          }
          case 'signature_delta':
            note(
              'signature',
              'info',
              'signature_delta (thinking signature) is not a StreamChunk: kept by the adapter privately',
            )
            return []
          default:
            note(
              `delta:${String(delta['type'])}`,
              'info',
              `delta of type ${JSON.stringify(delta['type'])} is not mapped`,
            )
            return []
        }
      }
      case 'content_block_stop': {
        const open = byWire.get(parsed['index'] as number)
        if (open === undefined || open.closed) return []
        open.closed = true
        let block: ContentBlock
        if (open.kind === 'tool-call') {
          let args: string
          try {
            args = JSON.stringify(open.text === '' ? {} : (JSON.parse(open.text) as unknown))
          } catch (error) {
            return fail('MALFORMED_RESPONSE', `malformed tool input: ${describeParseError(open.text, error)}`)
          }
          block = { type: 'tool-call', id: open.id, name: open.name, arguments: args }
        } else {
          block = { type: open.kind, text: open.text }
        }
        return [{ type: 'block-end', index: open.index, block }]
      }
      case 'message_delta': {
        const delta = isRecord(parsed['delta']) ? parsed['delta'] : {}
        if (typeof delta['stop_reason'] === 'string') stopReason = delta['stop_reason']
        takeUsage(parsed['usage'])
        return []
      }
      case 'message_stop':
        return end('done')
      case 'ping':
        return []
      case 'error': {
        const error = isRecord(parsed['error']) ? parsed['error'] : {}
        const errorType = typeof error['type'] === 'string' ? error['type'] : 'error'
        const message = typeof error['message'] === 'string' ? error['message'] : errorType
        return fail(anthropicErrorCode(errorType), message)
      }
      default:
        note(`event:${String(type)}`, 'info', `event of type ${JSON.stringify(type)} is not mapped`)
        return []
    }
  }

  // At message_stop: usage (when reported), then the finish.
  const done = (): StreamChunk[] => {
    const out: StreamChunk[] = []
    if (hasUsage) {
      const mapped: TokenUsage = {
        inputTokens: usage.input ?? 0,
        outputTokens: usage.output ?? 0,
        ...(usage.cacheRead !== undefined ? { cacheReadTokens: usage.cacheRead } : {}),
        ...(usage.cacheWrite !== undefined ? { cacheWriteTokens: usage.cacheWrite } : {}),
      }
      out.push({ type: 'usage', usage: mapped })
    }
    out.push({ type: 'finish', reason: mapStopReason(stopReason) })
    return out
  }

  return { push, done }
}

/** end_turn/stop_sequence→stop, tool_use→tool-calls, max_tokens→max-tokens, none→stop, other → error. */
export function mapStopReason(reason: string | null): FinishReason {
  switch (reason) {
    case null:
    case 'end_turn':
    case 'stop_sequence':
      return { kind: 'stop' }
    case 'tool_use':
      return { kind: 'tool-calls' }
    case 'max_tokens':
      return { kind: 'max-tokens' }
    default:
      return { kind: 'error', failure: { message: `model stopped: ${reason}`, code: reason.toUpperCase() } }
  }
}

/** An Anthropic `error` event's type → code: overloaded SERVER, rate_limit RATE_LIMIT, authentication AUTH, … */
export function anthropicErrorCode(type: string): string {
  switch (type) {
    case 'overloaded_error':
    case 'api_error':
      return 'SERVER'
    case 'rate_limit_error':
      return 'RATE_LIMIT'
    case 'authentication_error':
    case 'permission_error':
      return 'AUTH'
    case 'invalid_request_error':
      return 'INVALID_REQUEST'
    default:
      return 'UNKNOWN'
  }
}
