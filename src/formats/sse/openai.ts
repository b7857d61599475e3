import type { FinishReason, StreamChunk, TokenUsage } from '../../core/protocol'
import {
  describeParseError,
  isRecord,
  makeTranslator,
  type Dialect,
  type TranslatorKit,
  type WireTranslator,
} from './translator'

type TextualBlock = { readonly kind: 'reasoning' | 'text'; readonly index: number; text: string }
type OpenBlock =
  | TextualBlock
  | { readonly kind: 'tool-call'; readonly index: number; id: string; name: string | undefined; args: string }

/**
 * The harness's DeepSeek / OpenAI-compatible Chat Completions adapter, as a translator (PROTOCOL.md §9), rule for
 * rule: per wire chunk `choices[0].delta.reasoning_content` (non-empty) opens ONE reasoning block lazily at the next
 * free index, then `reasoning-delta`; `delta.content` likewise ONE text block (later text appends to it); each
 * `delta.tool_calls[i]`, keyed by its wire `index`, opens a tool-call block on first sight, then `tool-call-delta`
 * with the sticky id (`''` until known), the name on every delta once known and `argumentsDelta` =
 * `function.arguments ?? ''`. `finish_reason` and `usage` are remembered (last wins). At `[DONE]`: a block-end per
 * opened block in opening order, usage, finish (stop with no block → error EMPTY_RESPONSE). Bad JSON → finish
 * error MALFORMED_RESPONSE; end of body before `[DONE]` → STREAM_CLOSED; blocks opened before a failure stay open.
 *
 * @example
 * const t = createDeepSeekTranslator()
 * t.push('{"choices":[{"delta":{"content":"Hi"}}]}') // [bs0 text, td0 'Hi']
 * t.push('[DONE]') // [be0 text 'Hi', finish stop]
 */
export function createDeepSeekTranslator(): WireTranslator {
  return makeTranslator('stream closed before [DONE]', deepSeekDialect)
}

function deepSeekDialect({ note, fail, end }: TranslatorKit): Dialect {
  const blocks: OpenBlock[] = []
  let reasoning: TextualBlock | null = null
  let text: TextualBlock | null = null
  const toolCalls = new Map<number, Extract<OpenBlock, { kind: 'tool-call' }>>()
  let finishReason: FinishReason | null = null
  let usage: TokenUsage | null = null
  let metadataNoted = false

  const push = (data: string): StreamChunk[] => {
    // `[DONE]` (tolerating surrounding spaces) without trimming every payload of a 100 MB body.
    if (data.charCodeAt(0) !== 123 && data.trim() === '[DONE]') return end('done')
    let parsed: unknown
    try {
      parsed = JSON.parse(data)
    } catch (error) {
      return fail('MALFORMED_RESPONSE', `malformed stream chunk: ${describeParseError(data, error)}`)
    }
    if (!isRecord(parsed)) return fail('MALFORMED_RESPONSE', 'malformed stream chunk: not a JSON object')
    const out: StreamChunk[] = []
    if (!metadataNoted) {
      metadataNoted = true
      const meta = Object.keys(parsed).filter((key) => key !== 'choices' && key !== 'usage')
      if (meta.length > 0)
        note('metadata', 'info', `response metadata (${meta.join(', ')}) is not part of the StreamChunks`)
    }
    const choices = parsed['choices']
    const choice = Array.isArray(choices) && isRecord(choices[0]) ? choices[0] : null
    if (Array.isArray(choices) && choices.length > 1)
      note('choices', 'info', 'choices after the first are not mapped (the adapter reads choices[0])')
    if (parsed['error'] !== undefined)
      note('error-object', 'warning', 'an "error" object inside the stream is not mapped by the adapter')
    const delta = choice !== null && isRecord(choice['delta']) ? choice['delta'] : null
    if (delta !== null) {
      for (const key in delta) {
        if (!MAPPED_DELTA_KEYS.has(key) && delta[key] !== null)
          note(`delta:${key}`, 'info', `delta.${key} is not mapped onto StreamChunks`)
      }
      const reasoningText = delta['reasoning_content']
      if (typeof reasoningText === 'string' && reasoningText !== '') {
        if (reasoning === null) {
          reasoning = { kind: 'reasoning', index: blocks.length, text: '' }
          blocks.push(reasoning)
          out.push({ type: 'block-start', index: reasoning.index, blockType: 'reasoning' })
        }
        reasoning.text += reasoningText
        out.push({ type: 'reasoning-delta', index: reasoning.index, text: reasoningText })
      }
      const content = delta['content']
      if (typeof content === 'string' && content !== '') {
        if (text === null) {
          text = { kind: 'text', index: blocks.length, text: '' }
          blocks.push(text)
          out.push({ type: 'block-start', index: text.index, blockType: 'text' })
        }
        text.text += content
        out.push({ type: 'text-delta', index: text.index, text: content })
      }
      const calls = delta['tool_calls']
      if (Array.isArray(calls)) {
        calls.forEach((call: unknown, position) => {
          if (!isRecord(call)) return
          const wireIndex = Number.isSafeInteger(call['index']) ? (call['index'] as number) : position
          let block = toolCalls.get(wireIndex)
          if (block === undefined) {
            block = { kind: 'tool-call', index: blocks.length, id: '', name: undefined, args: '' }
            blocks.push(block)
            toolCalls.set(wireIndex, block)
            out.push({ type: 'block-start', index: block.index, blockType: 'tool-call' })
          }
          const id = call['id']
          if (block.id === '' && typeof id === 'string' && id !== '') block.id = id
          const fn = isRecord(call['function']) ? call['function'] : {}
          const name = fn['name']
          if (block.name === undefined && typeof name === 'string' && name !== '') block.name = name
          const args = typeof fn['arguments'] === 'string' ? fn['arguments'] : ''
          block.args += args
          out.push({
            type: 'tool-call-delta',
            index: block.index,
            id: block.id,
            ...(block.name !== undefined ? { name: block.name } : {}),
            argumentsDelta: args,
          })
        })
      }
    } else if (choice !== null) {
      note(
        'no-delta',
        'info',
        'a choice without "delta" (not a chat.completion.chunk?) carries nothing mapped',
      )
    }
    const reason = choice?.['finish_reason']
    if (typeof reason === 'string' && reason !== '') finishReason = mapFinishReason(reason)
    const wireUsage = parsed['usage']
    if (isRecord(wireUsage)) usage = mapUsage(wireUsage)
    return out
  }

  // At [DONE]: a block-end for every opened block in opening order, then usage, then the finish (§9).
  const done = (): StreamChunk[] => {
    const out: StreamChunk[] = blocks.map((block) => ({
      type: 'block-end',
      index: block.index,
      block: toBlock(block),
    }))
    if (usage !== null) out.push({ type: 'usage', usage })
    let reason: FinishReason = finishReason ?? { kind: 'stop' }
    if (reason.kind === 'stop' && blocks.length === 0) {
      reason = {
        kind: 'error',
        failure: { message: 'empty response: no content and no tool calls', code: 'EMPTY_RESPONSE' },
      }
    }
    out.push({ type: 'finish', reason })
    return out
  }

  return { push, done }
}

