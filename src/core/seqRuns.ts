import { partitionPoint } from './base/partitionPoint'

/**
 * A session's events in seq order as runs: each run is consecutive seqs owned by one stream (its index in the
 * session's streams; −1 for events that are no chunk). The session builder (session.ts) asks which stream owns a
 * cited seq and which seqs a stream holds; a 100 MB log has millions of events but a few thousand runs (a packed row,
 * docs/protocol.md §7, is one), so the runs are noted per row instead of per event.
 *
 * @example
 * const runs = new SeqRuns()
 * runs.add(0, 3, -1) // seqs 0, 1, 2: no chunks
 * runs.add(3, 400, 0) // seqs 3 … 402: stream 0's
 * runs.ownerOf(7) // 0
 */
export class SeqRuns {
  private firsts = new Float64Array(64)
  private counts = new Int32Array(64)
  private owners = new Int32Array(64)
  private runs = 0
  /** Events noted. */
  size = 0

  /**
   * `count` events with seqs `seq`, `seq` + 1, … owned by `owner` (`count` > 1 only for whole seqs). Seqs come in
   * order (§6), repeats allowed.
   */
  add(seq: number, count: number, owner: number): void {
    this.size += count
    const last = this.runs - 1
    // Only whole seqs join a run: a run of more than one event then holds every integer between its ends.
    const joins =
      last >= 0 &&
      this.owners[last] === owner &&
      this.firsts[last]! + this.counts[last]! === seq &&
      Number.isSafeInteger(seq)
    if (joins) {
      this.counts[last]! += count
      return
    }
    if (this.runs === this.firsts.length) this.grow()
    this.firsts[this.runs] = seq
    this.counts[this.runs] = count
    this.owners[this.runs] = owner
    this.runs += 1
  }

  /** The owner of the first event with this seq; −2 when there is none. */
  ownerOf(seq: number): number {
    const { firsts, counts } = this
    // The first run that reaches the seq (the runs' last seqs climb, as the seqs do).
    const run = partitionPoint(this.runs, (r) => firsts[r]! + counts[r]! - 1 < seq)
    if (run === this.runs || !(firsts[run]! <= seq)) return -2
    return counts[run] === 1 || Number.isInteger(seq) ? this.owners[run]! : -2
  }

  /**
   * {@link ownerOf} of each of `seqs`. Seqs that climb (a message citing its stream's chunks in order, as the harness
   * writes them) are found in one walk over the runs, not a search each: a ~100 MB log cites millions.
   */
  ownersOf(seqs: readonly number[]): number[] {
    if (!climbs(seqs)) return seqs.map((seq) => this.ownerOf(seq))
    const { firsts, counts } = this
    const found: number[] = []
    let run = 0
    for (const seq of seqs) {
      // The first run that reaches the seq, as ownerOf's search finds it: it moves only forward as the seqs climb.
      while (run < this.runs && firsts[run]! + counts[run]! - 1 < seq) run += 1
      found.push(
        run === this.runs || !(firsts[run]! <= seq)
          ? -2
          : counts[run] === 1 || Number.isInteger(seq)
            ? this.owners[run]!
            : -2,
      )
    }
    return found
  }

  /** Each of `streams` owners' seqs, in order. */
  seqsByOwner(streams: number): Float64Array[] {
    const { firsts, counts, owners, runs } = this
    const sizes = new Int32Array(streams)
    for (let r = 0; r < runs; r++) if (owners[r]! >= 0) sizes[owners[r]!]! += counts[r]!
    const gathered = Array.from(sizes, (size) => new Float64Array(size))
    sizes.fill(0)
    for (let r = 0; r < runs; r++) {
      const owner = owners[r]!
      if (owner < 0) continue
      const seqs = gathered[owner]!
      for (let k = 0; k < counts[r]!; k++) seqs[sizes[owner]!++] = firsts[r]! + k
    }
    return gathered
  }

  private grow(): void {
    const firsts = new Float64Array(this.firsts.length * 2)
    const counts = new Int32Array(firsts.length)
    const owners = new Int32Array(firsts.length)
    firsts.set(this.firsts)
    counts.set(this.counts)
    owners.set(this.owners)
    this.firsts = firsts
    this.counts = counts
    this.owners = owners
  }
}

/** Whether each of `seqs` is at least the one before it. */
export function climbs(seqs: ArrayLike<number>): boolean {
  for (let k = 1; k < seqs.length; k++) if (!(seqs[k]! >= seqs[k - 1]!)) return false
  return true
}
