import { describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { deepUsageLog } from '../../test/hostile'
import { SourceAssembler, splitSource } from './transfer'

/** What the page gets after the messages went through structured clone one by one. */
function roundTrip(text: string, batch?: number) {
  const { shell, plan, parts } = splitSource(loadSource(text), batch)
  const assembler = new SourceAssembler(structuredClone(shell), structuredClone(plan))
  const sent = parts.map((next) => next())
  for (const part of sent) assembler.add(structuredClone(part))
  return { source: assembler.finish(), parts: sent }
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
    const assembler = new SourceAssembler(structuredClone(shell), structuredClone(plan))
    for (const next of parts) assembler.add(structuredClone(next()))
    const plain = loadSource(deepUsageLog(1).text)
    expect(assembler.finish().sessions[0]!.streams).toHaveLength(plain.sessions[0]!.streams.length)
  })
})
