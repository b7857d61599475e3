import { afterEach, describe, expect, it, vi } from 'vitest'
import { analyzeStream } from '../core/analyzeStream'
import { summarizeAttempt } from '../core/attemptSummary'
import { BlockAssembler } from '../core/BlockAssembler'
import { compareRecorded, type Attempt } from '../core/session'
import { loadSource } from '../formats/load'
import { listStreams } from '../formats/streamRefs'
import { readCorpus } from '../test/corpus'
import { createChunkscopeStore } from './store'

/** Counts `BlockAssembler.push` calls made with one attempt's chunks, wherever they come from. */
function countPushes(attempt: Attempt): { readonly count: () => number } {
  const mine = new Set(attempt.chunks.map((sourced) => sourced.chunk))
  const push = vi.spyOn(BlockAssembler.prototype, 'push')
  return { count: () => push.mock.calls.filter(([chunk]) => mine.has(chunk)).length }
}

afterEach(() => {
  vi.restoreAllMocks()
})

async function opened(name: string) {
  const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
  const source = loadSource(readCorpus(name), name)
  return { store, source }
}

describe('AttemptResults: one owner for what each attempt assembles to', () => {
  it('the selected attempt is assembled once: its engine’s pass feeds its summary, comparison and findings', async () => {
    const { store, source } = await opened('web-goal-multi-turn-actions-session.jsonl')
    const selected = listStreams(source).find((entry) => entry.attempt.recorded !== null)!
    const pushes = countPushes(selected.attempt)
    await store
      .getState()
      .actions.showSource(source, { kind: 'file', name: 'goal.jsonl' }, { stream: selected.key })
    const { results, engine } = store.getState()
    // What the Outline asks (every attempt, twice: a re-render) and what the Findings panel asks.
    for (let render = 0; render < 2; render++) {
      for (const { attempt } of listStreams(source)) results.summary(attempt)
      results.comparison(selected.attempt)
    }
    // One pass of the engine's builder, plus the pushes its seek made from a checkpoint (counted by the engine).
    expect(pushes.count()).toBe(selected.attempt.chunks.length + engine!.pushes)
    expect(engine!.pushes).toBeLessThanOrEqual(256)
  })

  it('every other attempt is analysed once, however often it is asked for', async () => {
    const { store, source } = await opened('acp-agent-max-tokens-continue-session.jsonl')
    await store.getState().actions.showSource(source, { kind: 'file', name: 'log.jsonl' })
    const { results, streamKey } = store.getState()
    const other = listStreams(source).find(
      (entry) => entry.key !== streamKey && entry.attempt.chunks.length > 0,
    )!
    const pushes = countPushes(other.attempt)
    results.summary(other.attempt)
    results.comparison(other.attempt)
    results.summary(other.attempt)
    expect(pushes.count()).toBe(other.attempt.chunks.length)
  })

  it('gives what a fresh analysis and comparison of each attempt give, over the corpus', async () => {
    for (const name of [
      'web-goal-multi-turn-actions-session.jsonl',
      'acp-agent-cancel-session.jsonl',
      'acp-agent-empty-response-retry-session.jsonl',
      'acp-agent-subagent-max-tokens-partial-child-session.jsonl',
    ]) {
      const { store, source } = await opened(name)
      await store.getState().actions.showSource(source, { kind: 'file', name })
      const { results } = store.getState()
      for (const { attempt } of listStreams(source)) {
        const comparison = compareRecorded(attempt)
        expect(results.comparison(attempt), `${name} ${attempt.id}`).toEqual(comparison)
        expect(results.summary(attempt), `${name} ${attempt.id}`).toEqual(
          summarizeAttempt(attempt, analyzeStream(attempt.chunks), comparison),
        )
      }
    }
  })

  it('a new source brings new results; the old engines are not reused', async () => {
    const { store, source } = await opened('acp-agent-text-turn-session.jsonl')
    await store.getState().actions.showSource(source, { kind: 'file', name: 'a' })
    const first = store.getState()
    await store.getState().actions.showSource(source, { kind: 'file', name: 'a' })
    expect(store.getState().results).not.toBe(first.results)
    expect(store.getState().engine).not.toBe(first.engine)
  })
})