/** Delta fields the adapter reads (`role` only says "assistant"). */
const MAPPED_DELTA_KEYS: ReadonlySet<string> = new Set(['content', 'reasoning_content', 'tool_calls', 'role'])

function toBlock(block: OpenBlock) {
  switch (block.kind) {
    case 'reasoning':
    case 'text':
      return { type: block.kind, text: block.text }
    case 'tool-call':
      return { type: 'tool-call', id: block.id, name: block.name ?? '', arguments: block.args } as const
  }
}

/** §9: stop→stop, tool_calls→tool-calls, length→max-tokens, anything else → error `model stopped: <r>`, code r.toUpperCase(). */
export function mapFinishReason(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return { kind: 'stop' }
    case 'tool_calls':
      return { kind: 'tool-calls' }
    case 'length':
      return { kind: 'max-tokens' }
    default:
      return { kind: 'error', failure: { message: `model stopped: ${reason}`, code: reason.toUpperCase() } }
  }
}

/**
 * §9: inputTokens = prompt_tokens − (prompt_tokens_details.cached_tokens ?? prompt_cache_hit_tokens ?? 0),
 * outputTokens = completion_tokens, cacheReadTokens when reported, reasoningTokens from
 * completion_tokens_details.reasoning_tokens.
 */
export function mapUsage(usage: Record<string, unknown>): TokenUsage {
  const prompt = num(usage['prompt_tokens']) ?? 0
  const details = isRecord(usage['prompt_tokens_details']) ? usage['prompt_tokens_details'] : {}
  const cached = num(details['cached_tokens']) ?? num(usage['prompt_cache_hit_tokens'])
  const completion = isRecord(usage['completion_tokens_details']) ? usage['completion_tokens_details'] : {}
  const reasoningTokens = num(completion['reasoning_tokens'])
  return {
    inputTokens: prompt - (cached ?? 0),
    outputTokens: num(usage['completion_tokens']) ?? 0,
    ...(cached !== undefined ? { cacheReadTokens: cached } : {}),
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
  }
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}
