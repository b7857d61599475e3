import { createStore, type StoreApi } from 'zustand/vanilla'
import type { AssemblerState } from '../core/BlockAssembler'
import { ReplayBuilder, ReplayEngine, type ReplayFrame } from '../core/ReplayEngine'
import type { ChunkType } from '../core/protocol'
import type { Diagnostic, LoadedSource } from '../formats/types'
import { cutNotice, fitToBudget } from './workers/budget'
import type { LoadProgress } from './workers/loadMessages'
import { findStream, listStreams, type StreamEntry } from '../formats/streamRefs'

/** Where the loaded source came from; decides how the URL fragment names it. */
export type Origin =
  | { readonly kind: 'example'; readonly id: string }
  | { readonly kind: 'file'; readonly name: string }
  | { readonly kind: 'paste'; readonly name: string }
  /**
   * A `#v1.` share link: the URL keeps the link itself (a reload re-opens it), so the cursor is not written back.
   * `window`: the stream is chunks [from, to) of a stream of `total`, replayed from the carried assembler state.
   */
  | {
      readonly kind: 'link'
      readonly name: string
      readonly window: { readonly from: number; readonly to: number; readonly total: number } | null
      readonly redacted: boolean
      readonly encrypted: boolean
    }
  /** The live captures of the page and its feeds (issue 6): the source grows while it is on screen. */
  | { readonly kind: 'live'; readonly name: string }

export type Theme = 'system' | 'light' | 'dark'

export type TimelineFilter = {
  /** Chunk types shown; empty = all. */
  readonly types: readonly ChunkType[]
  /** Only chunks addressed to this index (usage/finish stay visible); null = all. */
  readonly index: number | null
  readonly search: string
  /** Collapse runs of consecutive deltas of one block into one row. */
  readonly collapseRuns: boolean
  /** Positions of run heads the user expanded again. */
  readonly expanded: readonly number[]
}

export type ChunkscopeState = {
  // Source
  readonly source: LoadedSource | null
  readonly origin: Origin | null
  readonly streamKey: string | null
  /** The selected stream's engine: heavy data lives there, never copied into the store. */
  readonly engine: ReplayEngine | null
  readonly status: 'idle' | 'loading'
  readonly progress: LoadProgress | null
  /** A load failure or unreadable input, shown in a banner; whatever could be read stays on screen. */
  readonly error: string | null
  // Cursor: position k = the first k chunks applied.
  readonly k: number
  readonly frame: ReplayFrame | null
  /**
   * Live only: the cursor follows the tail of the newest stream as chunks arrive. A move away from that tail (a step
   * back, another stream) turns it off and the cursor stays put; moving back to the tail, or `setFollow`, turns it on.
   */
  readonly follow: boolean
  // Playback
  readonly playing: boolean
  readonly speed: number
  readonly originalTiming: boolean
  // View
  readonly finalMode: 'cursor' | 'end'
  readonly theme: Theme
  readonly filter: TimelineFilter
  readonly helpOpen: boolean
}

export type ChunkscopeActions = {
  /** Shows a loaded source and selects a stream (the one named, else the first with chunks) at cursor k (else the end). */
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
  seekTo(k: number): void
  stepBy(delta: number): void
  /** Moves to the next (+1) or previous (−1) position where a block opens or closes. */
  stepToBoundary(direction: 1 | -1): void
  togglePlay(): void
  pause(): void
  setSpeed(speed: number): void
  toggleOriginalTiming(): void
  setFinalMode(mode: 'cursor' | 'end'): void
  setTheme(theme: Theme): void
  setFilter(patch: Partial<TimelineFilter>): void
  toggleRun(head: number): void
  setHelpOpen(open: boolean): void
}

/** State plus one stable `actions` object, so components select actions without re-rendering. */
export type ChunkscopeStoreState = ChunkscopeState & { readonly actions: ChunkscopeActions }
export type ChunkscopeStore = StoreApi<ChunkscopeStoreState>

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const

/** Streams up to this many chunks build their engine in one go; longer ones in slices with progress. */
const SLICE = 50_000

const initialFilter: TimelineFilter = {
  types: [],
  index: null,
  search: '',
  collapseRuns: false,
  expanded: [],
}

export type StoreOptions = {
  /** Yields to the host between engine-building slices (a macrotask in the browser, so the page can paint). */
  readonly yieldToHost?: () => Promise<void>
}

