import type { ReplayEnvelope, StreamChunk } from '../../core/protocol'
import { piAiFinish } from '../sse/piAiFailure'
import { parseStreamingJson } from '../sse/piAiJson'
import { at, piAiUsage, type PiUsage } from '../sse/piAiRead'
import { noteBuffer, type WireTranslator } from '../sse/translator'
import { piAiResponse, type PiAiStopReason as StopReason } from '../sse/piAiResponse'

/** pi-ai's content block while it streams; `wire` is the `contentBlockIndex` it answers to until its stop. */
type PiBlock =
  | { kind: 'text'; wire: unknown; text: string }
  | { kind: 'thinking'; wire: unknown; text: string; signature: string }
  | { kind: 'toolCall'; wire: unknown; id: string; name: string; json: string }

/** The exception events pi-ai rethrows, and the prefix its error formatter gives each (docs/protocol.md §9.4). */
export const EXCEPTION_PREFIXES: Readonly<Record<string, string>> = {
  internalServerException: 'Internal server error',
  modelStreamErrorException: 'Model stream error',
  validationException: 'Validation error',
  throttlingException: 'Throttling error',
  serviceUnavailableException: 'Service unavailable',
}

/**
 * Bedrock ConverseStream events as the harness's pi-ai route assembles them (docs/protocol.md §9.4): pi-ai 0.82.1
 * reads the SDK's decoded events, the route maps its events to chunks.
 * - `push(data, eventType)`: one event's JSON payload and its `:event-type`;
 * - blocks are keyed by `contentBlockIndex`; a text or reasoning delta for an index with no block opens one (Bedrock
 *   sends `contentBlockStart` only for tool use), a tool-use start opens a tool call whose input deltas are appended;
 * - `contentBlockStop` closes the block; a tool call's arguments are its joined input through pi-ai's streaming
 *   parser, re-serialised (so a complete input comes back JSON-equal to what was sent); a stopped block loses its
 *   index, so a later event with no `contentBlockIndex` finds it again;
 * - `messageStop.stopReason`: end_turn / stop_sequence → stop, max_tokens / model_context_window_exceeded →
 *   max-tokens, tool_use → tool-calls, anything else fails with that reason as the message;
 * - `metadata.usage` sets the counts (input, output, cacheRead, cacheWrite);
 * - an exception event fails the stream with pi-ai's prefix and the exception's message;
 * - the body's end finishes (`end('done')`); `fail(message)` is a decoding failure the SDK throws.
 *
 * @example
 * const t = createConverseTranslator()
 * t.push('{"contentBlockIndex":0,"delta":{"text":"Hi"}}', 'contentBlockDelta')
 * // [bs0 text, td0 "Hi"]
 */
