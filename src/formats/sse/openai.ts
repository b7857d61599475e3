import type { ContentBlock, FinishReason, StreamChunk, TokenUsage } from '../../core/protocol'
import { notePayload } from './openaiNotes'
import { makeTranslator, type Dialect, type TranslatorKit, type WireTranslator } from './translator'

/** The harness's terminal payload (`sse.ts` `DONE`), matched exactly: `data:  [DONE]` is JSON that fails. */
const DONE = '[DONE]'

type OpenBlock = {
  readonly index: number
  readonly kind: 'text' | 'reasoning' | 'tool-call'
  text: string
  /** Tool calls: the last `id` / `function.name` a delta carried, whatever it was (§9). */
  callId?: unknown
  name?: unknown
}

export type DeepSeekTranslatorOptions = {
  /** The endpoint's base URL, named by the harness's TRANSPORT message; unknown for most captured files. */
  readonly baseURL?: string
}

/**
 * Thrown where the harness's translator throws a TypeError (reading a field of `null`, iterating a non-array); its
 * adapter wraps that as TRANSPORT (docs/protocol.md §9 "Exact details").
 */
class WireTypeError extends Error {}

/**
 * The harness's DeepSeek / OpenAI-compatible Chat Completions adapter as a translator, rule for rule from its
 * `translate.ts`, `sse.ts` and `adapter.ts` (docs/protocol.md §9): every entry of `choices` in order, into one reasoning
 * block, one text block and one block per tool-call `index` (entries without one share a block); a tool delta's
 * `id` / `function.name` overwrite the stored values whatever they are; `function.arguments` passes on as given;
 * `finish_reason` (any string) and `usage` (truthy, coerced as the harness's arithmetic does) are remembered until
 * `[DONE]`, which closes every block in opening order, then usage, then finish (stop with no block → EMPTY_RESPONSE).
 * Payloads that are JSON but no object are ignored; bad JSON → MALFORMED_RESPONSE; `null` where an object or
 * array is read, or an object with its own `toString` key in usage arithmetic or arguments → TRANSPORT. Values keep their wire types (a numeric id stays a number), as the harness passes them.
 *
 * @example
 * const t = createDeepSeekTranslator()
 * t.push('{"choices":[{"delta":{"content":"Hi"}}]}') // [bs0 text, td0 'Hi']
 * t.push('[DONE]') // [be0 text 'Hi', finish stop]
 */
export function createDeepSeekTranslator(options: DeepSeekTranslatorOptions = {}): WireTranslator {
  return makeTranslator('SSE stream ended without [DONE]', (kit) => deepSeekDialect(kit, options))
}

function deepSeekDialect({ note, fail, end }: TranslatorKit, options: DeepSeekTranslatorOptions): Dialect {
  const order: OpenBlock[] = []
  let textBlock: OpenBlock | undefined
  let reasoningBlock: OpenBlock | undefined
  const toolBlocks = new Map<unknown, OpenBlock>()
  let pendingFinish: FinishReason | undefined
  let pendingUsage: TokenUsage | undefined
  const transport = `DeepSeek API stream from ${options.baseURL ?? '(base URL not recorded)'} failed`

  const open = (kind: OpenBlock['kind'], out: StreamChunk[]): OpenBlock => {
    const block: OpenBlock = { index: order.length, kind, text: '' }
    order.push(block)
    out.push({ type: 'block-start', index: block.index, blockType: kind })
    return block
  }

  const read = (chunk: unknown, out: StreamChunk[]): void => {
    for (const choice of iterate(member(chunk, 'choices'), 'choices')) {
      const delta = member(choice, 'delta')
      // Reasoning first: thinking mode interleaves it before text; an empty string opens nothing.
      const reasoning = optional(delta, 'reasoning_content')
      if (typeof reasoning === 'string' && reasoning.length > 0) {
        reasoningBlock ??= open('reasoning', out)
        reasoningBlock.text += reasoning
        out.push({ type: 'reasoning-delta', index: reasoningBlock.index, text: reasoning })
      }
      const content = optional(delta, 'content')
      if (typeof content === 'string' && content.length > 0) {
        textBlock ??= open('text', out)
        textBlock.text += content
        out.push({ type: 'text-delta', index: textBlock.index, text: content })
      }
      for (const call of iterate(optional(delta, 'tool_calls'), 'delta.tool_calls')) {
        // Keyed as a Map keys it (SameValueZero): entries without `index` share the `undefined` block.
        const key = member(call, 'index')
        let block = toolBlocks.get(key)
        if (block === undefined) {
          block = open('tool-call', out)
          toolBlocks.set(key, block)
        }
        const id = member(call, 'id')
        if (id !== undefined) block.callId = id
        const fn = member(call, 'function')
        const name = optional(fn, 'name')
        if (name !== undefined) block.name = name
        const fragment = optional(fn, 'arguments') ?? ''
        block.text += String(fragment)
        // The wire's types, not the protocol's: the harness passes them on unchecked (§9).
        out.push({
          type: 'tool-call-delta',
          index: block.index,
          id: block.callId ?? '',
          ...(block.name !== undefined ? { name: block.name } : {}),
          argumentsDelta: fragment,
        } as StreamChunk)
      }
      const reason = member(choice, 'finish_reason')
      if (typeof reason === 'string') pendingFinish = mapFinishReason(reason)
    }
    // Usage arrives on the finish chunk or as a trailing usage-only chunk: the latest wins.
    const usage = member(chunk, 'usage')
    if (usage) pendingUsage = mapUsage(usage)
  }

  const push = (data: string): StreamChunk[] => {
    if (data === DONE) return end('done')
    let chunk: unknown
    try {
      chunk = JSON.parse(data)
    } catch {
      if (data.trim() === DONE)
        note(
          'done-spaced',
          'error',
          `the data is ${JSON.stringify(data)}, not exactly [DONE]: the harness parses it as JSON`,
        )
      return fail('MALFORMED_RESPONSE', `malformed SSE payload: ${data.slice(0, 120)}`)
    }
    notePayload(chunk, note)
    const out: StreamChunk[] = []
    try {
      read(chunk, out)
    } catch (error) {
      // The engine's own TypeError: a value that cannot become a number or string (an object with its own
      // `toString` key) in the usage arithmetic or the arguments append, where the harness's throws the same.
      if (!(error instanceof WireTypeError) && !(error instanceof TypeError)) throw error
      const what =
        error instanceof WireTypeError ? error.message : 'a value that cannot become a number or string'
      note(
        'transport',
        'error',
        `${what}: the harness's translator throws a TypeError here, which its adapter reports as TRANSPORT`,
      )
      return [...out, ...fail('TRANSPORT', transport)]
    }
    return out
  }

  const done = (): StreamChunk[] => {
    const out: StreamChunk[] = order.map((block) => ({
      type: 'block-end',
      index: block.index,
      block: close(block),
    }))
    if (pendingUsage !== undefined) out.push({ type: 'usage', usage: pendingUsage })
    out.push({ type: 'finish', reason: finalReason(pendingFinish, order.length > 0) })
    return out
  }

  return { push, done }
}

