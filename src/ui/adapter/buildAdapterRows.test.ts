import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { wireEventOfChunk } from '../../formats/wire'
import {
  adapterCounts,
  buildAdapterRows,
  explainRow,
  rowOfChunk,
  seekTargetOfRow,
  windowStart,
} from './buildAdapterRows'

const fixture = (name: string) =>
  readFileSync(new URL(`../../formats/fixtures/${name}`, import.meta.url), 'utf8')

function firstAttempt(name: string) {
  const source = loadSource(fixture(name))
  const attempt = source.sessions[0]!.streams[0]!
  expect(attempt.wire).toBeDefined()
  return attempt
}

describe('buildAdapterRows', () => {
  it.each([
    'deepseek-reasoner-tool-calls.sse',
    'anthropic-thinking-tool-use.sse',
    'deepseek-reasoner-truncated.sse',
  ])('covers every chunk of %s exactly once, in order', (name) => {
    const attempt = firstAttempt(name)
    const rows = buildAdapterRows(attempt.wire!, attempt.chunks.length)
    let next = 0
    for (let i = 0; i < rows.count; i++) {
      expect(rows.from[i]).toBe(next)
      next = rows.to[i]!
    }
    expect(next).toBe(attempt.chunks.length)
    for (let pos = 0; pos < attempt.chunks.length; pos++) {
      const row = rowOfChunk(rows, pos)
      expect(rows.from[row]! <= pos && pos < rows.to[row]!).toBe(true)
      // Rows of events agree with the reader's own lookup; the rest are synthesised.
      expect(rows.event[row]).toBe(wireEventOfChunk(attempt.wire!, pos))
    }
  })

  it('keeps every raw event, including those that produced nothing', () => {
    const attempt = firstAttempt('anthropic-thinking-tool-use.sse')
    const rows = buildAdapterRows(attempt.wire!, attempt.chunks.length)
    const events = Array.from(rows.event).filter((e) => e >= 0)
    expect(events).toEqual(Array.from({ length: attempt.wire!.count }, (_, i) => i))
    expect(adapterCounts(rows).empty).toBeGreaterThan(0)
  })

  it('puts chunks synthesised at end of body in a pair with no event', () => {
    const attempt = firstAttempt('deepseek-reasoner-truncated.sse')
    const rows = buildAdapterRows(attempt.wire!, attempt.chunks.length)
    expect(rows.event[rows.count - 1]).toBe(-1)
    expect(rows.to[rows.count - 1]).toBe(attempt.chunks.length)
    expect(adapterCounts(rows).synthesised).toBeGreaterThan(0)
  })

  it('seeks to after the last chunk of a pair; -1 before the first chunk', () => {
    const trace = {
      format: 'openai-sse',
      text: 'abc',
      count: 3,
      start: new Uint32Array([0, 1, 2]),
      end: new Uint32Array([1, 2, 3]),
      line: new Uint32Array([1, 1, 1]),
      chunkFrom: new Uint32Array([0, 0, 2]),
      chunkTo: new Uint32Array([0, 2, 3]),
    }
    const rows = buildAdapterRows(trace, 5)
    expect(Array.from(rows.event)).toEqual([0, 1, 2, -1])
    expect(rowOfChunk(rows, -1)).toBe(-1)
    expect(rowOfChunk(rows, 0)).toBe(1)
    expect(rowOfChunk(rows, 4)).toBe(3)
    expect(seekTargetOfRow(rows, 0)).toBe(0)
    expect(seekTargetOfRow(rows, 1)).toBe(2)
    expect(adapterCounts(rows)).toEqual({ empty: 1, synthesised: 2 })
  })
})

describe('windowStart', () => {
  it('holds every pair when they fit', () => {
    expect(windowStart(10, 9, 0, 20)).toBe(0)
  })
  it('keeps the window while the cursor is inside it, recentres when it leaves', () => {
    expect(windowStart(1000, 50, 0, 100)).toBe(0)
    expect(windowStart(1000, 150, 0, 100)).toBe(100)
    expect(windowStart(1000, 999, 100, 100)).toBe(900)
    expect(windowStart(1000, 5, 900, 100)).toBe(0)
    expect(windowStart(1000, -1, 300, 100)).toBe(300)
  })
})

/** Every explanation the view shows for a source's first stream, by event index. */
function explanations(text: string) {
  const attempt = loadSource(text).sessions[0]!.streams[0]!
  const rows = buildAdapterRows(attempt.wire!, attempt.chunks.length)
  const byEvent = new Map<number, { kind: string; text: string; chunks: number }>()
  for (let row = 0; row < rows.count; row++) {
    const note = explainRow(rows, row, attempt.wire!, attempt.chunks)
    if (note !== null) byEvent.set(rows.event[row]!, { ...note, chunks: rows.to[row]! - rows.from[row]! })
  }
  return { attempt, rows, byEvent }
}

