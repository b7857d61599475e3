import type { ContentBlock, StreamChunk, TokenUsage } from '../../core/protocol'
import { piAiFinish, type PiAiOutcome } from '../sse/piAiFailure'
import { parseStreamingJson } from '../sse/piAiJson'

/** The kinds of block a provider without a harness route can open. */
export type InlineKind = 'text' | 'reasoning' | 'tool-call'

type Open = {
  readonly kind: InlineKind
  readonly index: number
  text: string
  id: string
  name: string
  args: string
}

/**
 * Blocks numbered and closed the way the harness's pi-ai route does it (docs/protocol.md §9, "The harness's pi-ai
 * route"), for the wires that have no route of their own (docs/protocol.md §9, "Wires without a harness route"): each provider content part (keyed
 * by whatever the wire keys it by) gets the next free index, its deltas go to that index, and its end is a
 * `block-end` at once (inline, never held for the end of the stream). A tool call's arguments at its end are
 * `JSON.stringify` of the streaming parse of its argument text, as pi-ai's `toolcall_end` gives them. The stream's
 * end is the open blocks closed in order, then `usage`, then `finish` (pi-ai's stop-reason mapping, `piAiFinish`).
 *
 * @example
 * const blocks = new InlineBlocks()
 * blocks.open('text', 'c0') // [bs0 text]
 * blocks.delta('c0', 'Hi') // [td0 'Hi']
 * blocks.close('c0') // [be0 text 'Hi']
 */
export class InlineBlocks {
  private readonly live = new Map<string, Open>()
  private count = 0
  private toolCalls = 0

  /** How many blocks were opened (pi-ai's content length; 0 with a stop is EMPTY_RESPONSE). */
  get size(): number {
    return this.count
  }

  /** Whether a tool-call block was opened (pi-ai's Google and Responses routes then report toolUse for a stop). */
  get sawToolCall(): boolean {
    return this.toolCalls > 0
  }

  has(key: string): boolean {
    return this.live.has(key)
  }

  /** The kind of the open block `key`, or null. */
  kindOf(key: string): InlineKind | null {
    return this.live.get(key)?.kind ?? null
  }

  /** Opens a block at the next free index; a key still open is closed first (a provider reusing its index). */
  open(kind: InlineKind, key: string, tool?: { id: string; name: string }): StreamChunk[] {
    const out = this.live.has(key) ? this.close(key) : []
    const index = this.count++
    if (kind === 'tool-call') this.toolCalls += 1
    this.live.set(key, { kind, index, text: '', id: tool?.id ?? '', name: tool?.name ?? '', args: '' })
    out.push({ type: 'block-start', index, blockType: kind })
    return out
  }

  /** A delta for the open block `key` (text, reasoning or argument text); nothing when `key` is not open. */
  delta(key: string, piece: string): StreamChunk[] {
    const block = this.live.get(key)
    if (block === undefined) return []
    const { index } = block
    if (block.kind === 'tool-call') {
      block.args += piece
      return [
        {
          type: 'tool-call-delta',
          index,
          id: block.id,
          ...(block.name.length > 0 ? { name: block.name } : {}),
          argumentsDelta: piece,
        },
      ]
    }
    block.text += piece
    return [
      block.kind === 'text'
        ? { type: 'text-delta', index, text: piece }
        : { type: 'reasoning-delta', index, text: piece },
    ]
  }

  /** Closes `key` with its whole block; `args` replaces the argument text when the wire sends the final input. */
  close(key: string, args?: string): StreamChunk[] {
    const block = this.live.get(key)
    if (block === undefined) return []
    this.live.delete(key)
    return [{ type: 'block-end', index: block.index, block: this.whole(block, args) }]
  }

  /** Closes every open block, in the order they opened. */
  closeAll(): StreamChunk[] {
    const out: StreamChunk[] = []
    for (const key of this.live.keys()) out.push(...this.close(key))
    return out
  }

  /** A whole tool call in one event (Ollama, AI SDK's `tool-input-available` alone): start, one delta, end. */
  wholeToolCall(key: string, id: string, name: string, args: string): StreamChunk[] {
    return [...this.open('tool-call', key, { id, name }), ...this.delta(key, args), ...this.close(key)]
  }

  /**
   * The end of a stream: open blocks closed, `usage`, then the finish for pi-ai's stop reason. A failure leaves the
   * blocks open, as the route does (an error event ends the stream where it is).
   */
  finish(outcome: Omit<PiAiOutcome, 'blockCount'>, usage: TokenUsage): StreamChunk[] {
    const failed = outcome.stopReason === 'error' || outcome.stopReason === 'aborted'
    return [
      ...(failed ? [] : this.closeAll()),
      { type: 'usage', usage },
      { type: 'finish', reason: piAiFinish({ ...outcome, blockCount: this.count }) },
    ]
  }

  private whole(block: Open, args: string | undefined): ContentBlock {
    if (block.kind === 'text') return { type: 'text', text: block.text }
    if (block.kind === 'reasoning') return { type: 'reasoning', text: block.text }
    return {
      type: 'tool-call',
      id: block.id,
      name: block.name,
      arguments: JSON.stringify(parseStreamingJson(args ?? block.args)),
    }
  }
}

/** Token counts as the route's `mapUsage` reports them: input, output, and cache counts only when > 0. */
export function routeUsage(
  input: unknown,
  output: unknown,
  cache: { read?: unknown; write?: unknown } = {},
): TokenUsage {
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0)
  const read = count(cache.read)
  const write = count(cache.write)
  return {
    inputTokens: count(input),
    outputTokens: count(output),
    ...(read > 0 ? { cacheReadTokens: read } : {}),
    ...(write > 0 ? { cacheWriteTokens: write } : {}),
  }
}
