import type { ReplayEnvelope, StreamChunk } from '../../core/protocol'
import { piAiFinish } from './piAiFailure'
import { parseStreamingJson } from './piAiJson'
import { at, js, piAiUsage, startsWith, type PiUsage } from './piAiRead'
import { describeItems, unreadEventNote } from './responsesNotes'
import { noteBuffer, type WireTranslator } from './translator'
import { piAiResponse, type PiAiStopReason as StopReason } from './piAiResponse'

/** A custom tool's input as pi-ai streams it: a JSON object `{"input":"…"}` built up delta by delta. */
type CustomInput = { input: string; started: boolean; closed: boolean }

/** pi-ai's content block while it streams, and the slot (one per `output_index`) that feeds it. */
type PiBlock =
  | { kind: 'text'; text: unknown; textSignature?: string }
  | { kind: 'thinking'; text: unknown; thinkingSignature?: string }
  | {
      kind: 'toolCall'
      id: string
      name: unknown
      args: unknown
      /** The streamed arguments of a `function_call`; undefined for a custom tool and once the call is done. */
      partialJson?: unknown
      custom?: CustomInput
    }

/** The custom tool call's argument name: the route declares no grammar tools, so pi-ai's default. */
const CUSTOM_PROPERTY = 'input'

/**
 * The OpenAI Responses API stream as the harness's pi-ai route assembles it (docs/protocol.md §9, "The harness's pi-ai
 * route", and §9.2 "OpenAI Responses"): the `openai` SDK frames the SSE and parses each event, pi-ai 0.82.1 turns
 * the parsed events into its content blocks, the route maps those to chunks. Read from pi-ai's source:
 * - the SSE `event:` name does not matter (only the payload's `type`); data starting `[DONE]` ends the reading;
 *   a payload with a truthy `error` field fails the stream with that error's message (the SDK throws);
 * - one block per output item, keyed by `output_index` alone: a `reasoning` item is a reasoning block, a `message`
 *   a text block (its `content_index` parts — output text and refusals — run together), a `function_call` or
 *   `custom_tool_call` a tool call; every other item (web_search_call, mcp_call, …) is skipped, named once;
 * - a block opens at `output_item.added` (or at its `.done` when none came) and closes at `output_item.done`, with
 *   the item's own final text (summaries joined by a blank line) and arguments;
 * - `response.completed` / `response.incomplete` give the usage (input less cached) and the stop reason (status);
 *   the body's end finishes the stream; none of them → error TRANSPORT;
 * - `error`, `response.failed`, a failed/cancelled status or unparsable JSON → usage then finish error.
 * `sequence_number` is not read here (pi-ai ignores it); the `wire-sequence` check (src/core/wireSequence.ts) is.
 *
 * @example
 * const t = createResponsesTranslator()
 * t.push('{"type":"response.output_item.added","output_index":0,"item":{"type":"message"}}')
 * // [bs0 text]
 */
