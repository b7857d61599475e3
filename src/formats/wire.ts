import type { AnyChunk, SourcedChunk } from '../core/protocol'
import type { WireTrace } from '../core/session'
import { partitionPoint } from '../core/base/partitionPoint'

/** One raw wire event and the chunk positions it became, as the "Adapter" view reads it. */
export type WireEvent = {
  /** 0-based position among the stream's wire events. */
  readonly index: number
  /** 1-based line of `trace.text` where the event starts. */
  readonly line: number
  readonly raw: string
  /** Positions in the attempt's chunks (contiguous, possibly empty). */
  readonly chunkPositions: number[]
}

/**
 * Builds a {@link WireTrace} while a translator runs: `event(start, end, line)` records a raw event, `emit(chunks)`
 * appends what it became (to the chunks and to the event last recorded). Linear, no per-event objects kept.
 */
export class WireTraceBuilder {
  readonly chunks: SourcedChunk[] = []
  /** Five columns interleaved per event (start, end, line, chunkFrom, chunkTo), grown by doubling. */
  private columns = new Uint32Array(5 * 1024)
  private count = 0

  constructor(
    private readonly format: string,
    private readonly text: string,
  ) {}

  /** Records a raw event; chunks emitted until the next call are paired with it. */
  event(start: number, end: number, line: number): void {
    if ((this.count + 1) * 5 > this.columns.length) {
      const grown = new Uint32Array(this.columns.length * 2)
      grown.set(this.columns)
      this.columns = grown
    }
    const at = this.count * 5
    const columns = this.columns
    columns[at] = start
    columns[at + 1] = end
    columns[at + 2] = line
    columns[at + 3] = this.chunks.length
    columns[at + 4] = this.chunks.length
    this.count += 1
  }

  /** Appends chunks; `paired` false for chunks no event produced (synthesised at end of body). */
  emit(chunks: readonly AnyChunk[], paired = true): void {
    for (let i = 0; i < chunks.length; i++)
      this.chunks.push({ seq: this.chunks.length, time: null, chunk: chunks[i]! })
    if (paired && this.count > 0) this.columns[(this.count - 1) * 5 + 4] = this.chunks.length
  }

  get eventCount(): number {
    return this.count
  }

  build(request?: WireTrace['request']): WireTrace {
    const column = (k: number) => {
      const out = new Uint32Array(this.count)
      for (let i = 0; i < this.count; i++) out[i] = this.columns[i * 5 + k]!
      return out
    }
    return {
      format: this.format,
      ...(request !== undefined ? { request } : {}),
      text: this.text,
      count: this.count,
      start: column(0),
      end: column(1),
      line: column(2),
      chunkFrom: column(3),
      chunkTo: column(4),
    }
  }
}

/** The i-th raw event of a trace, or null when out of range. */
export function wireEvent(trace: WireTrace, index: number): WireEvent | null {
  if (!Number.isInteger(index) || index < 0 || index >= trace.count) return null
  const from = trace.chunkFrom[index]!
  const to = trace.chunkTo[index]!
  const chunkPositions: number[] = []
  for (let k = from; k < to; k++) chunkPositions.push(k)
  return {
    index,
    line: trace.line[index]!,
    raw: trace.text.slice(trace.start[index]!, trace.end[index]!),
    chunkPositions,
  }
}

/** The index of the raw event that produced the chunk at `position`, or -1 (synthesised, or out of range). */
export function wireEventOfChunk(trace: WireTrace, position: number): number {
  // chunkFrom is non-decreasing: bisect for the last event starting at or before `position`.
  // Events that produced nothing share chunkFrom with the next one; the last event starting at or before
  // `position` holds it, if any does (ranges are contiguous and in order).
  const i = partitionPoint(trace.count, (event) => trace.chunkFrom[event]! <= position) - 1
  if (i >= 0 && position < trace.chunkTo[i]!) return i
  return -1
}
