import type { ChunkList } from '../../core/chunkList'
import { chunksOf } from '../../core/chunkList'
import type { RowBatches } from '../../core/chunkStore'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import { ReplayBuilder } from '../../core/ReplayEngine'
import type { Attempt } from '../../core/session'
import type { LoadedSource } from '../../formats/types'
import { BROWSER_LIMITS } from '../workers/budget'
import type { TransferPlan } from '../workers/transfer'

/**
 * Replaying a big file's first stream while the loading worker still parses the rest. The worker posts each column
 * batch as soon as the reader fills it (formats/columnSource.ts `BatchSink`); the page's thread is idle meanwhile,
 * so it pushes the chunks that have arrived through the stream's first pass in short slices. When the source is
 * complete the pass is handed to the store (`takeEarlyBuilder`), which finishes it: opening then waits for the last
 * batches' replay only, not for a replay of the whole stream after the parse. Only a pass over exactly the chunks
 * the finished source holds for that stream is handed over (the same rows of the same batches, at most as many as
 * it has): chunks replay in order whatever follows them, and the end-of-stream checks (§5) run only once the pass
 * knows the stream's length. Anything else (another stream selected, a reader that fell back to objects) drops it.
 */

/** A slice of the early pass lasts about this long before the page gets the thread back (a long task is > 50 ms). */
const SLICE_MS = 25
/** Chunks pushed between two reads of the clock. */
const STEP = 2048

const handedOver = new WeakMap<Attempt, ReplayBuilder>()

/** The first pass replayed while the source loaded, if it was this attempt's: once, and only unseeded. */
export function takeEarlyBuilder(attempt: Attempt): ReplayBuilder | null {
  const builder = handedOver.get(attempt) ?? null
  handedOver.delete(attempt)
  return builder
}

export class EarlyReplay {
  private readonly list: EarlyChunks
  private readonly builder: ReplayBuilder
  private scheduled = false
  private stopped = false
  private readonly channel = new MessageChannel()

  /**
   * A pass over stream `stream` of session `session`: its rows are `rows` itself (a chunk file's batches), or the
   * rows of the session's event batches `rows` named by {@link addPositions} (a session log).
   */
  constructor(
    readonly session: number,
    readonly stream: number,
    rows: RowBatches,
    positioned: boolean,
  ) {
    this.list = new EarlyChunks(rows, positioned)
    this.builder = new ReplayBuilder(this.list)
    this.channel.port1.onmessage = () => this.slice()
  }

  /** Chunks replayed so far. */
  get processed(): number {
    return this.builder.processed
  }

  /** The next positions of the stream's chunks among the event rows. */
  addPositions(rows: Int32Array): void {
    this.list.addPositions(rows)
    this.more()
  }

  /** More batches arrived. */
  more(): void {
    if (this.scheduled || this.stopped || this.list.available() <= this.builder.processed) return
    this.scheduled = true
    this.channel.port2.postMessage(null)
  }

  stop(): void {
    this.stopped = true
    this.channel.port1.close()
  }

  /** Hands the pass to the store if `source` (assembled from `plan`) holds exactly the chunks it replayed. */
  finish(source: LoadedSource, plan: TransferPlan): void {
    this.stop()
    const attempt = source.sessions[this.session]?.streams[this.stream]
    const planned = plan.sessions[this.session]?.streams[this.stream]
    if (attempt === undefined || planned === undefined) return
    const final = chunksOf(attempt)
    if (final.length < this.builder.processed || !this.list.matches(planned, this.builder.processed)) return
    this.list.become(final)
    handedOver.set(attempt, this.builder)
  }

  private slice(): void {
    this.scheduled = false
    if (this.stopped) return
    const started = performance.now()
    while (performance.now() - started < SLICE_MS) {
      const room = this.list.available() - this.builder.processed
      if (room <= 0) return
      this.builder.advance(Math.min(room, STEP))
    }
    this.more()
  }
}

