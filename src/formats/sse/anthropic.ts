import type { ContentBlock, ReplayEnvelope, StreamChunk, TokenUsage } from '../../core/protocol'
import {
  describeSkipped,
  errorEventNote,
  iterationsNote,
  wholeContentNote,
  wholeInputNote,
} from './anthropicNotes'
import { piAiFinish } from './piAiFailure'
import { parseJsonWithRepair, parseStreamingJson } from './piAiJson'
import { modelOf } from './piAiSse'
import { noteBuffer, type WireTranslator } from './translator'
import { piAiResponse, type PiAiStopReason as StopReason } from './piAiResponse'

/**
 * pi-ai's content block while it streams; `wire` is the Anthropic `index` it answers to until its stop. A tool
 * call's `partialJson` is pi-ai's scratch text, which it deletes at the block's stop (undefined from then on).
 */
type PiBlock =
  | { kind: 'text'; wire: unknown; text: string }
  | { kind: 'thinking'; wire: unknown; text: string; signature: unknown; redacted: boolean }
  | { kind: 'toolCall'; wire: unknown; id: unknown; name: unknown; input: unknown; partialJson: unknown }

/** The event names pi-ai reads; every other named event (`ping`, unknown ones) and every unnamed one is skipped. */
const MESSAGE_EVENTS = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
])

const KNOWN_DELTAS = new Set(['text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta'])

/**
 * The Anthropic Messages SSE stream as the harness's pi-ai route assembles it (docs/protocol.md §9, "The harness's pi-ai
 * route"): pi-ai 0.82.1 reads the wire, the route maps pi-ai's events to chunks. What that means, read from pi-ai's
 * source:
 * - events are picked by their SSE `event:` name (an unnamed `data:`-only event is skipped; `event: error` fails
 *   the stream with its raw data as the message); the payload's `type` then decides what it does;
 * - only `text`, `thinking`, `redacted_thinking` (a reasoning block reading `[Reasoning redacted]`) and `tool_use`
 *   blocks exist; block index = position among those (pi-ai's contentIndex); server-side blocks and their deltas,
 *   content already whole in `message_start`, the initial text of a start, and a `tool_use`'s whole `input` are not
 *   read (a tool call's arguments = JSON.stringify of the streaming parse of its `input_json_delta`s, `{}` if none);
 * - `message_stop` does not end the stream: the body's end does (before `message_stop`, after a `message_start` →
 *   error TRANSPORT); then `usage` (cache fields only when > 0) and `finish` with the v2 replay envelope;
 * - any failure (bad JSON, an unknown stop reason, `refusal`, a missing field) → `usage` then finish error, blocks
 *   left open, the rest of the body unread.
 * Diagnostics name everything read but not kept, once per kind with a count.
 *
 * @example
 * const t = createAnthropicTranslator()
 * t.push('{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}', 'content_block_start')
 * // [bs0 text]
 */
