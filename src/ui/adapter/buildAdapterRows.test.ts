import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { wireEventOfChunk } from '../../formats/wire'
import { adapterCounts, buildAdapterRows, rowOfChunk, seekTargetOfRow, windowStart } from './buildAdapterRows'

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
