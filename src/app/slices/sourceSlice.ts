import { chunksOf } from '../../core/chunkList'
import type { AssemblerState } from '../../core/BlockAssembler'
import { ReplayBuilder, ReplayEngine } from '../../core/ReplayEngine'
import { findStream, listStreams, type StreamEntry } from '../../formats/streamRefs'
import type { Diagnostic, LoadedSource } from '../../formats/types'
import { AttemptResults } from '../attemptResults'
import { takeEarlyBuilder } from '../open/earlyReplay'
import { cutNotice, fitToBudget, type BrowserLimits } from '../workers/budget'
import type { LoadProgress } from '../workers/loadMessages'
import type { SliceApi } from './sliceApi'
import { initialFilter } from './viewSlice'

/** Where the loaded source came from; decides how the URL fragment names it. */
export type Origin =
  | { readonly kind: 'example'; readonly id: string }
  | { readonly kind: 'file'; readonly name: string }
  | { readonly kind: 'paste'; readonly name: string }
  /**
   * A `#v5.` share link: the URL keeps the link itself (a reload re-opens it), so the cursor is not written back.
   * `window`: the stream is chunks [from, to) of a stream of `total`, replayed from the carried assembler state.
   */
  | {
      readonly kind: 'link'
      readonly name: string
      readonly window: { readonly from: number; readonly to: number; readonly total: number } | null
      readonly redacted: boolean
      readonly encrypted: boolean
    }
  /** The live captures of the page and its feeds: the source grows while it is on screen. */
  | { readonly kind: 'live'; readonly name: string }

/** See `SourceState.showing`. */
export type Showing = 'stream' | 'blocks' | 'all'

/** The source on screen, the selected stream and its engine, and how loading goes. */
export type SourceState = {
  readonly source: LoadedSource | null
  readonly origin: Origin | null
  /** Bumped for each new source on screen (a live update keeps it): views that start over per source key on it. */
  readonly sourceId: number
  readonly streamKey: string | null
  /** The selected stream's engine: heavy data lives there, never copied into the store. */
  readonly engine: ReplayEngine | null
  /** Every attempt's engine, summary and recorded comparison, each computed once (a new instance per source). */
  readonly results: AttemptResults
  readonly status: 'idle' | 'loading'
  /**
   * How much of the selected stream the panels show. A long stream's first show is three tasks, not one long one
   * (docs/ARCHITECTURE.md, "Data flow"): `stream` (its timeline, lanes and transport), then `blocks` (the blocks
   * and findings panels too), then `all` (the final message too); the panels not shown yet have an empty, busy
   * body, and the root's idle signal waits for `all`.
   */
  readonly showing: Showing
  readonly progress: LoadProgress | null
  /** A load failure or unreadable input, shown in a banner; whatever could be read stays on screen. */
  readonly error: string | null
  /**
   * Counts the opens that ended, shown or failed: whoever starts an open can wait for this to move, where the
   * loading status alone may not have changed yet (the root's `data-opens`, which the e2e helpers wait on).
   */
  readonly opensEnded: number
  /**
   * Live only: the cursor follows the tail of the newest stream as chunks arrive. A move away from that tail (a step
   * back, another stream) turns it off and the cursor stays put; moving back to the tail, or `setFollow`, turns it on.
   */
  readonly follow: boolean
}

export type SourceActions = {
  /**
   * Shows a loaded source and selects a stream (the one named, else the first with chunks) at cursor k (else the end;
   * a lesson's start).
   */
  showSource(
    source: LoadedSource,
    origin: Origin,
    at?: { stream?: string; k?: number; initialState?: AssemblerState },
  ): Promise<void>
  /**
   * Shows (or updates, while live) the live captures' source. Following: the newest stream at its tail. Otherwise the
   * selected stream stays selected and its cursor stays put; its engine is rebuilt only if its chunks changed.
   */
  showLive(source: LoadedSource, streaming?: ReadonlySet<number>): Promise<void>
  /** Turns following on (jumps to the newest stream's tail) or off. */
  setFollow(follow: boolean): Promise<void>
  startLoading(): void
  reportProgress(progress: LoadProgress): void
  failLoading(message: string): void
  dismissError(): void
  selectStream(key: string, k?: number): Promise<void>
}

