import { showValue as show } from '../../core/checks'
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
  const at = `seq ${chunk.seq}: ${show(type)}`
  const frozenBy = (index: number): string => {
    const closedAt = engine.life(index)?.closedAt
    const closer = closedAt === null || closedAt === undefined ? undefined : engine.chunks[closedAt]
    return closer === undefined ? '' : ` — block ${show(index)} was frozen by block-end at seq ${closer.seq}`
  }
  const opened = (e: Effect): string =>
    'implicit' in e && e.implicit
      ? ` (opening block ${show(e.index)} implicitly: no block-start came first)`
      : ''
  switch (effect.kind) {
    case 'open':
      return `${at} opened block ${show(effect.index)} as ${show(effect.blockType)}.`
    case 'append-text':
      return `${at} appended ${plural(effect.chars, 'char')} to block ${show(effect.index)}${opened(effect)}.`
    case 'append-arguments': {
      const changes = [
        effect.idChanged ? 'the tool-call id changed (every delta overwrites it)' : '',
        effect.nameChanged ? 'the name changed' : '',
      ]
        .filter(Boolean)
        .join('; ')
      return `${at} appended ${plural(effect.chars, 'char')} of arguments to block ${show(effect.index)}${opened(effect)}${changes ? `; ${changes}` : ''}.`
    }
    case 'close':
      return `${at} froze block ${show(effect.index)} as ${show((effect.block as { type?: unknown }).type)}${opened(effect)}; the block-end's block is authoritative from here on.`
    case 'ignored-duplicate-start':
      return `${at} for block ${show(effect.index)} ignored — block ${show(effect.index)} was already seen; a second block-start never retypes or reopens it.`
    case 'ignored-straggler':
      return `${at} for block ${show(effect.index)} ignored${frozenBy(effect.index)}.`
    case 'ignored-reclose':
      return `${at} for block ${show(effect.index)} ignored — the first block-end wins${frozenBy(effect.index)}.`
    case 'usage-set':
      return `${at} set the token usage.`
    case 'usage-replaced':
      return `${at} replaced the earlier usage (the last one wins, never summed).`
    case 'finish-set':
      return `${at} set the finish reason to ${show(frame.finish.kind)}.`
    case 'finish-replaced':
      return `${at} replaced the earlier finish with ${show(frame.finish.kind)} (the last one wins).`
    case 'unknown-chunk':
    case 'push-error': {
      const what = effect.kind === 'unknown-chunk' ? 'is not one of the seven chunk types' : 'cannot be read'
      return `${at} ${what}: the harness's push throws "${effect.error}". Its agent loop has already logged this chunk; it stops reading the stream here, writes no assistant/message and ends the turn in an error with code UNKNOWN and that message.`
    }
    case 'close-without-block':
      return `${at} for block ${show(effect.index)} carries no block object the harness can see (its test is \`if (partial.block)\`): block ${show(effect.index)} stays open and still assembles from its deltas${opened(effect)}.`
    case 'after-error':
      return `${at} never reaches the harness's assembler: ${thrownAt(engine)}, and the harness stopped reading the stream there (its own log would end at that chunk). Nothing here changes the result.`
  }
}

/** "its push threw at seq 12 (\"…\")": where the stream's throw happened, for the chunks after it. */
function thrownAt(engine: ReplayEngine): string {
  const pos = engine.result.errorPos
  const chunk = pos === null ? undefined : engine.chunks[pos]
  return chunk === undefined
    ? 'an earlier push threw'
    : `the push of seq ${chunk.seq} threw "${engine.result.error ?? ''}"`
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