/**
 * The early pass's list. Its length is the most a stream may hold on the page (the worker cuts longer ones,
 * workers/budget.ts) until the source is complete, so the pass never runs its end checks early; the pass reads only
 * chunks that have arrived ({@link available}). Once complete it reads the source's own list, at its length.
 */
class EarlyChunks implements ChunkList {
  length: number = BROWSER_LIMITS.chunksPerStream
  private positions: Int32Array
  private known = 0
  private ready = 0
  private final: ChunkList | null = null

  constructor(
    private readonly rows: RowBatches,
    private readonly positioned: boolean,
  ) {
    this.positions = new Int32Array(positioned ? 1 << 16 : 0)
  }

  addPositions(rows: Int32Array): void {
    if (this.known + rows.length > this.positions.length) {
      const grown = new Int32Array(Math.max(this.positions.length * 2, this.known + rows.length))
      grown.set(this.positions.subarray(0, this.known))
      this.positions = grown
    }
    this.positions.set(rows, this.known)
    this.known += rows.length
  }

  /** Positions whose chunk has arrived. */
  available(): number {
    if (!this.positioned) return Math.min(this.length, this.rows.length)
    // A stream's rows climb (the reader writes them in file order): the ready ones are a prefix.
    while (this.ready < this.known && this.positions[this.ready]! < this.rows.length) this.ready += 1
    return Math.min(this.length, this.ready)
  }

  /** Whether the stream as planned starts with the `count` positions read so far. */
  matches(planned: Int32Array | null, count: number): boolean {
    if (!this.positioned) return planned === null
    if (planned === null || planned.length < count) return false
    for (let pos = 0; pos < count; pos++) if (planned[pos] !== this.positions[pos]) return false
    return true
  }

  become(final: ChunkList): void {
    this.final = final
    this.length = final.length
    this.positions = new Int32Array(0)
  }

  private row(pos: number): number {
    return this.positioned ? this.positions[pos]! : pos
  }

  at(pos: number): SourcedChunk | undefined {
    if (this.final !== null) return this.final.at(pos)
    if (!(pos >= 0 && pos < this.available())) return undefined
    if (!this.positioned) return this.rows.batch(pos).sourced(this.rows.within(pos))
    // What the session builder makes of a chunk event (core/session.ts), as chunkStore.ts reads it.
    return { seq: this.seqAt(pos), time: this.timeAt(pos), chunk: this.chunkAt(pos) }
  }

  chunkAt(pos: number): AnyChunk {
    if (this.final !== null) return this.final.chunkAt(pos)
    const row = this.row(pos)
    return this.rows.batch(row).chunk(this.rows.within(row))
  }

  seqAt(pos: number): number {
    if (this.final !== null) return this.final.seqAt(pos)
    const row = this.row(pos)
    return this.rows.batch(row).seq(this.rows.within(row))
  }

  timeAt(pos: number): number | null {
    if (this.final !== null) return this.final.timeAt(pos)
    const row = this.row(pos)
    return this.rows.batch(row).time(this.rows.within(row))
  }

  typeAt(pos: number): string {
    if (this.final !== null) return this.final.typeAt(pos)
    const row = this.row(pos)
    return this.rows.batch(row).type(this.rows.within(row))
  }

  indexAt(pos: number): number | undefined {
    if (this.final !== null) return this.final.indexAt(pos)
    const row = this.row(pos)
    return this.rows.batch(row).index(this.rows.within(row))
  }

  slice(from = 0, to = this.length): SourcedChunk[] {
    if (this.final !== null) return this.final.slice(from, to)
    const out: SourcedChunk[] = []
    for (let pos = Math.max(0, from); pos < Math.min(to, this.available()); pos++) out.push(this.at(pos)!)
    return out
  }

  *[Symbol.iterator](): Iterator<SourcedChunk> {
    for (let pos = 0; pos < this.length; pos++) {
      const chunk = this.at(pos)
      if (chunk === undefined) return
      yield chunk
    }
  }
}