export function createChunkscopeStore(options: StoreOptions = {}): ChunkscopeStore {
  const yieldToHost = options.yieldToHost ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
  /** Engines by attempt object: a live update rebuilds only the sessions that changed, so the rest keep theirs. */
  let engines = new WeakMap<object, ReplayEngine>()
  let openEngines = new WeakMap<object, ReplayEngine>()
  let seededEngines = new Map<string, ReplayEngine>()
  /** Live: indices of the sessions whose capture is still arriving (their last stream skips end-of-stream checks). */
  let streamingSessions: ReadonlySet<number> = new Set()
  /** A windowed share link's stream and the assembler state its first chunk continues from. */
  let seeded: { readonly key: string; readonly state: AssemblerState } | null = null
  /** Bumped by every new load or selection: work for an older one is abandoned (only the newest request runs). */
  let generation = 0

  async function buildEngine(
    entry: StreamEntry,
    token: number,
    set: ChunkscopeStore['setState'],
    source: LoadedSource | null,
  ): Promise<ReplayEngine | null> {
    const initialState = seeded !== null && seeded.key === entry.key ? seeded.state : undefined
    // A seeded engine replays a different stream from the same chunks: never share a cache entry with an unseeded one.
    // Live: a capture's last stream is still arriving until its finish chunk; its end checks wait until then.
    const chunks = entry.attempt.chunks
    const open =
      streamingSessions.has(entry.sessionIndex) &&
      entry.attempt === source?.sessions[entry.sessionIndex]?.streams.at(-1) &&
      !chunks.some((sourced) => sourced.chunk.type === 'finish')
    const cache = open ? openEngines : engines
    const cached = initialState === undefined ? cache.get(entry.attempt) : seededEngines.get(entry.key)
    if (cached) return cached
    const builder = new ReplayBuilder(chunks, {
      ...(initialState === undefined ? {} : { initialState }),
      ...(open ? { streaming: true } : {}),
      // A window from a share link: the whole stream's end state and outside findings travel with it.
      ...(entry.attempt.window !== undefined ? { outside: entry.attempt.window } : {}),
    })
    if (chunks.length > SLICE)
      set({ status: 'loading', progress: { phase: 'replaying', done: 0, total: chunks.length } })
    while (!builder.advance(SLICE)) {
      set({ progress: { phase: 'replaying', done: builder.processed, total: chunks.length } })
      await yieldToHost()
      if (token !== generation) return null
    }
    const engine = new ReplayEngine(builder)
    if (initialState === undefined) cache.set(entry.attempt, engine)
    else seededEngines.set(entry.key, engine)
    return engine
  }

  return createStore<ChunkscopeStoreState>()((set, get) => {
    const seek = (k: number): void => {
      const engine = get().engine
      if (engine === null) return
      const frame = engine.seek(k)
      set({ k: frame.k, frame })
    }

    /** Live: following is on exactly when the cursor sits at the tail of the newest stream. */
    const updateFollow = (): void => {
      const { origin, engine, k, streamKey, source, follow } = get()
      if (origin?.kind !== 'live' || engine === null) return
      const next = k === engine.total && streamKey === newestStream(source)?.key
      if (next !== follow) set({ follow: next })
    }

    const select = async (
      entry: StreamEntry | null,
      k: number | undefined,
      keepPlaying = false,
    ): Promise<void> => {
      const token = ++generation
      if (entry === null) {
        set({
          streamKey: null,
          engine: null,
          frame: null,
          k: 0,
          playing: false,
          status: 'idle',
          progress: null,
        })
        return
      }
      const engine = await buildEngine(entry, token, set, get().source)
      if (engine === null || token !== generation) return
      const unchanged = engine === get().engine && k === get().k
      const frame = unchanged ? get().frame : engine.seek(k ?? engine.total)
      set({
        streamKey: entry.key,
        engine,
        frame,
        k: frame?.k ?? 0,
        playing: keepPlaying && get().playing,
        status: 'idle',
        progress: null,
      })
    }

    return {
      source: null,
      origin: null,
      streamKey: null,
      engine: null,
      status: 'idle',
      progress: null,
      error: null,
      k: 0,
      frame: null,
      follow: false,
      playing: false,
      speed: 1,
      originalTiming: false,
      finalMode: 'cursor',
      theme: 'system',
      filter: initialFilter,
      helpOpen: false,
      actions: {
        async showSource(source, origin, at = {}) {
          engines = new WeakMap()
          openEngines = new WeakMap()
          seededEngines = new Map()
          seeded = null
          streamingSessions = new Set()
          // Every entrance passes here (share links decode on this thread): a stream over the browser limits is cut
          // before an engine is built for it, and the banner says which limit (already done for worker loads).
          fitToBudget(source)
          const fatal = source.sessions.length === 0 ? firstError(source.diagnostics) : cutNotice(source)
          set({ source, origin, error: fatal, filter: initialFilter, follow: false })
          const streams = listStreams(source)
          const entry =
            findStream(source, at.stream ?? null) ??
            streams.find((candidate) => candidate.attempt.chunks.length > 0) ??
            streams[0] ??
            null
          if (entry !== null && at.initialState !== undefined)
            seeded = { key: entry.key, state: at.initialState }
          await select(entry, at.k)
        },
        async showLive(source, streaming = new Set()) {
          streamingSessions = streaming
          const state = get()
          const wasLive = state.origin?.kind === 'live'
          if (!wasLive) {
            engines = new WeakMap()
            openEngines = new WeakMap()
            seededEngines = new Map()
            seeded = null
          }
          const follow = wasLive ? state.follow : true
          const newest = newestStream(source)
          const entry = follow ? newest : (findStream(source, state.streamKey) ?? newest)
          set({
            source,
            ...(wasLive
              ? {}
              : { origin: { kind: 'live', name: 'live captures' }, error: null, filter: initialFilter }),
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
          set({ status: 'loading', progress: { phase: 'reading', done: 0, total: 0 }, playing: false })
        },
        reportProgress(progress) {
          set({ progress })
        },
        failLoading(message) {
          set({ status: 'idle', progress: null, error: message })
        },
        dismissError() {
          set({ error: null })
        },
        async selectStream(key, k) {
          await select(findStream(get().source, key), k)
          updateFollow()
        },
        seekTo(k) {
          seek(k)
          updateFollow()
        },
        stepBy(delta) {
          seek(get().k + delta)
          updateFollow()
        },
        stepToBoundary(direction) {
          const { engine, k } = get()
          if (engine === null) return
          const target = findBoundary(engine, k, direction)
          if (target !== null) seek(target)
          updateFollow()
        },
        togglePlay() {
          const { playing, engine, k } = get()
          if (engine === null) return
          // Play from the start when at the end, like a media player.
          if (!playing && k >= engine.total) seek(0)
          set({ playing: !playing })
        },
        pause() {
          set({ playing: false })
        },
        setSpeed(speed) {
          set({ speed })
        },
        toggleOriginalTiming() {
          set({ originalTiming: !get().originalTiming })
        },
        setFinalMode(finalMode) {
          set({ finalMode })
        },
        setTheme(theme) {
          set({ theme })
        },
        setFilter(patch) {
          set({ filter: { ...get().filter, ...patch } })
        },
        toggleRun(head) {
          const expanded = get().filter.expanded
          set({
            filter: {
              ...get().filter,
              expanded: expanded.includes(head) ? expanded.filter((h) => h !== head) : [...expanded, head],
            },
          })
        },
        setHelpOpen(helpOpen) {
          set({ helpOpen })
        },
      },
    }
  })
}

/** The stream live mode follows: the last stream with chunks (the newest capture's latest attempt). */
export function newestStream(source: LoadedSource | null): StreamEntry | null {
  const streams = listStreams(source)
  for (let i = streams.length - 1; i >= 0; i--) if (streams[i]!.attempt.chunks.length > 0) return streams[i]!
  return streams.at(-1) ?? null
}

function firstError(diagnostics: readonly Diagnostic[]): string | null {
  const error = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0]
  return error ? error.message : 'nothing could be read from this input'
}

/**
 * Positions just after a chunk that opened or closed a block (where the Blocks panel changes shape). Moving
 * forward from k finds the first such position above k; backward, the last below k.
 */
export function findBoundary(engine: ReplayEngine, k: number, direction: 1 | -1): number | null {
  const isBoundary = (pos: number): boolean => {
    const { kind, implicit } = engine.effectAt(pos)
    return kind === 'open' || kind === 'close' || implicit
  }
  if (direction > 0) {
    for (let pos = k; pos < engine.total; pos++) if (isBoundary(pos)) return pos + 1
    return engine.total === k ? null : engine.total
  }
  for (let pos = k - 2; pos >= 0; pos--) if (isBoundary(pos)) return pos + 1
  return k === 0 ? null : 0
}
