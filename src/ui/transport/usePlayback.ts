import { useEffect } from 'react'
import { useChunkscopeStore } from '../StoreContext'
import type { ChunkList } from '../../core/chunkList'

/** Chunks per second at 1× when not replaying the original timing. */
export const BASE_RATE = 8
/** Original gaps longer than this are shortened, so a stalled stream does not stall the replay. */
const MAX_GAP_MS = 2000

/**
 * Drives playback from requestAnimationFrame through `store.subscribe`, not React renders: at each frame it works
 * out how many chunks are due (a fixed rate × speed, or the recorded gaps ÷ speed) and seeks once.
 */
export function usePlayback(): void {
  const store = useChunkscopeStore()
  useEffect(() => {
    let raf = 0
    let due = 0
    let last = 0
    const tick = (now: number) => {
      const { playing, engine, k, speed, originalTiming, actions } = store.getState()
      const { seekTo, pause } = actions
      if (!playing || engine === null) return
      const elapsed = last === 0 ? 0 : now - last
      last = now
      if (k >= engine.total) {
        pause()
        return
      }
      let target = k
      if (originalTiming) {
        due += elapsed * speed
        // Advance while the next chunk's recorded gap fits in the time that has passed.
        while (target < engine.total) {
          const gap = gapBefore(engine.chunks, target)
          if (gap > due) break
          due -= gap
          target += 1
        }
      } else {
        due += (elapsed / 1000) * BASE_RATE * speed
        const steps = Math.floor(due)
        due -= steps
        target = Math.min(engine.total, k + steps)
      }
      if (target !== k) seekTo(target)
      raf = requestAnimationFrame(tick)
    }
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.playing && !previous.playing) {
        due = 0
        last = 0
        raf = requestAnimationFrame(tick)
      } else if (!state.playing && previous.playing) cancelAnimationFrame(raf)
    })
    return () => {
      unsubscribe()
      cancelAnimationFrame(raf)
    }
  }, [store])
}

/** The recorded gap before chunk `pos` in ms, clamped to 0…MAX_GAP_MS (fixture times go backwards). */
function gapBefore(chunks: ChunkList, pos: number): number {
  const previous = pos > 0 && pos <= chunks.length ? chunks.timeAt(pos - 1) : null
  const current = pos >= 0 && pos < chunks.length ? chunks.timeAt(pos) : null
  if (previous === null || current === null) return 1000 / BASE_RATE
  return Math.min(MAX_GAP_MS, Math.max(0, current - previous))
}