export function createConverseTranslator(): WireTranslator & { fail(message: string): StreamChunk[] } {
  const blocks: PiBlock[] = []
  let usage: PiUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  let stopReason: StopReason = 'stop'
  let errorMessage: string | undefined
  let finished = false
  const notes = noteBuffer()
  const note = notes.note

  const usageChunk = (): StreamChunk => ({ type: 'usage', usage: piAiUsage(usage) })
  const finish = (): StreamChunk[] => [
    usageChunk(),
    {
      type: 'finish',
      reason: piAiFinish({ stopReason, errorMessage, model: 'unknown', blockCount: blocks.length }),
      ...(stopReason === 'error' ? {} : { replayState: replayEnvelope() }),
    },
  ]
  const fail = (message: string): StreamChunk[] => {
    if (finished) return []
    finished = true
    stopReason = 'error'
    errorMessage = message
    return finish()
  }
  // pi-ai finds a block by `b.index === contentBlockIndex` and deletes `index` at the block's stop, so an event
  // without `contentBlockIndex` finds the first block already stopped (docs/protocol.md §9.4).
  const find = (wire: unknown) => blocks.findIndex((block) => block.wire === wire)

  const apply = (type: string, event: unknown, out: StreamChunk[]) => {
    if (type === 'messageStart') {
      if (at(event, 'role') !== 'assistant')
        throw new Error('Unexpected assistant message start but got user message start instead')
    } else if (type === 'contentBlockStart') {
      const toolUse = at(at(event, 'start'), 'toolUse', true)
      if (toolUse) {
        const id = (at(toolUse, 'toolUseId') || '') as string
        const name = (at(toolUse, 'name') || '') as string
        blocks.push({
          kind: 'toolCall',
          wire: at(event, 'contentBlockIndex'),
          id,
          name,
          json: '',
        })
        out.push({ type: 'block-start', index: blocks.length - 1, blockType: 'tool-call' })
      }
    } else if (type === 'contentBlockDelta') delta(event, out)
    else if (type === 'contentBlockStop') {
      const index = find(at(event, 'contentBlockIndex'))
      const block = blocks[index]
      if (block === undefined) return
      block.wire = undefined
      if (block.kind === 'text')
        out.push({ type: 'block-end', index, block: { type: 'text', text: block.text } })
      else if (block.kind === 'thinking')
        out.push({ type: 'block-end', index, block: { type: 'reasoning', text: block.text } })
      else {
        out.push({
          type: 'block-end',
          index,
          block: { type: 'tool-call', id: block.id, name: block.name, arguments: arguments_(block.json) },
        })
        // pi-ai deletes its scratch text; a later input delta starts from `(undefined || '')`.
        block.json = ''
      }
    } else if (type === 'messageStop') {
      const reason = at(event, 'stopReason')
      stopReason = mapStop(reason)
      if (stopReason === 'error' && typeof reason === 'string' && reason !== '') errorMessage = reason
    } else if (type === 'metadata') {
      const counts = at(event, 'usage')
      if (counts) {
        usage = {
          input: at(counts, 'inputTokens') || 0,
          output: at(counts, 'outputTokens') || 0,
          cacheRead: at(counts, 'cacheReadInputTokens') || 0,
          cacheWrite: at(counts, 'cacheWriteInputTokens') || 0,
        }
      }
    } else if (type in EXCEPTION_PREFIXES) {
      throw new Error(`${EXCEPTION_PREFIXES[type]}: ${exceptionMessage(event)}`)
    } else note('unknown-event', 'info', `a "${type}" event: pi-ai reads nothing of it`)
  }

  const delta = (event: unknown, out: StreamChunk[]) => {
    const wire = at(event, 'contentBlockIndex')
    const value = at(event, 'delta')
    let index = find(wire)
    const text = at(value, 'text', true)
    const toolUse = at(value, 'toolUse', true)
    const reasoning = at(value, 'reasoningContent', true)
    if (text !== undefined) {
      if (index === -1) {
        blocks.push({ kind: 'text', wire, text: '' })
        index = blocks.length - 1
        out.push({ type: 'block-start', index, blockType: 'text' })
      }
      const block = blocks[index]!
      if (block.kind === 'text') {
        block.text += String(text)
        out.push({ type: 'text-delta', index, text: String(text) })
      }
    } else if (toolUse && blocks[index]?.kind === 'toolCall') {
      const block = blocks[index] as Extract<PiBlock, { kind: 'toolCall' }>
      const input = (at(toolUse, 'input') || '') as string
      block.json += input
      out.push({
        type: 'tool-call-delta',
        index,
        id: block.id,
        ...(block.name.length > 0 ? { name: block.name } : {}),
        argumentsDelta: input,
      })
    } else if (reasoning) {
      if (index === -1) {
        blocks.push({ kind: 'thinking', wire, text: '', signature: '' })
        index = blocks.length - 1
        out.push({ type: 'block-start', index, blockType: 'reasoning' })
      }
      const block = blocks[index]!
      if (block.kind === 'thinking') {
        const piece = at(reasoning, 'text')
        if (piece) {
          block.text += String(piece)
          out.push({ type: 'reasoning-delta', index, text: String(piece) })
        }
        const signature = at(reasoning, 'signature')
        if (signature) block.signature += String(signature)
      }
    }
  }

  function replayEnvelope(): ReplayEnvelope {
    return {
      // A body names no model; the route's would be its catalogue model's id.
      response: piAiResponse('bedrock-converse-stream', 'amazon-bedrock', null, undefined, stopReason),
      blocks: blocks.map((block) =>
        block.kind === 'text'
          ? { type: 'text' }
          : block.kind === 'thinking'
            ? { type: 'reasoning', thinkingSignature: block.signature }
            : { type: 'tool-call' },
      ),
    }
  }

  return {
    push(data, event) {
      if (finished) return []
      const out: StreamChunk[] = []
      try {
        apply(event ?? '', JSON.parse(data), out)
        return out
      } catch (error) {
        return [...out, ...fail(error instanceof Error ? error.message : String(error))]
      }
    },
    end() {
      if (finished) return []
      if (stopReason === 'error') return fail(errorMessage || 'An unknown error occurred')
      finished = true
      return finish()
    },
    fail,
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}

function mapStop(reason: unknown): StopReason {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop'
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length'
  if (reason === 'tool_use') return 'toolUse'
  return 'error'
}

/** An exception event's payload is `{"message": …}`; the SDK's error carries that message. */
function exceptionMessage(event: unknown): string {
  const message = typeof event === 'object' && event !== null ? at(event, 'message') : undefined
  return typeof message === 'string' ? message : JSON.stringify(event)
}

/** pi-ai parses the joined input with its streaming parser; the route re-serialises the parsed value. */
function arguments_(json: string): string {
  return JSON.stringify(parseStreamingJson(json))
}