export function createAnthropicTranslator(): WireTranslator {
  const blocks: PiBlock[] = []
  const usage = {
    input: 0 as unknown,
    output: 0 as unknown,
    cacheRead: 0 as unknown,
    cacheWrite: 0 as unknown,
  }
  let stopReason: StopReason = 'stop'
  let errorMessage: string | undefined
  let responseId: unknown
  let model: string | null = null
  let sawStart = false
  let sawModelEvent = false
  let summarized = false
  let sawStop = false
  let finished = false
  const notes = noteBuffer()
  const skipped = new Map<string, number>()
  let skippedDeltas = 0
  const note = notes.note
  const find = (wire: unknown) => blocks.findIndex((block) => block.wire === wire)

  const usageChunk = (): StreamChunk => ({ type: 'usage', usage: mapUsage(usage) })
  // Once, when the stream ends either way: what was read but kept by no block.
  const summarize = () => {
    if (summarized) return
    summarized = true
    if (skipped.size > 0) note('skipped', 'info', describeSkipped(skipped, skippedDeltas))
  }
  const fail = (message: string): StreamChunk[] => {
    summarize()
    finished = true
    stopReason = 'error'
    errorMessage = message
    return [usageChunk(), { type: 'finish', reason: finishReason() }]
  }
  const finishReason = () =>
    piAiFinish({ stopReason, errorMessage, model: model ?? 'unknown', blockCount: blocks.length })

  const apply = (event: unknown): StreamChunk[] => {
    switch (at(event, 'type')) {
      case 'message_start': {
        sawStart = true
        const message = at(event, 'message')
        responseId = at(message, 'id')
        const wireUsage = at(message, 'usage')
        usage.input = at(wireUsage, 'input_tokens') || 0
        usage.output = at(wireUsage, 'output_tokens') || 0
        usage.cacheRead = at(wireUsage, 'cache_read_input_tokens') || 0
        usage.cacheWrite = at(wireUsage, 'cache_creation_input_tokens') || 0
        const content = at(message, 'content')
        if (Array.isArray(content) && content.length > 0)
          note('whole-content', 'warning', wholeContentNote(content))
        return []
      }
      case 'content_block_start': {
        const block = at(event, 'content_block')
        const type = at(block, 'type')
        const wire = at(event, 'index')
        const index = blocks.length
        if (type === 'text') {
          blocks.push({ kind: 'text', wire, text: '' })
          return [{ type: 'block-start', index, blockType: 'text' }]
        }
        if (type === 'thinking' || type === 'redacted_thinking') {
          const redacted = type === 'redacted_thinking'
          if (redacted)
            note(
              'redacted',
              'info',
              'redacted_thinking: a reasoning block reading "[Reasoning redacted]"; its data goes to the replay envelope',
            )
          blocks.push({
            kind: 'thinking',
            wire,
            text: redacted ? '[Reasoning redacted]' : '',
            signature: redacted ? at(block, 'data') : '',
            redacted,
          })
          return [{ type: 'block-start', index, blockType: 'reasoning' }]
        }
        if (type === 'tool_use') {
          const input = at(block, 'input') ?? {}
          blocks.push({
            kind: 'toolCall',
            wire,
            id: at(block, 'id'),
            name: at(block, 'name'),
            input,
            partialJson: '',
          })
          return [{ type: 'block-start', index, blockType: 'tool-call' }]
        }
        const label = String(type)
        skipped.set(label, (skipped.get(label) ?? 0) + 1)
        return []
      }
      case 'content_block_delta': {
        const delta = at(event, 'delta')
        const kind = at(delta, 'type')
        const index = find(at(event, 'index'))
        const block = blocks[index]
        if (block === undefined) {
          skippedDeltas += 1
          return []
        }
        if (kind === 'text_delta' && block.kind === 'text') {
          const text = at(delta, 'text')
          block.text += text as string
          return [{ type: 'text-delta', index, text: text as string }]
        }
        if (kind === 'thinking_delta' && block.kind === 'thinking') {
          const text = at(delta, 'thinking')
          block.text += text as string
          return [{ type: 'reasoning-delta', index, text: text as string }]
        }
        if (kind === 'input_json_delta' && block.kind === 'toolCall') {
          const part = at(delta, 'partial_json')
          // JavaScript's `+=`, as pi-ai writes it: after the block's stop (an event with no `index` still finds
          // it) the scratch text is gone, so `undefined` + part.
          block.partialJson = (block.partialJson as string) + (part as string)
          const name = block.name
          return [
            {
              type: 'tool-call-delta',
              index,
              id: (block.id ?? '') as string,
              ...(typeof name === 'string' && name.length > 0 ? { name } : {}),
              argumentsDelta: part as string,
            },
          ]
        }
        if (kind === 'signature_delta' && block.kind === 'thinking') {
          block.signature = `${(block.signature as string) || ''}${at(delta, 'signature') as string}`
          return []
        }
        if (typeof kind === 'string' && KNOWN_DELTAS.has(kind)) {
          if (kind !== 'signature_delta')
            note('delta-mismatch', 'warning', `${kind} for a ${block.kind} block: pi-ai skips it`)
        } else {
          note(
            `delta:${String(kind)}`,
            'info',
            `content_block_delta of type ${JSON.stringify(kind)}: pi-ai keeps nothing of it`,
          )
        }
        return []
      }
      case 'content_block_stop': {
        const index = find(at(event, 'index'))
        const block = blocks[index]
        if (block === undefined) return []
        // pi-ai deletes the block's `index` and, for a tool call, its scratch text (docs/protocol.md §9, "The
        // harness's pi-ai route"): a later stop with no `index` finds the block again and closes it with the
        // arguments parsed from nothing, `{}`.
        block.wire = undefined
        const end = endBlock(block)
        if (block.kind === 'toolCall') block.partialJson = undefined
        return [{ type: 'block-end', index, block: end }]
      }
      case 'message_delta': {
        const reason = at(at(event, 'delta'), 'stop_reason')
        if (reason) {
          const mapped = mapStopReason(reason, at(at(event, 'delta'), 'stop_details'))
          stopReason = mapped.stopReason
          if (mapped.errorMessage) errorMessage = mapped.errorMessage
        }
        const wireUsage = at(event, 'usage')
        if (wireUsage) {
          if (at(wireUsage, 'input_tokens') != null) usage.input = at(wireUsage, 'input_tokens')
          if (at(wireUsage, 'output_tokens') != null) usage.output = at(wireUsage, 'output_tokens')
          if (at(wireUsage, 'cache_read_input_tokens') != null)
            usage.cacheRead = at(wireUsage, 'cache_read_input_tokens')
          if (at(wireUsage, 'cache_creation_input_tokens') != null)
            usage.cacheWrite = at(wireUsage, 'cache_creation_input_tokens')
          const iterations = at(wireUsage, 'iterations')
          if (Array.isArray(iterations)) note('iterations', 'info', iterationsNote(iterations))
        }
        return []
      }
      case 'message_stop':
        sawStop = true
        return []
      default:
        return []
    }
  }

  const endBlock = (block: PiBlock): ContentBlock => {
    if (block.kind === 'text') return { type: 'text', text: block.text }
    if (block.kind === 'thinking') return { type: 'reasoning', text: block.text }
    if (block.partialJson === '' && isNonEmptyObject(block.input))
      note('whole-input', 'warning', wholeInputNote(block.name, block.input))
    const args = parseStreamingJson(block.partialJson as string)
    return {
      type: 'tool-call',
      id: block.id as string,
      name: block.name as string,
      arguments: JSON.stringify(args),
    }
  }

  return {
    push(data, event = '', raw) {
      if (finished) return []
      if (event === 'error') {
        const out = fail(data)
        note('error-event', 'info', errorEventNote(data, out.at(-1)))
        return out
      }
      if (!MESSAGE_EVENTS.has(event)) {
        if (event === '')
          note(
            'unnamed',
            'warning',
            'an event with no `event:` name: pi-ai reads events by name, so it skips this one',
          )
        else if (event !== 'ping')
          note(
            `event:${event}`,
            'info',
            `event ${JSON.stringify(event)}: not a message event, skipped as pi-ai does`,
          )
        return []
      }
      let parsed: unknown
      try {
        parsed = parseJsonWithRepair(data)
        at(parsed, 'type')
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        const lines = raw ?? [`event: ${event}`, ...data.split('\n').map((line) => `data: ${line}`)]
        note('unparsable', 'error', `event ${event}: not JSON (${reason}); the stream fails here`)
        return fail(
          `Could not parse Anthropic SSE event ${event}: ${reason}; data=${data}; raw=${lines.join('\\n')}`,
        )
      }
      if (event === 'message_start' && !sawModelEvent) {
        sawModelEvent = true
        model = modelOf(parsed)
      }
      try {
        return apply(parsed)
      } catch (error) {
        return fail(error instanceof Error ? error.message : JSON.stringify(error))
      }
    },
    end() {
      if (finished) return []
      summarize()
      if (sawStart && !sawStop) {
        note(
          'no-stop',
          'warning',
          'the body ends before message_stop: pi-ai fails the stream (TRANSPORT), open blocks stay open',
        )
        return fail('Anthropic stream ended before message_stop')
      }
      if (stopReason === 'error' || stopReason === 'aborted')
        return fail(errorMessage || 'An unknown error occurred')
      finished = true
      return [usageChunk(), { type: 'finish', reason: finishReason(), replayState: replayEnvelope() }]
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }

  function replayEnvelope(): ReplayEnvelope {
    return {
      response: piAiResponse('anthropic-messages', 'anthropic', model, responseId, stopReason),
      blocks: blocks.map((block) =>
        block.kind === 'text'
          ? { type: 'text' }
          : block.kind === 'toolCall'
            ? { type: 'tool-call' }
            : {
                type: 'reasoning',
                ...(block.signature === undefined ? {} : { thinkingSignature: block.signature }),
                ...(block.redacted ? { redacted: true } : {}),
              },
      ),
    }
  }
}

/** pi-ai's stop reasons for Anthropic's; an unknown one fails the stream (`Unhandled stop reason: <r>`). */
function mapStopReason(reason: unknown, details: unknown): { stopReason: StopReason; errorMessage?: string } {
  switch (reason) {
    case 'end_turn':
    case 'pause_turn':
    case 'stop_sequence':
      return { stopReason: 'stop' }
    case 'max_tokens':
      return { stopReason: 'length' }
    case 'tool_use':
      return { stopReason: 'toolUse' }
    case 'refusal':
      return {
        stopReason: 'error',
        errorMessage:
          (at(details, 'explanation', true) as string) || 'The model refused to complete the request',
      }
    case 'sensitive':
      return { stopReason: 'error' }
    default:
      throw new Error(`Unhandled stop reason: ${String(reason)}`)
  }
}

/** The route's usage: pi-ai's counts as they stand, cache fields only when > 0. */
function mapUsage(usage: {
  input: unknown
  output: unknown
  cacheRead: unknown
  cacheWrite: unknown
}): TokenUsage {
  return {
    inputTokens: usage.input as number,
    outputTokens: usage.output as number,
    ...((usage.cacheRead as number) > 0 ? { cacheReadTokens: usage.cacheRead as number } : {}),
    ...((usage.cacheWrite as number) > 0 ? { cacheWriteTokens: usage.cacheWrite as number } : {}),
  }
}

/**
 * A property read with JavaScript's own semantics (pi-ai reads the parsed JSON without checks): reading from
 * `null` or `undefined` throws the TypeError the engine would, which then fails the stream as it does in pi-ai.
 * `optional` is `?.`.
 */
function at(value: unknown, key: string, optional = false): unknown {
  if (value === null || value === undefined) {
    if (optional) return undefined
    throw new TypeError(`Cannot read properties of ${String(value)} (reading '${key}')`)
  }
  return (value as Record<string, unknown>)[key]
}

function isNonEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0
}
