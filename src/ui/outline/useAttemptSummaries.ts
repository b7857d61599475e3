import { chunksOf } from '../../core/chunkList'
import { useEffect, useMemo, useReducer } from 'react'
import type { AttemptSummary } from '../../core/attemptSummary'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { LAZY_CHUNKS, type AttemptResults } from '../../app/attemptResults'
import { inputPending, whenQuiet } from '../idleSlices'
import type { OutlineAttempt } from './buildOutline'

/** Sources up to this many chunks are summarised before the first paint; longer ones in slices after it. */
const SYNC_CHUNKS = 100_000
/**
 * A background slice stops after this long, so a key press waits at most about this much for the main thread
 * (a slice of 100,000 chunks took up to 300 ms on a shared machine and delayed the → step by as much).
 */
const SLICE_MS = 6
/** The tree re-renders with the summaries so far at most this often while they fill in. */
const RENDER_EVERY_MS = 250

/**
 * Summaries of every attempt of the outline, from the store's {@link AttemptResults} (each computed once there).
 * Small sources are done at once; big ones in slices between frames, re-rendering as they fill in; attempts over
 * {@link LAZY_CHUNKS} wait until selected and then come from the selected engine's result.
 */
export function useAttemptSummaries(
  attempts: readonly OutlineAttempt[],
  results: AttemptResults,
  /** The selected engine: when it changes, a pending summary can now be read from it. */
  engine: ReplayEngine | null,
): (node: OutlineAttempt) => AttemptSummary | null {
  const [version, bump] = useReducer((n: number) => n + 1, 0)

  const small = useMemo(() => {
    let total = 0
    for (const node of attempts) total += chunksOf(node.attempt).length
    if (total > SYNC_CHUNKS) return false
    for (const node of attempts) results.summary(node.attempt)
    return true
  }, [attempts, results])

  useEffect(() => {
    if (small) return undefined
    let next = 0
    let computed = false
    let shown = performance.now()
    let cancel = () => {}
    // In idle periods where the browser has them (after a frame's work, with no input waiting) once the user has
    // stopped stepping, within what the period has left, ending early when input arrives: key presses do not queue
    // behind a slice.
    const schedule = () => {
      cancel = whenQuiet(
        (deadline) => work(deadline === undefined ? SLICE_MS : Math.min(SLICE_MS, deadline.timeRemaining())),
        500,
      )
    }
    const work = (budget: number) => {
      const started = performance.now()
      do {
        const attempt = attempts[next]!.attempt
        next += 1
        if (chunksOf(attempt).length > LAZY_CHUNKS) continue
        computed = results.summary(attempt) !== null || computed
      } while (next < attempts.length && performance.now() - started < budget && !inputPending())
      const done = next >= attempts.length
      if (computed && (done || performance.now() - shown > RENDER_EVERY_MS)) {
        computed = false
        shown = performance.now()
        bump()
      }
      if (!done) schedule()
    }
    schedule()
    return () => cancel()
  }, [attempts, results, small])

  // A new engine (a selection finished) can turn a pending summary into one read from that engine.
  return useMemo(() => {
    void version
    void engine
    return (node: OutlineAttempt) => results.summary(node.attempt)
  }, [results, engine, version])
}