export type SourceSliceOptions = {
  /** Yields to the host between engine-building slices (a macrotask in the browser, so the page can paint). */
  readonly yieldToHost: () => Promise<void>
  readonly limits: BrowserLimits
}

/** Streams up to this many chunks show the replay's progress (shorter ones build in a slice or two). */
const SLICE = 50_000
/** An engine-building slice lasts about this long before the page gets the thread back (a long task is > 50 ms). */
const SLICE_MS = 25
/** Chunks pushed between two reads of the clock. */
const STEP = 2048

export function createSourceSlice(
  api: SliceApi,
  options: SourceSliceOptions,
): { state: SourceState; actions: SourceActions } {
  const { set, get } = api
  /** Bumped by every new load or selection: work for an older one is abandoned (only the newest request runs). */
  let generation = 0

  async function buildEngine(entry: StreamEntry, token: number): Promise<ReplayEngine | null> {
    const results = get().results
    const cached = results.engine(entry)
    if (cached !== null) return cached
    results.startBuilding(entry)
    const chunks = chunksOf(entry.attempt)
    const engineOptions = results.engineOptions(entry)
    // A big file's first pass may have begun while it loaded (app/open/earlyReplay.ts): it is finished here.
    const early = Object.keys(engineOptions).length === 0 ? takeEarlyBuilder(entry.attempt) : null
    const builder = early ?? new ReplayBuilder(chunks, engineOptions)
    if (chunks.length > SLICE) {
      set({
        status: 'loading',
        progress: { phase: 'replaying', done: builder.processed, total: chunks.length },
      })
      // The render of what was set before (a new source's outline) is a task of its own, not the first slice's.
      await options.yieldToHost()
      if (token !== generation) return null
    }
    for (;;) {
      // Time-bound slices: a fixed count of chunks is a long task on a loaded machine (pushes cost more there).
      const started = performance.now()
      let done = builder.advance(STEP)
      while (!done && performance.now() - started < SLICE_MS) done = builder.advance(STEP)
      if (done) break
      set({ progress: { phase: 'replaying', done: builder.processed, total: chunks.length } })
      await options.yieldToHost()
      if (token !== generation) return null
    }
    const engine = new ReplayEngine(builder)
    results.keepEngine(entry, engine)
    return engine
  }

  async function select(
    entry: StreamEntry | null,
    k: number | undefined,
    keepPlaying = false,
    endsOpen = false,
  ): Promise<void> {
    const token = ++generation
    const ended = () => (endsOpen ? { opensEnded: get().opensEnded + 1 } : {})
    // A show this one supersedes leaves its panels to be shown as they are, until this one sets its own.
    if (get().showing !== 'all') set({ showing: 'all' })
    if (entry === null) {
      set({
        streamKey: null,
        engine: null,
        frame: null,
        k: 0,
        playing: false,
        status: 'idle',
        showing: 'all',
        progress: null,
        ...ended(),
      })
      return
    }
    const engine = await buildEngine(entry, token)
    if (engine === null || token !== generation) return
    const unchanged = engine === get().engine && k === get().k
    // A long stream's last slice, its frame and the workbench's first render (itself three: `showing`) are
    // separate tasks, not one long one: the page gets the thread back (and the progress bar its frame) between them.
    const long = engine.total > SLICE && get().status === 'loading' && !unchanged
    if (long) {
      set({ progress: { phase: 'replaying', done: engine.total, total: engine.total } })
      await options.yieldToHost()
      if (token !== generation) return
    }
    // A lesson starts before its first chunk, so the class sees every step; anything else opens at its end.
    const start = get().source?.lesson !== undefined ? 0 : engine.total
    const frame = unchanged ? get().frame : engine.seek(k ?? start)
    if (long) {
      await options.yieldToHost()
      if (token !== generation) return
    }
    set({
      streamKey: entry.key,
      engine,
      frame,
      k: frame?.k ?? 0,
      playing: keepPlaying && get().playing,
      status: 'idle',
      showing: long ? 'stream' : 'all',
      progress: null,
      ...ended(),
    })
    if (!long) return
    for (const showing of ['blocks', 'all'] as const) {
      await options.yieldToHost()
      // A newer load or selection has set the panels' state itself.
      if (token !== generation) return
      set({ showing })
    }
  }

  return {
    state: {
      source: null,
      origin: null,
      sourceId: 0,
      streamKey: null,
      engine: null,
      results: new AttemptResults(null),
      status: 'idle',
      showing: 'all',
      progress: null,
      error: null,
      opensEnded: 0,
      follow: false,
    },
    actions: {
      async showSource(source, origin, at = {}) {
        // Every entrance passes here (share links decode on this thread): a stream over the browser limits is cut
        // before an engine is built for it, and the banner says which limit (already done for worker loads).
        fitToBudget(source, options.limits)
        const streams = listStreams(source)
        const entry =
          findStream(source, at.stream ?? null) ??
          streams.find((candidate) => chunksOf(candidate.attempt).length > 0) ??
          streams[0] ??
          null
        const seed =
          entry !== null && at.initialState !== undefined ? { key: entry.key, state: at.initialState } : null
        const fatal = source.sessions.length === 0 ? firstError(source.diagnostics) : cutNotice(source)
        // The old stream and engine leave with the old source: no moment shows the new source with the old stream
        // (the URL router would record that place).
        set({
          source,
          origin,
          sourceId: get().sourceId + 1,
          results: new AttemptResults(source, seed),
          streamKey: null,
          engine: null,
          frame: null,
          showing: 'all',
          error: fatal,
          filter: initialFilter,
          follow: false,
        })
        await select(entry, at.k, false, true)
      },
      async showLive(source, streaming = new Set()) {
        const state = get()
        const wasLive = state.origin?.kind === 'live'
        const results = wasLive ? state.results : new AttemptResults(source, null, streaming)
        if (wasLive) results.update(source, streaming)
        const follow = wasLive ? state.follow : true
        const newest = newestStream(source)
        const entry = follow ? newest : (findStream(source, state.streamKey) ?? newest)
        set({
          source,
          results,
          ...(wasLive
            ? {}
            : {
                origin: { kind: 'live', name: 'live captures' },
                sourceId: state.sourceId + 1,
                error: null,
                filter: initialFilter,
              }),
          follow,
        })
        const stay = !follow && entry !== null && entry.key === state.streamKey
        await select(entry, stay ? state.k : undefined, wasLive)
      },
      async setFollow(follow) {
        if (get().origin?.kind !== 'live') return
        set({ follow })
        if (follow) await select(newestStream(get().source), undefined)
      },
      startLoading() {
        generation += 1
        // A superseded show's panels are shown as they are (its second task returns early).
        set({
          status: 'loading',
          showing: 'all',
          progress: { phase: 'reading', done: 0, total: 0 },
          playing: false,
        })
      },
      reportProgress(progress) {
        set({ progress })
      },
      failLoading(message) {
        set({ status: 'idle', progress: null, error: message, opensEnded: get().opensEnded + 1 })
      },
      dismissError() {
        set({ error: null })
      },
      async selectStream(key, k) {
        await select(findStream(get().source, key), k)
        updateFollow(api)
      },
    },
  }
}

/** Live: following is on exactly when the cursor sits at the tail of the newest stream. */
export function updateFollow({ get, set }: SliceApi): void {
  const { origin, engine, k, streamKey, source, follow } = get()
  if (origin?.kind !== 'live' || engine === null) return
  const next = k === engine.total && streamKey === newestStream(source)?.key
  if (next !== follow) set({ follow: next })
}

/** The stream live mode follows: the last stream with chunks (the newest capture's latest attempt). */
export function newestStream(source: LoadedSource | null): StreamEntry | null {
  const streams = listStreams(source)
  for (let i = streams.length - 1; i >= 0; i--)
    if (chunksOf(streams[i]!.attempt).length > 0) return streams[i]!
  return streams.at(-1) ?? null
}

function firstError(diagnostics: readonly Diagnostic[]): string | null {
  const error = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0]
  return error ? error.message : 'nothing could be read from this input'
}
