import type { WireTrace } from '../../core/session'
import type { SourcedChunk } from '../../core/protocol'
import { partitionPoint } from '../../core/base/partitionPoint'
import { explainEvent, firstFinishReasonEvent, type EventNote } from './explainEvent'

/**
 * The pairs of the "Adapter" view: each raw wire event with the chunk range it became, plus a pair with no event
 * for each run of chunks no event produced (block-ends and the finish synthesised at end of body). Columns of
 * typed arrays, built once per trace: a 100 MB capture holds a million events.
 */
export type AdapterRows = {
  readonly count: number
  /** The wire event index of each pair, or -1 for synthesised chunks. */
  readonly event: Int32Array
  /** The pair's chunks are positions `from[i]` … `to[i] - 1` (empty when the event produced nothing). */
  readonly from: Uint32Array
  readonly to: Uint32Array
  /** The first event carrying a `finish_reason` (OpenAI-style wires), or -1: later deltas are flagged. */
  readonly finishReasonAt: number
}

/**
 * @example
 * const rows = buildAdapterRows(attempt.wire, attempt.chunks.length)
 * rows.event[rows.count - 1] // -1: the finish synthesised at end of body
 */
export function buildAdapterRows(trace: WireTrace, total: number): AdapterRows {
  const capacity = 2 * trace.count + 1
  const event = new Int32Array(capacity)
  const from = new Uint32Array(capacity)
  const to = new Uint32Array(capacity)
  let count = 0
  let next = 0
  const push = (e: number, a: number, b: number) => {
    event[count] = e
    from[count] = a
    to[count] = b
    count += 1
  }
  for (let i = 0; i < trace.count; i++) {
    const a = trace.chunkFrom[i]!
    const b = trace.chunkTo[i]!
    if (a > next) push(-1, next, a)
    push(i, a, b)
    if (b > next) next = b
  }
  if (total > next) push(-1, next, total)
  return {
    count,
    event: event.subarray(0, count),
    from: from.subarray(0, count),
    to: to.subarray(0, count),
    finishReasonAt: firstFinishReasonEvent(trace),
  }
}

/** The pair holding the chunk at `pos`, or -1 (before the first chunk, or out of range). */
export function rowOfChunk(rows: AdapterRows, pos: number): number {
  if (pos < 0) return -1
  // `from` is non-decreasing: the last pair starting at or before `pos` holds it when its range covers it.
  const i = partitionPoint(rows.count, (row) => rows.from[row]! <= pos) - 1
  return i >= 0 && pos < rows.to[i]! ? i : -1
}

/** Why a pair's event produced no chunk, or a flag on its chunks (a delta after `finish_reason`); null: nothing to say. */
export function explainRow(
  rows: AdapterRows,
  row: number,
  trace: WireTrace,
  chunks: readonly SourcedChunk[],
): EventNote | null {
  const event = rows.event[row]!
  return event < 0 ? null : explainEvent(trace, event, chunks, rows.finishReasonAt)
}

/** Where clicking a pair seeks: after its last chunk (before the next chunk for an event that produced none). */
export function seekTargetOfRow(rows: AdapterRows, row: number): number {
  return rows.to[row]!
}

/** How many pairs produced no chunk, and how many chunks no event produced: the view's header counts. */
export function adapterCounts(rows: AdapterRows): { readonly empty: number; readonly synthesised: number } {
  let empty = 0
  let synthesised = 0
  for (let i = 0; i < rows.count; i++) {
    if (rows.event[i] === -1) synthesised += rows.to[i]! - rows.from[i]!
    else if (rows.to[i] === rows.from[i]) empty += 1
  }
  return { empty, synthesised }
}

/**
 * Pairs the list holds at once. Pair heights vary (an event may span lines), so the list cannot scale its scroll
 * range like the timeline does; instead a window of this many pairs around the cursor is laid out, well under the
 * browser's maximum element height even at several lines per pair.
 */
export const PAIR_WINDOW = 50_000

/** The first pair of the window: kept while `current` is inside it, else recentred on `current`. */
export function windowStart(count: number, current: number, start: number, size = PAIR_WINDOW): number {
  if (count <= size) return 0
  if (current < 0 || (current >= start && current < start + size)) return Math.min(start, count - size)
  return Math.max(0, Math.min(count - size, current - (size >> 1)))
}
