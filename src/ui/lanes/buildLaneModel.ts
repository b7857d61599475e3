import { showValue } from '../../core/checks'
import { EFFECT_KINDS, type EffectKind } from '../../core/effects'
import { missingBefore } from '../timeline/describeChunk'
import type { ReplayEngine } from '../../core/ReplayEngine'

/**
 * Delta ticks are counted per bucket, at most this many buckets across the whole stream: finer than any lane is
 * wide in pixels, so drawing merges buckets per pixel column instead of walking a million chunks.
 */
export const MAX_BUCKETS = 4096

export type Lane = {
  readonly index: number
  /** "0 reasoning", "1 text", … */
  readonly label: string
  readonly blockType: string
  readonly implicit: boolean
  readonly openedAt: number
  readonly closedAt: number | null
  /** Where the bar ends (exclusive position): just after the freeze, or the stream's end when never closed. */
  readonly end: number
  /** Accepted deltas per bucket, for buckets `firstBucket` … `firstBucket + ticks.length − 1`. */
  readonly firstBucket: number
  readonly ticks: Uint32Array
  /** Positions of the accepted deltas, for drawing each one when zoomed in. */
  readonly deltas: Int32Array
  /** Positions of this index's chunks the assembler ignored: stragglers, re-closes, duplicate starts. */
  readonly ignored: Int32Array
}

export type LaneModel = {
  readonly total: number
  readonly buckets: number
  readonly lanes: readonly Lane[]
  /** Positions of chunks just before which the log lacks seqs the recorded message cites (docs/protocol.md §6). */
  readonly holes?: readonly number[]
}

const codeOf = (kind: EffectKind): number => EFFECT_KINDS.indexOf(kind as (typeof EFFECT_KINDS)[number])
/** Effect codes carry an "opened implicitly" flag in the high bit (core/effects.ts). */
const CODE_MASK = 0x7f
const APPEND_TEXT = codeOf('append-text')
const APPEND_ARGUMENTS = codeOf('append-arguments')
/** Effect code → is it an ignored chunk (a table, not a Set: the lane loop looks up every indexed chunk). */
const IGNORED = new Uint8Array(CODE_MASK + 1)
for (const kind of ['ignored-straggler', 'ignored-reclose', 'ignored-duplicate-start'] as const)
  IGNORED[codeOf(kind)] = 1

/** The bucket holding chunk `pos` (one chunk per bucket for streams up to {@link MAX_BUCKETS} chunks). */
export function bucketOf(model: Pick<LaneModel, 'total' | 'buckets'>, pos: number): number {
  return Math.min(model.buckets - 1, Math.floor((pos * model.buckets) / Math.max(1, model.total)))
}

/**
 * One lane per block index in first-seen order, built once per engine from each block's touches (so the cost is
 * the number of indexed chunks, once): the bar's extent, delta counts per bucket and the ignored positions.
 *
 * @example
 * buildLaneModel(engine).lanes[0] // { label: '0 reasoning', openedAt: 0, closedAt: 38, ignored: [41], … }
 */
export function buildLaneModel(
  engine: Pick<ReplayEngine, 'total' | 'lives' | 'effectCodes'> & Partial<Pick<ReplayEngine, 'chunks'>>,
  missing: readonly number[] = [],
): LaneModel {
  const total = engine.total
  const buckets = Math.max(1, Math.min(total, MAX_BUCKETS))
  const model = { total, buckets }
  const codes = engine.effectCodes
  // bucketOf, inlined (the same arithmetic, so the same buckets): this loop sees every indexed chunk once.
  const span = Math.max(1, total)
  const lastBucket = buckets - 1
  const lanes = engine.lives.map((life): Lane => {
    const end = life.closedAt === null ? total : life.closedAt + 1
    const firstBucket = bucketOf(model, life.openedAt)
    const touches = life.touches
    const lastTouch = touches[touches.length - 1] ?? life.openedAt
    const ticks = new Uint32Array(bucketOf(model, Math.max(lastTouch, life.openedAt)) - firstBucket + 1)
    // Sized for every touch and cut to what was kept: no array grows per chunk.
    const deltas = new Int32Array(touches.length)
    let kept = 0
    let ignoredCount = 0
    for (let i = 0; i < touches.length; i++) {
      const pos = touches[i]!
      // Raw effect codes (no decoding per chunk).
      const kind = (codes[pos] ?? 0) & CODE_MASK
      if (kind === APPEND_TEXT || kind === APPEND_ARGUMENTS) {
        ticks[Math.min(lastBucket, Math.floor((pos * buckets) / span)) - firstBucket]! += 1
        deltas[kept++] = pos
      } else if (IGNORED[kind] === 1) ignoredCount += 1
    }
    const ignored = new Int32Array(ignoredCount)
    if (ignoredCount > 0) {
      let at = 0
      for (const pos of touches) if (IGNORED[(codes[pos] ?? 0) & CODE_MASK] === 1) ignored[at++] = pos
    }
    return {
      index: life.index,
      label: `${showValue(life.index)} ${life.blockType}`,
      blockType: life.blockType,
      implicit: life.implicit,
      openedAt: life.openedAt,
      closedAt: life.closedAt,
      end,
      firstBucket,
      ticks,
      deltas: kept === deltas.length ? deltas : deltas.slice(0, kept),
      ignored,
    }
  })
  const holes: number[] = []
  const chunks = engine.chunks
  if (chunks !== undefined && missing.length > 0)
    for (let pos = 0; pos < chunks.length; pos++) if (missingBefore(chunks, pos, missing)) holes.push(pos)
  return { total, buckets, lanes, ...(holes.length > 0 ? { holes } : {}) }
}

/**
 * The lanes in words, for the canvas's text alternative: "3 blocks: 0 reasoning frozen at seq 38, 1 text frozen
 * at seq 45 (1 ignored after it), 2 tool-call open". Long streams list the first `limit` lanes.
 */
export function describeLanes(
  model: LaneModel,
  seqAt: (pos: number) => number | undefined,
  limit = 12,
): string {
  const { lanes } = model
  if (lanes.length === 0) return 'No blocks'
  const parts = lanes.slice(0, limit).map((lane) => {
    const state =
      lane.closedAt === null
        ? 'open (never closed)'
        : `frozen at seq ${seqAt(lane.closedAt) ?? lane.closedAt}`
    const opened = lane.implicit ? ', opened implicitly' : ''
    const ignored = lane.ignored.length === 0 ? '' : ` (${lane.ignored.length} ignored)`
    return `${lane.label} ${state}${opened}${ignored}`
  })
  const more = lanes.length > limit ? `, and ${lanes.length - limit} more` : ''
  return `${lanes.length} block${lanes.length === 1 ? '' : 's'}: ${parts.join(', ')}${more}`
}
