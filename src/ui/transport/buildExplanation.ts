import type { Effect } from '../../core/effects'
import type { ReplayEngine, ReplayFrame } from '../../core/ReplayEngine'

/**
 * The plain-words line for the current step, e.g. "seq 41: text-delta for block 0 ignored — block 0 was frozen by
 * block-end at seq 38". Teaching is the point: say what the assembler did and, for ignored chunks, why.
 */
export function buildExplanation(engine: ReplayEngine, frame: ReplayFrame): string {
  if (frame.last === null) {
    return frame.total === 0
      ? 'This stream has no chunks.'
      : `Nothing applied yet: ${frame.total} chunks to go.`
  }
  const { chunk, effect } = frame.last
  const type = chunk.chunk.type
  const at = `seq ${chunk.seq}: ${type}`
  const frozenBy = (index: number): string => {
    const closedAt = engine.life(index)?.closedAt
    const closer = closedAt === null || closedAt === undefined ? undefined : engine.chunks[closedAt]
    return closer === undefined ? '' : ` — block ${index} was frozen by block-end at seq ${closer.seq}`
  }
  const opened = (e: Effect): string =>
    'implicit' in e && e.implicit ? ` (opening block ${e.index} implicitly: no block-start came first)` : ''
  switch (effect.kind) {
    case 'open':
      return `${at} opened block ${effect.index} as ${effect.blockType}.`
    case 'append-text':
      return `${at} appended ${plural(effect.chars, 'char')} to block ${effect.index}${opened(effect)}.`
    case 'append-arguments': {
      const changes = [
        effect.idChanged ? 'the tool-call id changed (every delta overwrites it)' : '',
        effect.nameChanged ? 'the name changed' : '',
      ]
        .filter(Boolean)
        .join('; ')
      return `${at} appended ${plural(effect.chars, 'char')} of arguments to block ${effect.index}${opened(effect)}${changes ? `; ${changes}` : ''}.`
    }
    case 'close':
      return `${at} froze block ${effect.index} as ${effect.block.type}${opened(effect)}; the block-end's block is authoritative from here on.`
    case 'ignored-duplicate-start':
      return `${at} for block ${effect.index} ignored — block ${effect.index} was already seen; a second block-start never retypes or reopens it.`
    case 'ignored-straggler':
      return `${at} for block ${effect.index} ignored${frozenBy(effect.index)}.`
    case 'ignored-reclose':
      return `${at} for block ${effect.index} ignored — the first block-end wins${frozenBy(effect.index)}.`
    case 'usage-set':
      return `${at} set the token usage.`
    case 'usage-replaced':
      return `${at} replaced the earlier usage (the last one wins, never summed).`
    case 'finish-set':
      return `${at} set the finish reason to ${frame.finish.kind}.`
    case 'finish-replaced':
      return `${at} replaced the earlier finish with ${frame.finish.kind} (the last one wins).`
    case 'unknown-chunk':
      return `${at} is not one of the seven chunk types; the harness would throw here, Chunkscope leaves the state unchanged.`
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