export function createResponsesTranslator(): WireTranslator {
  const blocks: PiBlock[] = []
  const slots = new Map<unknown, { block: PiBlock; index: number }>()
  const reasoningById = new Map<unknown, PiBlock & { kind: 'thinking' }>()
  let usage: PiUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  let stopReason: StopReason = 'stop'
  let errorMessage: string | undefined
  let responseId: unknown
  let model: string | null = null
  let sawTerminal = false
  let done = false
  let finished = false
  const skippedItems = new Map<string, number>()
  const skippedIndexes = new Set<unknown>()
  const notes = noteBuffer()
  const note = notes.note

  const usageChunk = (): StreamChunk => ({ type: 'usage', usage: piAiUsage(usage) })
  const finishReason = () =>
    piAiFinish({ stopReason, errorMessage, model: model ?? 'unknown', blockCount: blocks.length })
  const summarize = () => {
    if (skippedItems.size > 0) note('skipped-items', 'info', describeItems(skippedItems))
    skippedItems.clear()
  }
  const fail = (message: string): StreamChunk[] => {
    summarize()
    finished = true
    stopReason = 'error'
    errorMessage = message
    return [usageChunk(), { type: 'finish', reason: finishReason() }]
  }

  const slotOf = (outputIndex: unknown, kind: PiBlock['kind']) => {
    const slot = slots.get(outputIndex)
    return slot?.block.kind === kind ? slot : undefined
  }

  const open = (outputIndex: unknown, item: unknown): StreamChunk[] => {
    const type = at(item, 'type')
    let block: PiBlock
    let blockType: 'text' | 'reasoning' | 'tool-call'
    if (type === 'reasoning') {
      block = { kind: 'thinking', text: '' }
      blockType = 'reasoning'
    } else if (type === 'message') {
      block = { kind: 'text', text: '' }
      blockType = 'text'
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const id = `${js(at(item, 'call_id'))}|${js(at(item, 'id'))}`
      block =
        type === 'function_call'
          ? {
              kind: 'toolCall',
              id,
              name: at(item, 'name'),
              args: {},
              partialJson: at(item, 'arguments') || '',
            }
          : {
              kind: 'toolCall',
              id,
              name: at(item, 'name'),
              args: { [CUSTOM_PROPERTY]: at(item, 'input') || '' },
              custom: { input: '', started: false, closed: false },
            }
      blockType = 'tool-call'
    } else {
      // Counted once per item (its `.added` and `.done` both land here).
      if (!skippedIndexes.has(outputIndex)) {
        skippedIndexes.add(outputIndex)
        const label = String(type)
        skippedItems.set(label, (skippedItems.get(label) ?? 0) + 1)
      }
      return []
    }
    blocks.push(block)
    const index = blocks.length - 1
    slots.set(outputIndex, { block, index })
    return [{ type: 'block-start', index, blockType }]
  }

  const toolDelta = (index: number, block: PiBlock & { kind: 'toolCall' }, delta: unknown): StreamChunk[] => {
    if (delta === undefined) return []
    const name = block.name
    return [
      {
        type: 'tool-call-delta',
        index,
        id: block.id,
        ...(typeof name === 'string' && name.length > 0 ? { name } : {}),
        argumentsDelta: delta as string,
      },
    ]
  }

  const toolEnd = (index: number, block: PiBlock & { kind: 'toolCall' }): StreamChunk => ({
    type: 'block-end',
    index,
    block: {
      type: 'tool-call',
      id: block.id,
      name: block.name as string,
      arguments: JSON.stringify(block.args),
    },
  })

  /** One event's chunks; `out` collects those emitted before a failure inside the event (they stay emitted). */
  const apply = (event: unknown, out: StreamChunk[]): StreamChunk[] => {
    const type = at(event, 'type')
    switch (type) {
      case 'response.created':
        responseId = at(at(event, 'response'), 'id')
        return []
      case 'response.output_item.added':
        return open(at(event, 'output_index'), at(event, 'item'))
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_part.done': {
        const slot = slotOf(at(event, 'output_index'), 'thinking')
        if (!slot || slot.block.kind !== 'thinking') return []
        const delta = type === 'response.reasoning_summary_part.done' ? '\n\n' : at(event, 'delta')
        slot.block.text = (slot.block.text as string) + (delta as string)
        return [{ type: 'reasoning-delta', index: slot.index, text: delta as string }]
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta': {
        const slot = slotOf(at(event, 'output_index'), 'text')
        if (!slot || slot.block.kind !== 'text') return []
        const delta = at(event, 'delta')
        slot.block.text = (slot.block.text as string) + (delta as string)
        return [{ type: 'text-delta', index: slot.index, text: delta as string }]
      }
      case 'response.function_call_arguments.delta': {
        const slot = slotOf(at(event, 'output_index'), 'toolCall')
        const block = slot?.block
        if (!slot || block?.kind !== 'toolCall' || block.partialJson === undefined) return []
        const delta = at(event, 'delta')
        // pi-ai also re-parses the arguments here; nothing reads them before `.done` or `output_item.done`
        // parse them again, and the parse never throws, so Chunkscope skips it (it is quadratic in the length).
        block.partialJson = (block.partialJson as string) + (delta as string)
        return toolDelta(slot.index, block, delta)
      }
      case 'response.function_call_arguments.done': {
        const slot = slotOf(at(event, 'output_index'), 'toolCall')
        const block = slot?.block
        if (!slot || block?.kind !== 'toolCall' || block.partialJson === undefined) return []
        const previous = block.partialJson
        const whole = at(event, 'arguments')
        block.partialJson = whole
        block.args = parseStreamingJson(whole as string)
        if (!startsWith(whole, previous, 'event.arguments')) return []
        const rest = (whole as string).slice((previous as string).length)
        return rest.length > 0 ? toolDelta(slot.index, block, rest) : []
      }
      case 'response.custom_tool_call_input.delta':
      case 'response.custom_tool_call_input.done': {
        const slot = slotOf(at(event, 'output_index'), 'toolCall')
        const block = slot?.block
        if (!slot || block?.kind !== 'toolCall' || !block.custom) return []
        const isDone = type === 'response.custom_tool_call_input.done'
        const next = isDone ? at(event, 'input') : customInput(block) + (at(event, 'delta') as string)
        return toolDelta(slot.index, block, appendCustom(block, next, isDone))
      }
      case 'response.output_item.done':
        closeItem(at(event, 'output_index'), at(event, 'item'), out)
        return []
      case 'response.completed':
      case 'response.incomplete':
        finalize(at(event, 'response'))
        return []
      case 'error':
        throw new Error(`Error Code ${js(at(event, 'code'))}: ${js(at(event, 'message'))}`)
      case 'response.failed': {
        sawTerminal = true
        const response = at(event, 'response')
        const error = at(response, 'error', true)
        const details = at(response, 'incomplete_details', true)
        const reason = at(details, 'reason', true)
        throw new Error(
          error
            ? `${js(at(error, 'code') || 'unknown')}: ${js(at(error, 'message') || 'no message')}`
            : reason
              ? `incomplete: ${js(reason)}`
              : 'Unknown error (no error details in response)',
        )
      }
      default:
        if (typeof type === 'string') {
          const unread = unreadEventNote(type)
          if (unread !== null) note(`event:${unread.key}`, 'info', unread.message)
        }
        return []
    }
  }

  const closeItem = (outputIndex: unknown, item: unknown, out: StreamChunk[]): void => {
    let slot = slots.get(outputIndex)
    if (slot === undefined) {
      out.push(...open(outputIndex, item))
      slot = slots.get(outputIndex)
    }
    const type = at(item, 'type')
    const block = slot?.block
    if (slot === undefined || block === undefined) return
    if (type === 'reasoning' && block.kind === 'thinking') {
      const summary = joinParts(at(item, 'summary'), (part) => at(part, 'text'), '\n\n')
      const content = joinParts(at(item, 'content'), (part) => at(part, 'text'), '\n\n')
      block.text = summary || content || block.text
      block.thinkingSignature = JSON.stringify(item)
      reasoningById.set(at(item, 'id'), block)
      slots.delete(outputIndex)
      out.push({
        type: 'block-end',
        index: slot.index,
        block: { type: 'reasoning', text: block.text as string },
      })
    } else if (type === 'message' && block.kind === 'text') {
      block.text =
        joinParts(
          at(item, 'content'),
          (part) => (at(part, 'type') === 'output_text' ? at(part, 'text') : at(part, 'refusal')),
          '',
        ) || ''
      const phase = at(item, 'phase') ?? undefined
      block.textSignature = JSON.stringify({ v: 1, id: at(item, 'id'), ...(phase ? { phase } : {}) })
      slots.delete(outputIndex)
      out.push({ type: 'block-end', index: slot.index, block: { type: 'text', text: block.text as string } })
    } else if (type === 'function_call' && block.kind === 'toolCall' && block.partialJson !== undefined) {
      block.args = parseStreamingJson((at(item, 'arguments') || block.partialJson || '{}') as string)
      delete block.partialJson
      slots.delete(outputIndex)
      out.push(toolEnd(slot.index, block))
    } else if (type === 'custom_tool_call' && block.kind === 'toolCall' && block.custom) {
      out.push(
        ...toolDelta(slot.index, block, appendCustom(block, at(item, 'input') ?? customInput(block), true)),
      )
      delete block.custom
      slots.delete(outputIndex)
      out.push(toolEnd(slot.index, block))
    }
  }

  /** pi-ai's `finalizeResponse`: the reasoning signatures backfilled, usage, the stop reason from the status. */
  const finalize = (response: unknown) => {
    sawTerminal = true
    const output = at(response, 'output') ?? []
    if (typeof output !== 'string' && !Array.isArray(output))
      throw new TypeError('responseOutput is not iterable')
    for (const item of output as Iterable<unknown>) {
      if (at(item, 'type') !== 'reasoning') continue
      const encrypted = at(item, 'encrypted_content')
      if (!encrypted) continue
      const block = reasoningById.get(at(item, 'id'))
      if (!block?.thinkingSignature) continue
      const stored = JSON.parse(block.thinkingSignature) as Record<string, unknown>
      if (stored['encrypted_content']) continue
      block.thinkingSignature = JSON.stringify({ ...stored, encrypted_content: encrypted })
    }
    const id = at(response, 'id', true)
    if (id) responseId = id
    const wire = at(response, 'usage', true)
    if (wire) {
      const details = at(wire, 'input_tokens_details')
      const cached = at(details, 'cached_tokens', true) || 0
      const written = at(details, 'cache_write_tokens', true) || 0
      usage = {
        input: Math.max(
          0,
          ((at(wire, 'input_tokens') || 0) as number) - (cached as number) - (written as number),
        ),
        output: at(wire, 'output_tokens') || 0,
        cacheRead: cached,
        cacheWrite: written,
      }
    }
    stopReason = mapStatus(at(response, 'status', true))
    if (stopReason === 'stop' && blocks.some((block) => block.kind === 'toolCall')) stopReason = 'toolUse'
  }

  return {
    push(data, event = '') {
      if (finished || done) return []
      if (data.startsWith('[DONE]')) {
        done = true
        return []
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(data)
      } catch (error) {
        note('unparsable', 'error', `not JSON (${String((error as Error).message)}); the stream fails here`)
        return fail((error as Error).message)
      }
      // Events named `thread.*` (the Assistants API) are parsed but yield nothing pi-ai reads.
      if (event.startsWith('thread.')) return []
      const out: StreamChunk[] = []
      try {
        const error = parsed === null || parsed === undefined ? undefined : at(parsed, 'error')
        if (error) return fail(sdkErrorMessage(error))
        if (model === null && at(parsed, 'type') === 'response.created') model = responsesModelOf(parsed)
        const chunks = apply(parsed, out)
        return [...out, ...chunks]
      } catch (error) {
        return [...out, ...fail(error instanceof Error ? error.message : JSON.stringify(error))]
      }
    },
    end() {
      if (finished) return []
      summarize()
      if (!sawTerminal) {
        note(
          'no-terminal',
          'warning',
          'the body ends before response.completed: pi-ai fails the stream (TRANSPORT)',
        )
        return fail('OpenAI Responses stream ended before a terminal response event')
      }
      if (stopReason === 'error' || stopReason === 'aborted') return fail('An unknown error occurred')
      finished = true
      return [usageChunk(), { type: 'finish', reason: finishReason(), replayState: replayEnvelope() }]
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }

  function customInput(block: PiBlock & { kind: 'toolCall' }): string {
    const value = (block.args as Record<string, unknown>)[CUSTOM_PROPERTY]
    return typeof value === 'string' ? value : ''
  }

  /** pi-ai's grammar-tool buffer: the JSON text `{"input":"…"}` grows as the input does; undefined when nothing new. */
  function appendCustom(
    block: PiBlock & { kind: 'toolCall' },
    next: unknown,
    close: boolean,
  ): string | undefined {
    const buffer = block.custom!
    let delta: string | undefined
    if (buffer.closed) {
      if (!(close && next === buffer.input))
        throw new Error(`grammar tool input for property "${CUSTOM_PROPERTY}" changed after it was closed`)
    } else {
      if (!startsWith(next, buffer.input, 'nextInput'))
        throw new Error(`grammar tool input for property "${CUSTOM_PROPERTY}" changed non-monotonically`)
      const text = next as string
      const added = text.slice(buffer.input.length)
      if (close || added.length > 0) {
        delta = buffer.started ? '' : `{${JSON.stringify(CUSTOM_PROPERTY)}:"`
        buffer.started = true
        delta += JSON.stringify(added).slice(1, -1)
        buffer.input = text
        if (close) {
          delta += '"}'
          buffer.closed = true
        }
      }
    }
    block.args = { [CUSTOM_PROPERTY]: next }
    return delta
  }

  function replayEnvelope(): ReplayEnvelope {
    return {
      response: piAiResponse('openai-responses', 'openai', model, responseId, stopReason),
      blocks: blocks.map((block) =>
        block.kind === 'text'
          ? {
              type: 'text',
              ...(block.textSignature === undefined ? {} : { textSignature: block.textSignature }),
            }
          : block.kind === 'toolCall'
            ? { type: 'tool-call' }
            : {
                type: 'reasoning',
                ...(block.thinkingSignature === undefined
                  ? {}
                  : { thinkingSignature: block.thinkingSignature }),
              },
      ),
    }
  }
}

