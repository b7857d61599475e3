import { chunksOf } from '../core/chunkList'
import { analyzeStream, type StreamResult } from '../core/analyzeStream'
import { summarizeAttempt, type AttemptSummary } from '../core/attemptSummary'
import type { AssemblerState } from '../core/BlockAssembler'
import type { ReplayEngine, ReplayOptions } from '../core/ReplayEngine'
import { compareRecorded, type Attempt, type RecordedComparison } from '../core/session'
import { listStreams, type StreamEntry } from '../formats/streamRefs'
import type { LoadedSource } from '../formats/types'

/** Attempts longer than this are analysed only once selected (their engine's result is reused then). */
export const LAZY_CHUNKS = 200_000

/**
 * The one owner of what each attempt of the source on screen assembles to: its replay engine (once selected), its
 * summary (the Outline), its recorded comparison (the Outline's mark and the Findings panel). Each is computed
 * once per attempt object and shared: the selected attempt is assembled by its engine's pass only, and an attempt
 * analysed before it was selected is not analysed again. A new source gets a new instance; a live update keeps it,
 * so unchanged captures keep their engines (their attempt objects are the same).
 */
export class AttemptResults {
  private readonly engines = new WeakMap<Attempt, ReplayEngine>()
  /** Engines over a live stream still arriving: no end-of-stream checks yet, so never shared with a closed one. */
  private readonly openEngines = new WeakMap<Attempt, ReplayEngine>()
  /** A windowed share link's engine: it replays from a carried state, so it is never reused unseeded. */
  private seededEngine: ReplayEngine | null = null
  private readonly analyses = new WeakMap<Attempt, StreamResult>()
  private readonly comparisons = new WeakMap<Attempt, RecordedComparison | null>()
  private readonly summaries = new WeakMap<object, AttemptSummary>()
  /** The attempt whose engine is being built: its summary waits for that engine instead of a pass of its own. */
  private building: Attempt | null = null
  /** Each attempt's address in the source, built on first need (the Outline asks for every attempt). */
  private entries: WeakMap<Attempt, StreamEntry> | null = null

  constructor(
    private source: LoadedSource | null,
    /** The stream a windowed share link opened and the assembler state its first chunk continues from. */
    private readonly seed: { readonly key: string; readonly state: AssemblerState } | null = null,
    /** Live: indices of the sessions whose capture is still arriving (their last stream skips end checks). */
    private streaming: ReadonlySet<number> = new Set(),
  ) {}

  /** A live update: the grown source, same caches. */
  update(source: LoadedSource, streaming: ReadonlySet<number>): void {
    this.source = source
    this.streaming = streaming
    this.entries = null
  }

  /** How the engine of this stream is built: seeded for a window link, `streaming` for a live stream still open. */
  engineOptions(entry: StreamEntry): ReplayOptions {
    // A window from a share link: the whole stream's end state and outside findings travel with it.
    const window = entry.attempt.window
    const outside = window === undefined ? {} : { outside: window }
    if (this.seed !== null && this.seed.key === entry.key)
      return { initialState: this.seed.state, ...outside }
    return this.isOpen(entry.attempt, entry.sessionIndex) ? { streaming: true, ...outside } : outside
  }

  /** The engine built for this stream, if any (as {@link engineOptions} would build it now). */
  engine(entry: StreamEntry): ReplayEngine | null {
    if (this.seed !== null && this.seed.key === entry.key) return this.seededEngine
    const open = this.isOpen(entry.attempt, entry.sessionIndex)
    return (open ? this.openEngines : this.engines).get(entry.attempt) ?? null
  }

  /** The engine for this stream is being built now (see {@link summary}). */
  startBuilding(entry: StreamEntry): void {
    this.building = entry.attempt
  }

  keepEngine(entry: StreamEntry, engine: ReplayEngine): void {
    if (this.building === entry.attempt) this.building = null
    if (this.seed !== null && this.seed.key === entry.key) this.seededEngine = engine
    else if (engine.streaming) this.openEngines.set(entry.attempt, engine)
    else this.engines.set(entry.attempt, engine)
  }

  /**
   * The attempt's summary: from its engine when it has one (a window link's engine starts from a carried state a
   * fresh pass does not have), else from one `analyzeStream` pass for attempts up to {@link LAZY_CHUNKS} chunks;
   * null for a longer one not yet selected, and for the one whose engine is being built (it will come from there).
   */
  summary(attempt: Attempt): AttemptSummary | null {
    const engine = this.engineOf(attempt)
    const key: object = engine ?? attempt
    const cached = this.summaries.get(key)
    if (cached !== undefined) return cached
    if (engine === null && !this.analyses.has(attempt)) {
      if (attempt === this.building || chunksOf(attempt).length > LAZY_CHUNKS) return null
    }
    const result = engine?.result ?? this.analysis(attempt)
    const summary = summarizeAttempt(attempt, result, this.comparison(attempt), engine?.streaming ?? false)
    this.summaries.set(key, summary)
    return summary
  }

  /** `compareRecorded` once per attempt, reading an unseeded engine's or the analysis' result (no extra pass). */
  comparison(attempt: Attempt): RecordedComparison | null {
    if (this.comparisons.has(attempt)) return this.comparisons.get(attempt) ?? null
    const comparison =
      attempt.recorded === null ? null : compareRecorded(attempt, this.unseededResult(attempt))
    this.comparisons.set(attempt, comparison)
    return comparison
  }

  /** The engine of this attempt if one was built (seeded or not), as the selected stream would use it. */
  private engineOf(attempt: Attempt): ReplayEngine | null {
    const entry = this.entryOf(attempt)
    return entry === null ? null : this.engine(entry)
  }

  /** A window's engine result covers only its chunks; compareRecorded reads the window's carried end state. */
  private unseededResult(attempt: Attempt): StreamResult | undefined {
    if (attempt.window !== undefined) return undefined
    return (
      this.engines.get(attempt)?.result ?? this.openEngines.get(attempt)?.result ?? this.analysis(attempt)
    )
  }

  private analysis(attempt: Attempt): StreamResult {
    let result = this.analyses.get(attempt)
    if (result === undefined) {
      result = analyzeStream(chunksOf(attempt))
      this.analyses.set(attempt, result)
    }
    return result
  }

  private entryOf(attempt: Attempt): StreamEntry | null {
    this.entries ??= new WeakMap(listStreams(this.source).map((entry) => [entry.attempt, entry]))
    return this.entries.get(attempt) ?? null
  }

  /** A live capture's last stream is still arriving until its finish chunk; its end checks wait until then. */
  private isOpen(attempt: Attempt, sessionIndex: number): boolean {
    return (
      this.streaming.has(sessionIndex) &&
      attempt === this.source?.sessions[sessionIndex]?.streams.at(-1) &&
      !attempt.chunks.some((sourced) => sourced.chunk.type === 'finish')
    )
  }
}
