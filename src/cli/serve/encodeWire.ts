// StreamChunks back into a provider's SSE body, for `chunkscope serve`: the inverse of the adapters' translation
// (docs/protocol.md §9), so the harness's DeepSeek / Anthropic adapter reading the body yields the recorded chunks.
import type { AnyChunk, FinishReason, LlmFailure, TokenUsage } from '../../core/protocol'

export type WireDialect = 'openai' | 'anthropic'

/** The SSE text that carries chunk `chunk` (the position in the recording); `''` for a chunk with no wire form. */
export type WireEvent = { readonly chunk: number; readonly text: string }

/** How the encoded body ends: the end marker came (`done`), or the connection just closes (`cut`). */
export type EncodedBody = { readonly events: WireEvent[]; readonly ending: 'done' | 'cut' }

const MODEL = 'chunkscope-replay'

/**
 * Encodes `chunks` as the dialect's streaming body. DeepSeek/OpenAI (`openai`): one `chat.completion.chunk` per
 * delta (`content`, `reasoning_content`, `tool_calls[w]` with the id and name on their first appearance), usage in
 * its own chunk, `finish_reason` at the finish then `[DONE]`; block starts and ends have no wire form (the adapter
 * opens blocks lazily and closes them all at `[DONE]`). Anthropic (`anthropic`): `message_start` (with usage, zeros
 * when none was recorded), then
 * `content_block_start` / `_delta` / `_stop` per chunk, usage and `stop_reason` in `message_delta`, `message_stop`.
 * A finish the dialect cannot say (a transport failure, an abort) ends the body without the end marker, which the
 * adapter reads as STREAM_CLOSED; an `error` finish in the Anthropic dialect is an `error` event.
 */
export function encodeWire(chunks: readonly AnyChunk[], dialect: WireDialect): EncodedBody {
  return dialect === 'openai' ? encodeOpenAi(chunks) : encodeAnthropic(chunks)
}

function sse(data: unknown, event?: string): string {
  return `${event !== undefined ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`
}

/** `model stopped: <r>` with code `<R>` is how both adapters map a finish reason they do not know (§9). */
function unknownReason(failure: LlmFailure): string | null {
  const match = /^model stopped: (.+)$/s.exec(failure.message)
  return match !== null && match[1]!.toUpperCase() === failure.code ? match[1]! : null
}

function encodeOpenAi(chunks: readonly AnyChunk[]): EncodedBody {
  const events: WireEvent[] = []
  const created = 0
  const frame = (
    chunk: number,
    choice: Record<string, unknown> | null,
    extra: Record<string, unknown> = {},
  ) =>
    events.push({
      chunk,
      text: sse({
        id: 'chatcmpl-replay',
        object: 'chat.completion.chunk',
        created,
        model: MODEL,
        choices: choice === null ? [] : [{ index: 0, ...choice }],
        ...extra,
      }),
    })
  // Wire index of each tool-call block, in opening order, and whether its id / name went out yet.
  const tools = new Map<number, { wire: number; id: boolean; name: boolean }>()
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i] as Record<string, unknown> & AnyChunk
    switch (chunk.type) {
      case 'text-delta':
        frame(i, { delta: { content: chunk['text'] }, finish_reason: null })
        break
      case 'reasoning-delta':
        frame(i, { delta: { reasoning_content: chunk['text'] }, finish_reason: null })
        break
      case 'block-start':
        if (chunk['blockType'] === 'tool-call')
          tools.set(chunk['index'] as number, { wire: tools.size, id: false, name: false })
        break
      case 'tool-call-delta': {
        const index = chunk['index'] as number
        const tool = tools.get(index) ?? { wire: tools.size, id: false, name: false }
        tools.set(index, tool)
        const id = typeof chunk['id'] === 'string' && chunk['id'] !== '' && !tool.id ? chunk['id'] : undefined
        const name =
          typeof chunk['name'] === 'string' && chunk['name'] !== '' && !tool.name ? chunk['name'] : undefined
        tool.id ||= id !== undefined
        tool.name ||= name !== undefined
        const call = {
          index: tool.wire,
          ...(id !== undefined ? { id, type: 'function' } : {}),
          function: { ...(name !== undefined ? { name } : {}), arguments: chunk['argumentsDelta'] ?? '' },
        }
        frame(i, { delta: { tool_calls: [call] }, finish_reason: null })
        break
      }
      case 'usage':
        frame(i, null, { usage: openAiUsage(chunk['usage'] as TokenUsage) })
        break
      case 'finish': {
        const reason = openAiReason(chunk['reason'] as FinishReason)
        if (reason === null) return { events, ending: 'cut' }
        frame(i, { delta: {}, finish_reason: reason })
        events.push({ chunk: i, text: 'data: [DONE]\n\n' })
        return { events, ending: 'done' }
      }
      default:
        break
    }
  }
  return { events, ending: 'cut' }
}

function openAiReason(reason: FinishReason): string | null {
  switch (reason.kind) {
    case 'stop':
      return 'stop'
    case 'tool-calls':
      return 'tool_calls'
    case 'max-tokens':
      return 'length'
    case 'error':
      // The DeepSeek adapter itself turns a `stop` with no block into EMPTY_RESPONSE (§9).
      return reason.failure.code === 'EMPTY_RESPONSE' ? 'stop' : unknownReason(reason.failure)
    default:
      return null
  }
}