/** pi-ai's stop reason for a response `status`; an unknown one fails the stream. */
function mapStatus(status: unknown): StopReason {
  if (!status) return 'stop'
  switch (status) {
    case 'completed':
    case 'in_progress':
    case 'queued':
      return 'stop'
    case 'incomplete':
      return 'length'
    case 'failed':
    case 'cancelled':
      return 'error'
    default:
      throw new Error(`Unhandled stop reason: ${js(status)}`)
  }
}

/** The SDK's message for an event whose `error` field is set (its `APIError` with no status). */
function sdkErrorMessage(error: unknown): string {
  const message = at(error, 'message')
  if (message) return typeof message === 'string' ? message : JSON.stringify(message)
  return JSON.stringify(error) || '(no status code or body)'
}

/** `parts?.map(read).join(separator)`, with JavaScript's semantics for what is not an array. */
function joinParts(parts: unknown, read: (part: unknown) => unknown, separator: string): string {
  if (parts === null || parts === undefined) return ''
  if (!Array.isArray(parts)) throw new TypeError('parts.map is not a function')
  return parts.map(read).join(separator)
}

/** The model the route would name: `response.created`'s `response.model`, when it is a non-empty string. */
export function responsesModelOf(event: unknown): string | null {
  const response =
    typeof event === 'object' && event !== null ? (event as Record<string, unknown>)['response'] : null
  const model =
    typeof response === 'object' && response !== null ? (response as Record<string, unknown>)['model'] : null
  return typeof model === 'string' && model !== '' ? model : null
}
