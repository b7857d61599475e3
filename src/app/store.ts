import { createStore, type StoreApi } from 'zustand/vanilla'
import { createCursorSlice, type CursorActions, type CursorState } from './slices/cursorSlice'
import { createSourceSlice, type SourceActions, type SourceState } from './slices/sourceSlice'
import { BROWSER_LIMITS, type BrowserLimits } from './workers/budget'
import { createViewSlice, type ViewActions, type ViewState } from './slices/viewSlice'

export { findBoundary, SPEEDS } from './slices/cursorSlice'
export { newestStream, type Origin } from './slices/sourceSlice'
export type { Theme, TimelineFilter } from './slices/viewSlice'

/**
 * What the UI renders, in three slices (zustand's slices pattern): the source and its selected stream
 * (`slices/sourceSlice.ts`), the cursor and playback (`slices/cursorSlice.ts`), the view toggles
 * (`slices/viewSlice.ts`). Heavy data stays in the engines (`AttemptResults`); the store holds references.
 */
export type ChunkscopeState = SourceState & CursorState & ViewState

export type ChunkscopeActions = SourceActions & CursorActions & ViewActions

/** State plus one stable `actions` object, so components select actions without re-rendering. */
export type ChunkscopeStoreState = ChunkscopeState & { readonly actions: ChunkscopeActions }
export type ChunkscopeStore = StoreApi<ChunkscopeStoreState>

export type StoreOptions = {
  /** Yields to the host between engine-building slices (a macrotask in the browser, so the page can paint). */
  readonly yieldToHost?: () => Promise<void>
  /**
   * What a stream may hold before it is cut (workers/budget.ts). Only the UI benches' own build raises them, to
   * measure the views past what a user can open (src/bench/pageHook.ts).
   */
  readonly limits?: BrowserLimits
}

export function createChunkscopeStore(options: StoreOptions = {}): ChunkscopeStore {
  const yieldToHost = options.yieldToHost ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
  return createStore<ChunkscopeStoreState>()((set, get) => {
    const api = { set, get }
    const source = createSourceSlice(api, { yieldToHost, limits: options.limits ?? BROWSER_LIMITS })
    const cursor = createCursorSlice(api)
    const view = createViewSlice(api)
    return {
      ...source.state,
      ...cursor.state,
      ...view.state,
      actions: { ...source.actions, ...cursor.actions, ...view.actions },
    }
  })
}
