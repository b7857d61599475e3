import { chunkListOf, type ChunkList } from '../../core/chunkList'
import type { SourcedChunk } from '../../core/protocol'

/** What a brushed range of chunks [from, to) holds. */
export type RangeSummary = {
  readonly from: number
  readonly to: number
  readonly chunks: number
  /** Characters of streamed payload: text and reasoning deltas' text, tool-call deltas' arguments. */
  readonly chars: number
  /** From the first chunk's time to the last's, when both have one. */
  readonly ms: number | null
  /** Deltas that carried text or arguments: DeepSeek and OpenAI-style streams send about one token per delta. */
  readonly tokens: number
  readonly tokensPerSecond: number | null
  readonly byType: readonly { readonly type: string; readonly count: number }[]
  /** Chunks addressed to each block index, in first-seen order of the range; chunks without an index are left out. */
  readonly byBlock: readonly { readonly index: number; readonly count: number; readonly chars: number }[]
}

const text = (chunk: Record<string, unknown>, key: string): string =>
  typeof chunk[key] === 'string' ? (chunk[key] as string) : ''

/**
 * The figures of the lanes' brush, in one pass over the range.
 *
 * @example
 * summarizeRange(engine, 10, 20) // { chunks: 10, chars: 57, ms: 132, tokens: 9, byType: [{ type: 'text-delta', count: 9 }, …], … }
 */
export function summarizeRange(
  engine: { readonly chunks: readonly SourcedChunk[] | ChunkList },
  from: number,
  to: number,
): RangeSummary {
  const chunks = chunkListOf(engine.chunks)
  const start = Math.max(0, Math.min(from, to))
  const end = Math.min(chunks.length, Math.max(from, to))
  const byType = new Map<string, number>()
  const byBlock = new Map<number, { index: number; count: number; chars: number }>()
  let chars = 0
  let tokens = 0
  for (let pos = start; pos < end; pos++) {
    const chunk = chunks.chunkAt(pos) as Record<string, unknown> & { type: string }
    byType.set(chunk.type, (byType.get(chunk.type) ?? 0) + 1)
    const piece =
      chunk.type === 'text-delta' || chunk.type === 'reasoning-delta'
        ? text(chunk, 'text')
        : chunk.type === 'tool-call-delta'
          ? text(chunk, 'argumentsDelta')
          : ''
    chars += piece.length
    if (piece.length > 0) tokens += 1
    const index = chunk['index']
    if (typeof index === 'number') {
      let block = byBlock.get(index)
      if (block === undefined) byBlock.set(index, (block = { index, count: 0, chars: 0 }))
      block.count += 1
      block.chars += piece.length
    }
  }
  const first = end > start ? chunks.timeAt(start) : null
  const last = end > start ? chunks.timeAt(end - 1) : null
  const ms = first !== null && last !== null && last >= first ? last - first : null
  return {
    from: start,
    to: end,
    chunks: end - start,
    chars,
    ms,
    tokens,
    tokensPerSecond: ms !== null && ms > 0 ? (tokens * 1000) / ms : null,
    byType: [...byType].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count),
    byBlock: [...byBlock.values()],
  }
}
