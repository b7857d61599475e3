import type { SourcedChunk } from '../../core/protocol'

export type OverlaidLanes = {
  /** Per block position (first-seen order): where A's and B's chunks of that block fall, 0…1 on the axis. */
  readonly rows: readonly { readonly a: readonly number[]; readonly b: readonly number[] }[]
  /** `time since the first chunk` when both streams have usable times, else `position in the stream`. */
  readonly axis: string
}

/** At most this many marks per lane and stream: a long stream is sampled evenly. */
const MAX_MARKS = 400

/**
 * Two streams' chunks laid on shared lanes for the compare view (docs/protocol.md §13): block positions in
 * first-seen order, so block 0 of A and block 0 of B share a lane whatever their indexes.
 *
 * @example
 * buildOverlaidLanes(a, b).rows[0] // { a: [0, 0.1, 0.2], b: [0, 0.4] }
 */
export function buildOverlaidLanes(a: readonly SourcedChunk[], b: readonly SourcedChunk[]): OverlaidLanes {
  const timed = usableTimes(a) && usableTimes(b)
  const span = (chunks: readonly SourcedChunk[]) =>
    timed ? chunks.at(-1)!.time! - chunks[0]!.time! : chunks.length - 1
  const scale = Math.max(1, span(a), span(b))
  const lanes = (chunks: readonly SourcedChunk[]) => {
    const order = new Map<number, number>()
    const out: number[][] = []
    chunks.forEach((sourced, pos) => {
      const index = (sourced.chunk as { index?: unknown }).index
      if (typeof index !== 'number') return
      if (!order.has(index)) order.set(index, order.size)
      const lane = order.get(index)!
      const x = timed ? (sourced.time! - chunks[0]!.time!) / scale : pos / scale
      ;(out[lane] ??= []).push(Math.min(1, Math.max(0, x)))
    })
    return out.map((xs) =>
      xs.length <= MAX_MARKS ? xs : xs.filter((_, i) => i % Math.ceil(xs.length / MAX_MARKS) === 0),
    )
  }
  const left = lanes(a)
  const right = lanes(b)
  const rows = Array.from({ length: Math.max(left.length, right.length) }, (_, i) => ({
    a: left[i] ?? [],
    b: right[i] ?? [],
  }))
  return { rows, axis: timed ? 'time since the first chunk' : 'position in the stream' }
}

function usableTimes(chunks: readonly SourcedChunk[]): boolean {
  if (chunks.length < 2) return false
  const first = chunks[0]!.time
  const last = chunks.at(-1)!.time
  return first !== null && last !== null && first > 0 && last > first && last - first < 10 * 60_000
}
