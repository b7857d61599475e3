import type { ReplayEngine, ReplayFrame } from '../../core/ReplayEngine'
import type { SliceApi } from './sliceApi'
import { updateFollow } from './sourceSlice'

/** Where the cursor is in the selected stream and how playback moves it. Position k = the first k chunks applied. */
export type CursorState = {
  readonly k: number
  readonly frame: ReplayFrame | null
  readonly playing: boolean
  readonly speed: number
  readonly originalTiming: boolean
}

export type CursorActions = {
  seekTo(k: number): void
  stepBy(delta: number): void
  /** Moves to the next (+1) or previous (−1) position where a block opens or closes. */
  stepToBoundary(direction: 1 | -1): void
  togglePlay(): void
  pause(): void
  setSpeed(speed: number): void
  toggleOriginalTiming(): void
}

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const

export function createCursorSlice(api: SliceApi): { state: CursorState; actions: CursorActions } {
  const { set, get } = api
  const seek = (k: number): void => {
    const engine = get().engine
    if (engine === null) return
    const frame = engine.seek(k)
    set({ k: frame.k, frame })
  }
  return {
    state: { k: 0, frame: null, playing: false, speed: 1, originalTiming: false },
    actions: {
      seekTo(k) {
        seek(k)
        updateFollow(api)
      },
      stepBy(delta) {
        seek(get().k + delta)
        updateFollow(api)
      },
      stepToBoundary(direction) {
        const { engine, k } = get()
        if (engine === null) return
        const target = findBoundary(engine, k, direction)
        if (target !== null) seek(target)
        updateFollow(api)
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
    },
  }
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
