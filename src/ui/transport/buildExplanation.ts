import { showValue as show } from '../../core/checks'
import type { Effect } from '../../core/effects'
import type { ReplayEngine, ReplayFrame } from '../../core/ReplayEngine'
import { english, type T } from '../i18n/translate'

/**
 * The plain-words line for the current step, e.g. "seq 41: text-delta for block 0 ignored — block 0 was frozen by
 * block-end at seq 38". Teaching is the point: say what the assembler did and, for ignored chunks, why. In the
 * language of `t` (docs/i18n.md); chunk types and protocol words stay as the protocol spells them.
 */
export function buildExplanation(engine: ReplayEngine, frame: ReplayFrame, t: T = english): string {
  if (frame.last === null) {
    return frame.total === 0 ? t('explain.empty') : t('explain.start', { total: frame.total })
  }
  const { chunk, effect } = frame.last
  const at = t('explain.at', { seq: chunk.seq, type: show(chunk.chunk.type) })
  const frozenBy = (index: number): string => {
    const closedAt = engine.life(index)?.closedAt
    const closer = closedAt === null || closedAt === undefined ? undefined : engine.chunks.at(closedAt)
    return closer === undefined ? '' : t('explain.frozenBy', { index: show(index), seq: closer.seq })
  }
  const opened = (e: Effect): string =>
    'implicit' in e && e.implicit ? t('explain.implicit', { index: show(e.index) }) : ''
  switch (effect.kind) {
    case 'open':
      return t('explain.open', { at, index: show(effect.index), blockType: show(effect.blockType) })
    case 'append-text':
      return t('explain.appendText', {
        at,
        chars: effect.chars,
        index: show(effect.index),
        opened: opened(effect),
      })
    case 'append-arguments': {
      const changes =
        effect.idChanged && effect.nameChanged
          ? t('explain.changes.both')
          : effect.idChanged
            ? t('explain.changes.id')
            : effect.nameChanged
              ? t('explain.changes.name')
              : ''
      return t('explain.appendArguments', {
        at,
        chars: effect.chars,
        index: show(effect.index),
        opened: opened(effect),
        changes,
      })
    }
    case 'close':
      return t('explain.close', {
        at,
        index: show(effect.index),
        blockType: show((effect.block as { type?: unknown }).type),
        opened: opened(effect),
      })
    case 'ignored-duplicate-start':
      return t('explain.duplicateStart', { at, index: show(effect.index) })
    case 'ignored-straggler':
      return t('explain.straggler', { at, index: show(effect.index), frozenBy: frozenBy(effect.index) })
    case 'ignored-reclose':
      return t('explain.reclose', { at, index: show(effect.index), frozenBy: frozenBy(effect.index) })
    case 'usage-set':
      return t('explain.usageSet', { at })
    case 'usage-replaced':
      return t('explain.usageReplaced', { at })
    case 'finish-set':
      return t('explain.finishSet', { at, reason: show(frame.finish.kind) })
    case 'finish-replaced':
      return t('explain.finishReplaced', { at, reason: show(frame.finish.kind) })
    case 'unknown-chunk':
      return t('explain.unknownChunk', { at, error: effect.error })
    case 'push-error':
      return t('explain.pushError', { at, error: effect.error })
    case 'close-without-block':
      return t('explain.closeWithoutBlock', { at, index: show(effect.index), opened: opened(effect) })
    case 'after-error':
      return t('explain.afterError', { at, thrown: thrownAt(engine, t) })
  }
}

/** "its push threw at seq 12 (\"…\")": where the stream's throw happened, for the chunks after it. */
function thrownAt(engine: ReplayEngine, t: T): string {
  const pos = engine.result.errorPos
  const seq = pos === null ? undefined : engine.seqAt(pos)
  return seq === undefined
    ? t('explain.thrownEarlier')
    : t('explain.thrownAt', { seq, error: engine.result.error ?? '' })
}
