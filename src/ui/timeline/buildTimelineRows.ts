import type { ReplayEngine } from '../../core/ReplayEngine'
import type { TimelineFilter } from '../../app/store'
import { indexOf, payloadMatcher } from './describeChunk'
import { partitionPoint } from '../../core/base/partitionPoint'

/** A row showing one chunk. */
export const ROW_CHUNK = 0
/** A collapsed run: one row standing for `spans[r]` chunks from `positions[r]` on ("… N more text-delta"). */
export const ROW_RUN = 1
/** The head of an expanded run (`spans[r]` chunks long): a plain chunk row that can collapse its run again. */
export const ROW_RUN_HEAD = 2

/** Runs shorter than this stay expanded: collapsing two rows into one saves nothing. */
export const MIN_RUN = 3

/**
 * The timeline's rows as parallel typed arrays (a million-chunk stream gives a few MB, not a million objects).
 * Row r shows chunk `positions[r]`; rows are in position order, so a position's row is a binary search away.
 */
export type TimelineRows = {
  readonly count: number
  readonly positions: Int32Array
  readonly kinds: Uint8Array
  /** Chunks covered by a ROW_RUN, or the run's full length for a ROW_RUN_HEAD; 1 otherwise. */
  readonly spans: Int32Array
  /** A search is active: every row is a match (search results never collapse). */
  readonly searching: boolean
}

const DELTAS = new Set(['text-delta', 'reasoning-delta', 'tool-call-delta'])

/**
 * The rows the timeline shows for a filter, in one O(N) pass. A chunk is shown when its type is among
 * `filter.types` (all when empty; unknown types only then), it addresses `filter.index` (usage, finish and chunks
 * without an index always do) and its payload contains `filter.search`. With `collapseRuns`, a run of at least
 * {@link MIN_RUN} consecutive deltas of one type and index with the same effect keeps its first chunk as a row
 * and folds the rest into one ROW_RUN row, unless the run's head position is in `filter.expanded`.
 *
 * @example
 * buildTimelineRows(engine, { ...filter, collapseRuns: true }) // bs0, td0 'a', "… 5 more text-delta", be0
 */
export function buildTimelineRows(
  engine: Pick<ReplayEngine, 'chunks' | 'effectCodes'>,
  filter: TimelineFilter,
): TimelineRows {
  const { chunks, effectCodes } = engine
  const total = chunks.length
  const positions = new Int32Array(total)
  const kinds = new Uint8Array(total)
  const spans = new Int32Array(total)
  const types = filter.types.length === 0 ? null : new Set<string>(filter.types)
  const matches = payloadMatcher(filter.search)
  const expanded = new Set(filter.expanded)
  const collapse = filter.collapseRuns && matches === null
  let count = 0
  const emit = (pos: number, kind: number, span: number): void => {
    positions[count] = pos
    kinds[count] = kind
    spans[count] = span
    count += 1
  }

  // Nothing to filter or fold: every chunk is its own row (the common case, kept free of per-chunk tests).
  if (types === null && filter.index === null && matches === null && !collapse) {
    for (let pos = 0; pos < total; pos++) positions[pos] = pos
    spans.fill(1)
    return { count: total, positions, kinds, spans, searching: false }
  }
  for (let pos = 0; pos < total;) {
    const chunk = chunks.chunkAt(pos)
    const index = indexOf(chunk)
    const shown =
      (types === null || types.has(chunk.type)) &&
      (filter.index === null || index === null || index === filter.index) &&
      (matches === null || matches(chunk))
    if (!shown) {
      pos += 1
      continue
    }
    if (collapse && DELTAS.has(chunk.type)) {
      // Every chunk of a run has the head's type and index, so it passes the same filters.
      let end = pos + 1
      while (end < total && effectCodes[end] === effectCodes[pos]) {
        const next = chunks.chunkAt(end)
        if (next.type !== chunk.type || indexOf(next) !== index) break
        end += 1
      }
      const length = end - pos
      if (length >= MIN_RUN) {
        if (expanded.has(pos)) {
          emit(pos, ROW_RUN_HEAD, length)
          for (let member = pos + 1; member < end; member++) emit(member, ROW_CHUNK, 1)
        } else {
          emit(pos, ROW_CHUNK, 1)
          emit(pos + 1, ROW_RUN, length - 1)
        }
        pos = end
        continue
      }
    }
    emit(pos, ROW_CHUNK, 1)
    pos += 1
  }
  return {
    count,
    positions: positions.subarray(0, count),
    kinds: kinds.subarray(0, count),
    spans: spans.subarray(0, count),
    searching: matches !== null,
  }
}

/** Last position a row covers (inclusive). */
export function lastPosOf(rows: TimelineRows, row: number): number {
  return rows.kinds[row] === ROW_RUN ? rows.positions[row]! + rows.spans[row]! - 1 : rows.positions[row]!
}

/** The row at or before `pos` in position order: the last row starting at or below it; −1 when none. */
export function rowAtOrBefore(rows: TimelineRows, pos: number): number {
  return partitionPoint(rows.count, (row) => rows.positions[row]! <= pos) - 1
}

/** The row showing chunk `pos` (its own row or the collapsed run holding it); −1 when filtered out. */
export function rowOf(rows: TimelineRows, pos: number): number {
  const row = rowAtOrBefore(rows, pos)
  return row >= 0 && lastPosOf(rows, row) >= pos ? row : -1
}

/** The cursor k that makes `row` the current one: its last chunk applied. */
export function seekTargetOf(rows: TimelineRows, row: number): number {
  return lastPosOf(rows, row) + 1
}

/**
 * The next (+1) or previous (−1) row strictly after / before the chunk at `pos`, wrapping around like a
 * browser's find bar; −1 when there are no rows.
 */
export function adjacentRow(rows: TimelineRows, pos: number, direction: 1 | -1): number {
  if (rows.count === 0) return -1
  if (direction > 0) {
    const row = rowAtOrBefore(rows, pos) + 1
    return row < rows.count ? row : 0
  }
  const row = rowAtOrBefore(rows, pos - 1)
  if (row < 0) return rows.count - 1
  // A run that also holds `pos` is the current row, not the one before it.
  if (lastPosOf(rows, row) < pos) return row
  return row > 0 ? row - 1 : rows.count - 1
}

/** Chromium caps an element's height at 33,554,430 px; the scrolled content stays below this. */
export const MAX_SCROLL_PX = 30_000_000

/**
 * How many content pixels one scrolled pixel stands for: 1 until `content` would exceed `max`, then the ratio that
 * maps the clamped scroll range onto the full one (so the last row is still reachable at the bottom).
 */
export function scrollScale(content: number, viewport: number, max = MAX_SCROLL_PX): number {
  if (content <= max) return 1
  return Math.max(1, (content - viewport) / Math.max(1, max - viewport))
}
