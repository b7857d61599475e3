import { useEffect, useMemo, useReducer } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { LAZY_CHUNKS, attemptSummary, type AttemptSummary } from './attemptSummary'
import type { OutlineAttempt } from './buildOutline'

/** Sources up to this many chunks are summarised before the first paint; longer ones in slices after it. */
const SYNC_CHUNKS = 100_000
const SLICE_CHUNKS = 100_000

/**
 * Summaries of every attempt of the outline, each computed once (cached on the attempt). Small sources are done
 * at once; big ones in slices between frames, re-rendering as they fill in; attempts over {@link LAZY_CHUNKS}
 * wait until selected and then reuse the selected engine's result instead of a second pass.
 */
export function useAttemptSummaries(
  attempts: readonly OutlineAttempt[],
  engine: ReplayEngine | null,
): (node: OutlineAttempt) => AttemptSummary | null {
  const [version, bump] = useReducer((n: number) => n + 1, 0)

  const small = useMemo(() => {
    let total = 0
    for (const node of attempts) total += node.attempt.chunks.length
    if (total > SYNC_CHUNKS) return false
    for (const node of attempts) attemptSummary(node.attempt)
    return true
  }, [attempts])

  useEffect(() => {
    if (small) return undefined
    let next = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const work = () => {
      let budget = SLICE_CHUNKS
      let computed = false
      while (next < attempts.length && budget > 0) {
        const attempt = attempts[next]!.attempt
        next += 1
        if (attempt.chunks.length > LAZY_CHUNKS) continue
        budget -= attempt.chunks.length + 1
        computed = attemptSummary(attempt) !== null || computed
      }
      if (computed) bump()
      if (next < attempts.length) timer = setTimeout(work, 0)
    }
    timer = setTimeout(work, 0)
    return () => clearTimeout(timer)
  }, [attempts, small])

  return useMemo(() => {
    void version
    return (node: OutlineAttempt) =>
      engine !== null && engine.chunks === node.attempt.chunks
        ? attemptSummary(node.attempt, engine.result, engine.streaming)
        : attemptSummary(node.attempt)
  }, [engine, version])
}