/** The adapter's mapping read backwards: prompt tokens include the cached ones (§9). */
function openAiUsage(usage: TokenUsage): Record<string, unknown> {
  const cached = usage.cacheReadTokens
  return {
    prompt_tokens: usage.inputTokens + (cached ?? 0),
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + (cached ?? 0) + usage.outputTokens,
    ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
    ...(usage.reasoningTokens !== undefined
      ? { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }
      : {}),
  }
}

/** LlmError codes back to the Anthropic error types the adapter classifies (§9); others as `api_error`. */
const ANTHROPIC_ERROR_TYPES: Readonly<Record<string, string>> = {
  RATE_LIMIT: 'rate_limit_error',
  AUTH: 'authentication_error',
  INVALID_REQUEST: 'invalid_request_error',
  SERVER: 'api_error',
}

function encodeAnthropic(chunks: readonly AnyChunk[]): EncodedBody {
  const events: WireEvent[] = []
  const push = (chunk: number, type: string, data: Record<string, unknown>) =>
    events.push({ chunk, text: sse({ type, ...data }, type) })
  // The API always reports usage, and the SDKs rely on it (message_delta updates message_start's): a recording
  // without a usage chunk gets zeros, which the adapter reads as a usage chunk of zeros.
  const recorded = chunks.find((chunk) => chunk.type === 'usage') as { usage: TokenUsage } | undefined
  push(0, 'message_start', {
    message: {
      id: 'msg_replay',
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: anthropicUsage(recorded?.usage ?? { inputTokens: 0, outputTokens: 0 }),
    },
  })
  const toolIdentity = toolIdentities(chunks)
  let usage: TokenUsage | null = null
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i] as Record<string, unknown> & AnyChunk
    const index = chunk['index'] as number
    switch (chunk.type) {
      case 'block-start': {
        const type = chunk['blockType']
        const block =
          type === 'text'
            ? { type: 'text', text: '' }
            : type === 'reasoning'
              ? { type: 'thinking', thinking: '' }
              : { type: 'tool_use', ...(toolIdentity.get(index) ?? { id: '', name: '' }), input: {} }
        push(i, 'content_block_start', { index, content_block: block })
        break
      }
      case 'text-delta':
        push(i, 'content_block_delta', { index, delta: { type: 'text_delta', text: chunk['text'] } })
        break
      case 'reasoning-delta':
        push(i, 'content_block_delta', { index, delta: { type: 'thinking_delta', thinking: chunk['text'] } })
        break
      case 'tool-call-delta':
        push(i, 'content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: chunk['argumentsDelta'] ?? '' },
        })
        break
      case 'block-end':
        push(i, 'content_block_stop', { index })
        break
      case 'usage':
        usage = chunk['usage'] as TokenUsage
        break
      case 'finish': {
        const reason = chunk['reason'] as FinishReason
        const stop = anthropicStop(reason)
        if (stop !== null) {
          push(i, 'message_delta', {
            delta: { stop_reason: stop, stop_sequence: null },
            ...(usage !== null ? { usage: anthropicUsage(usage) } : {}),
          })
          push(i, 'message_stop', {})
          return { events, ending: 'done' }
        }
        if (reason.kind !== 'error' || reason.failure.code === 'STREAM_CLOSED')
          return { events, ending: 'cut' }
        const type = ANTHROPIC_ERROR_TYPES[reason.failure.code] ?? 'api_error'
        push(i, 'error', { error: { type, message: reason.failure.message } })
        return { events, ending: 'done' }
      }
      default:
        break
    }
  }
  return { events, ending: 'cut' }
}

/** A tool call's id and name, which Anthropic sends at the block's start: from its deltas or its block-end. */
function toolIdentities(chunks: readonly AnyChunk[]): Map<number, { id: string; name: string }> {
  const found = new Map<number, { id: string; name: string }>()
  for (const chunk of chunks as readonly Record<string, unknown>[]) {
    const source =
      chunk['type'] === 'tool-call-delta'
        ? chunk
        : chunk['type'] === 'block-end'
          ? (chunk['block'] as Record<string, unknown> | undefined)
          : undefined
    if (source === undefined) continue
    const index = chunk['index'] as number
    const known = found.get(index) ?? { id: '', name: '' }
    if (known.id === '' && typeof source['id'] === 'string') known.id = source['id']
    if (known.name === '' && typeof source['name'] === 'string') known.name = source['name']
    found.set(index, known)
  }
  return found
}

function anthropicStop(reason: FinishReason): string | null {
  switch (reason.kind) {
    case 'stop':
      return 'end_turn'
    case 'tool-calls':
      return 'tool_use'
    case 'max-tokens':
      return 'max_tokens'
    case 'error':
      return unknownReason(reason.failure)
    default:
      return null
  }
}

function anthropicUsage(usage: TokenUsage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(usage.cacheReadTokens !== undefined ? { cache_read_input_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens !== undefined ? { cache_creation_input_tokens: usage.cacheWriteTokens } : {}),
  }
}
