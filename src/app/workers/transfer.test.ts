import { describe, expect, it } from 'vitest'
import { chunksOf, eventCountOf, eventsBesideChunks } from '../../core/chunkList'
import { ReplayEngine } from '../../core/ReplayEngine'
import type { SessionEvent } from '../../core/session'
import { loadSource } from '../../formats/load'
import { expectListReads } from '../../test/chunkListChecks'
import { readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { deepUsageLog } from '../../test/hostile'
import { heldSessionOf, RowBatches } from '../../core/chunkStore'
import { loadColumns } from '../../formats/columnSource'
import { generateSessionLog } from '../../test/generateSession'
import { BROWSER_LIMITS, CUT_PREFIX, fitToBudget, type BrowserLimits } from './budget'
import { SourceAssembler, splitSource } from './transfer'

/** What the page gets after the messages went through structured clone one by one. */
function roundTrip(text: string, batch?: number) {
  const { shell, plan, parts } = splitSource(loadSource(text), batch)
  const assembler = new SourceAssembler()
  const sent = parts.map((next) => next())
  for (const part of sent) assembler.add(structuredClone(part))
  return { source: assembler.finish(structuredClone(shell), structuredClone(plan)), parts: sent }
}

describe('worker → page transfer', () => {
  it('rebuilds a session log exactly, sending chunks once as events', () => {
    const text = readCorpus('web-goal-multi-turn-actions-session.jsonl')
    const { source, parts } = roundTrip(text)
    expect(source).toEqual(loadSource(text))
    expect(parts.every((part) => part.type === 'events')).toBe(true)
    // In batches of 7 events, each stream's chunks are rebuilt across many parts.
    expect(roundTrip(text, 7).source).toEqual(loadSource(text))
  })

  it('rebuilds a bare chunk file in batches', () => {
    const text =
      generateStream(2345)
        .map((c) => JSON.stringify(c.chunk))
        .join('\n') + '\n'
    const { source, parts } = roundTrip(text, 1000)
    expect(source).toEqual(loadSource(text))
    expect(parts.filter((part) => part.type === 'chunks')).toHaveLength(3)
    // 100,345 chunks compared deeply: seconds on a loaded machine, so a wider limit than vitest's 5 s default.
  }, 60_000)

  it('sends a log with a record nested 10,000 deep (the reader skipped it), not a failure', () => {
    const { shell, plan, parts } = splitSource(loadSource(deepUsageLog(10_000).text))
    const assembler = new SourceAssembler()
    for (const next of parts) assembler.add(structuredClone(next()))
    const plain = loadSource(deepUsageLog(1).text)
    expect(assembler.finish(structuredClone(shell), structuredClone(plan)).sessions[0]!.streams).toHaveLength(
      plain.sessions[0]!.streams.length,
    )
  })
})

describe('worker → page transfer of a source read as columns', () => {
  /** The page's source from loadColumns' (the worker's reader), cut to `limits` first as readInput does. */
  function columnsTrip(text: string, limits?: BrowserLimits) {
    const read = loadColumns(text)
    const held = read.sessions.map((session) => heldSessionOf(session)!)
    const { shell, plan, parts } = splitSource(limits ? fitToBudget(read, limits) : read)
    const assembler = new SourceAssembler()
    const sent = parts.map((next) => next())
    for (const part of sent) assembler.add(structuredClone(part))
    return { source: assembler.finish(structuredClone(shell), structuredClone(plan)), sent, held }
  }

  it('sends the reader’s own batches, and the page gets what loadSource reads', () => {
    const log = generateSessionLog({ targetChars: 1_500_000, deltas: 40 }).text
    const bare =
      generateStream(120_000)
        .map((c) => JSON.stringify(c.chunk))
        .join('\n') + '\n'
    for (const text of [log, bare, readCorpus('web-goal-multi-turn-actions-session.jsonl')]) {
      const { source, sent, held } = columnsTrip(text)
      expect(source).toEqual(loadSource(text))
      // Not one batch encoded again: each part is a batch the reader wrote.
      const batches = new Set(
        held
          .flatMap((h) => [h.events, ...h.streams])
          .flatMap((rows) => (rows instanceof RowBatches ? rows.batches.map((b) => b.columns) : [])),
      )
      expect(sent.every((part) => batches.has(part.type === 'events' ? part.events : part.chunks))).toBe(true)
    }
  }, 60_000)

  it('sends a stream cut to the browser limits as its cut chunks', () => {
    const text = readCorpus('web-goal-multi-turn-actions-session.jsonl')
    const limits = { ...BROWSER_LIMITS, chunksPerStream: 3 }
    const { source } = columnsTrip(text, limits)
    expect(source).toEqual(fitToBudget(loadSource(text), limits))
    expect(source.diagnostics[0]!.message).toContain(CUT_PREFIX)
  })
})

describe('the page’s chunk store', () => {
  it('reads every chunk by position from the columns, equal to the reader’s', () => {
    const log = readCorpus('web-goal-multi-turn-actions-session.jsonl')
    const bare =
      generateStream(2345)
        .map((c) => JSON.stringify(c.chunk))
        .join('\n') + '\n'
    for (const [text, batch] of [
      [log, 7],
      [bare, 1000],
    ] as const) {
      const { source } = roundTrip(text, batch)
      const read = loadSource(text)
      source.sessions.forEach((session, s) => {
        const expected = read.sessions[s]!
        expect(eventCountOf(session)).toBe(expected.events.length)
        expect(eventsBesideChunks(session)).toEqual(expected.events.filter((e) => !isChunkEvent(e)))
        session.streams.forEach((attempt, a) => {
          const chunks = expected.streams[a]!.chunks
          const list = chunksOf(attempt)
          expectListReads(list, chunks)
          // Replaying from the columns gives what replaying the reader's chunks gives.
          expect(new ReplayEngine(list).result).toEqual(new ReplayEngine(chunks).result)
        })
      })
    }
  })

  it('builds the arrays when asked, with the chunk objects shared with their events, and forgets a replaced list', () => {
    const { source } = roundTrip(readCorpus('web-goal-multi-turn-actions-session.jsonl'), 7)
    const session = source.sessions[0]!
    const attempt = session.streams.find((stream) => stream.chunks.length > 1)!
    const first = attempt.chunks[0]!
    expect(
      session.events.some((event) => (event.data as { chunk?: unknown } | null)?.chunk === first.chunk),
    ).toBe(true)
    const held = chunksOf(attempt)
    expect(chunksOf(attempt)).toBe(held)
    attempt.chunks = attempt.chunks.slice(0, 1)
    expect(chunksOf(attempt)).not.toBe(held)
    expect(chunksOf(attempt).length).toBe(1)
  })
})

const isChunkEvent = (event: SessionEvent) => event.type === 'assistant/chunk'