/** The SSE fixtures read as chat-completions or Anthropic wires (the others are formats the harness does not speak). */
const SSE_FIXTURES = readdirSync(new URL('../../formats/fixtures/', import.meta.url)).filter((name) => {
  if (!name.endsWith('.sse')) return false
  const format = loadSource(fixture(name)).sessions[0]?.streams[0]?.wire?.format
  return format === 'openai-sse' || format === 'anthropic-sse'
})

describe('explainRow: why a raw event became no chunk', () => {
  it.each(SSE_FIXTURES)(
    '%s: every event of a chat-completions or Anthropic wire that made no chunk says why',
    (name) => {
      const { attempt, rows, byEvent } = explanations(fixture(name))
      const format = attempt.wire!.format
      if (format !== 'openai-sse' && format !== 'anthropic-sse') return
      for (let row = 0; row < rows.count; row++) {
        if (rows.event[row]! < 0 || rows.to[row] !== rows.from[row]) continue
        const event = rows.event[row]!
        const raw = attempt.wire!.text.slice(attempt.wire!.start[event], attempt.wire!.end[event])
        expect(byEvent.get(event)?.text ?? `nothing said about ${raw.slice(0, 200)}`).not.toMatch(
          /^nothing said/,
        )
      }
    },
  )

  it('a role-only first delta is metadata; the finish_reason and usage are held for [DONE] (§9)', () => {
    const { attempt, byEvent } = explanations(fixture('deepseek-reasoner-tool-calls.sse'))
    const last = attempt.wire!.count - 2 // the event before [DONE]
    expect(byEvent.get(0)).toMatchObject({ kind: 'metadata', chunks: 0 })
    expect(byEvent.get(0)!.text).toContain('role-only delta')
    expect(byEvent.get(last)).toEqual({
      kind: 'held',
      text: 'held for [DONE]: finish_reason "tool_calls" and usage remembered until [DONE]',
      chunks: 0,
    })
    // [DONE] itself made the block-ends and the finish: nothing to explain.
    expect(byEvent.has(last + 1)).toBe(false)
  })

  it.each([
    ['groq-reasoning.sse', 'delta.reasoning'],
    ['openai-refusal.sse', 'delta.refusal'],
    ['mistral-content-parts.sse', 'delta.content'],
  ])('%s: names the field the harness’s adapter does not read (%s)', (name, field) => {
    const notRead = [...explanations(fixture(name)).byEvent.values()].filter((n) => n.kind === 'not-read')
    expect(notRead.length).toBeGreaterThan(0)
    for (const note of notRead) expect(note.text).toBe(`not read by this adapter: ${field}`)
  })

  it('Anthropic: a ping is a keep-alive, message_delta is held for message_stop', () => {
    const { attempt, byEvent } = explanations(fixture('anthropic-thinking-tool-use.sse'))
    const trace = attempt.wire!
    const raw = (i: number) => trace.text.slice(trace.start[i]!, trace.end[i]!)
    const kindsOf = (type: string) =>
      [...byEvent].filter(([event]) => raw(event).startsWith(`event: ${type}`)).map(([, note]) => note.kind)
    expect(kindsOf('ping')).toEqual(['keep-alive'])
    expect(kindsOf('message_delta')).toEqual(['held'])
  })

  it('the last event with no blank line after it was never dispatched (the harness drops it)', () => {
    const { attempt, byEvent } = explanations(fixture('deepseek-trimmed-final-blank.sse'))
    expect(byEvent.get(attempt.wire!.count - 1)).toMatchObject({ kind: 'undispatched', chunks: 0 })
    expect(attempt.chunks.at(-1)?.chunk).toMatchObject({
      type: 'finish',
      reason: { failure: { code: 'STREAM_CLOSED' } },
    })
  })

  it('an event after [DONE] is dropped after the finish', () => {
    const text = `${fixture('deepseek-reasoner-tool-calls.sse').trimEnd()}\n\ndata: {"choices":[{"delta":{"content":"late"}}]}\n\n`
    const { attempt, byEvent } = explanations(text)
    expect(byEvent.get(attempt.wire!.count - 1)).toMatchObject({ kind: 'after-finish', chunks: 0 })
  })

  it('flags a delta arriving after an earlier finish_reason; the adapter still reads it into the blocks', () => {
    // The harness only remembers finish_reason until [DONE] (§9), so text after it is still assembled.
    const original = fixture('deepseek-reasoner-tool-calls.sse')
    const done = original.lastIndexOf('data: [DONE]')
    const text = `${original.slice(0, done)}data: {"choices":[{"delta":{"content":"straggling text"}}]}\n\n${original.slice(done)}`
    const { attempt, byEvent } = explanations(text)
    const late = attempt.wire!.count - 2
    const flag = byEvent.get(late)!
    expect(flag.kind).toBe('late-delta')
    expect(flag.text).toMatch(/^a delta after finish_reason \(event \d+, line \d+\)/)
    expect(flag.chunks).toBeGreaterThan(0)
    expect(
      attempt.chunks.some((c) => c.chunk.type === 'text-delta' && c.chunk.text === 'straggling text'),
    ).toBe(true)
    // Deltas before the finish_reason are not flagged.
    expect([...byEvent.values()].filter((n) => n.kind === 'late-delta')).toHaveLength(1)
  })
})