/** `value.key` as JavaScript reads it: a TypeError (TRANSPORT) on null / undefined, `undefined` on a primitive. */
function member(value: unknown, key: string): unknown {
  if (value === null || value === undefined) throw new WireTypeError(`cannot read "${key}" of ${value}`)
  return (value as Record<string, unknown>)[key]
}

/** `value?.key`. */
function optional(value: unknown, key: string): unknown {
  return value === null || value === undefined ? undefined : (value as Record<string, unknown>)[key]
}

/** `for (… of value ?? [])`: JSON's iterables are arrays and strings (iterated by code point); others throw. */
function iterate(value: unknown, what: string): Iterable<unknown> {
  if (value === null || value === undefined) return []
  if (Array.isArray(value) || typeof value === 'string') return value as Iterable<unknown>
  throw new WireTypeError(`${what} is ${JSON.stringify(value)?.slice(0, 40)}, not an array`)
}

function close(block: OpenBlock): ContentBlock {
  switch (block.kind) {
    case 'text':
      return { type: 'text', text: block.text }
    case 'reasoning':
      return { type: 'reasoning', text: block.text }
    case 'tool-call':
      return {
        type: 'tool-call',
        id: (block.callId ?? '') as string,
        name: (block.name ?? '') as string,
        arguments: block.text,
      }
  }
}

/** §9: the finish the adapter sends at `[DONE]`: the held reason (none reads as stop), and a stop that produced
 * no block is EMPTY_RESPONSE. */
export function finalReason(held: FinishReason | undefined, producedContent: boolean): FinishReason {
  const reason = held ?? { kind: 'stop' }
  if (reason.kind !== 'stop' || producedContent) return reason
  return {
    kind: 'error',
    failure: { message: 'model returned a completed response with no content', code: 'EMPTY_RESPONSE' },
  }
}

/** §9: stop→stop, tool_calls→tool-calls, length→max-tokens, any other string (`""` too) → error, code r.toUpperCase(). */
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
 * §9, with the harness's JavaScript semantics: `inputTokens = prompt_tokens − (prompt_tokens_details?.cached_tokens
 * ?? prompt_cache_hit_tokens ?? 0)` as numbers (`"10"` → 10, a missing prompt_tokens → NaN); `outputTokens`,
 * `cacheReadTokens` and `reasoningTokens` as the wire gave them, absent when the wire has none.
 */
export function mapUsage(usage: unknown): TokenUsage {
  const cacheRead =
    optional(optional(usage, 'prompt_tokens_details'), 'cached_tokens') ??
    optional(usage, 'prompt_cache_hit_tokens')
  const reasoning = optional(optional(usage, 'completion_tokens_details'), 'reasoning_tokens')
  const output = optional(usage, 'completion_tokens')
  return {
    inputTokens: Number(optional(usage, 'prompt_tokens')) - Number(cacheRead ?? 0),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(cacheRead !== undefined ? { cacheReadTokens: cacheRead } : {}),
    ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
  } as TokenUsage
}
