import { showValue } from '../../core/checks'
import type { IgnoredChunk } from '../../core/analyzeStream'
import type { ReplayEngine } from '../../core/ReplayEngine'

/**
 * Why the assembler ignored a chunk, in plain words, naming the earlier chunk that decided it (docs/protocol.md §3:
 * A1 a seen index is never retyped or reopened, A2/A3 a closed block takes no more deltas, A4 first close wins).
 *
 * @example
 * describeIgnored({ kind: 'straggler-delta', index: 1, pos: 20, seq: 20 }, engine)
 * // 'block 1 was frozen by block-end at seq 19; a text-delta after it changes nothing'
 */
export function describeIgnored(item: IgnoredChunk, engine: Pick<ReplayEngine, 'chunks' | 'life'>): string {
  const life = engine.life(item.index)
  const seqAt = (pos: number | null | undefined): string =>
    pos === null || pos === undefined ? '?' : String(engine.chunks[pos]?.seq ?? '?')
  const block = `block ${showValue(item.index)}`
  switch (item.kind) {
    case 'straggler-delta': {
      const type = engine.chunks[item.pos]?.chunk.type ?? 'delta'
      return `${block} was frozen by block-end at seq ${seqAt(life?.closedAt)}; a ${type} after it changes nothing`
    }
    case 'duplicate-start': {
      const opener = life === undefined ? undefined : engine.chunks[life.openedAt]
      const by =
        opener === undefined || opener.chunk.type === 'block-start' ? '' : ` (by a ${opener.chunk.type})`
      return `${block} was already seen at seq ${seqAt(life?.openedAt)}${by}; a second block-start never retypes or reopens it`
    }
    case 're-close':
      return `first close wins: ${block} was closed at seq ${seqAt(life?.closedAt)}`
  }
}
