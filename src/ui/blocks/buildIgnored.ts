import { showValue } from '../../core/checks'
import type { IgnoredChunk } from '../../core/analyzeStream'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { english, type T } from '../i18n/translate'

/**
 * Why the assembler ignored a chunk, in plain words, naming the earlier chunk that decided it (docs/protocol.md §3:
 * A1 a seen index is never retyped or reopened, A2/A3 a closed block takes no more deltas, A4 first close wins).
 *
 * @example
 * describeIgnored({ kind: 'straggler-delta', index: 1, pos: 20, seq: 20 }, engine)
 * // 'block 1 was frozen by block-end at seq 19; a text-delta after it changes nothing'
 */
export function describeIgnored(
  item: IgnoredChunk,
  engine: Pick<ReplayEngine, 'chunks' | 'life'>,
  t: T = english,
): string {
  const life = engine.life(item.index)
  const seqAt = (pos: number | null | undefined): string =>
    pos === null || pos === undefined ? '?' : String(engine.chunks.at(pos)?.seq ?? '?')
  const index = showValue(item.index)
  switch (item.kind) {
    case 'straggler-delta': {
      const type = engine.chunks.at(item.pos)?.chunk.type ?? 'delta'
      return t('ignored.straggler', { index, seq: seqAt(life?.closedAt), type })
    }
    case 'duplicate-start': {
      const opener = life === undefined ? undefined : engine.chunks.at(life.openedAt)
      const by = opener === undefined || opener.chunk.type === 'block-start' ? '' : opener.chunk.type
      return t(by === '' ? 'ignored.duplicateStart' : 'ignored.duplicateStartBy', {
        index,
        seq: seqAt(life?.openedAt),
        by,
      })
    }
    case 're-close':
      return t('ignored.reclose', { index, seq: seqAt(life?.closedAt) })
  }
}
