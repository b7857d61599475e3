import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AnyChunk } from '../../core/protocol'
import { ReplayEngine } from '../../core/ReplayEngine'
import { buildStreamSession } from '../../core/session'
import { anyStream, knownStream, oddStream } from '../../test/arbitraries'
import { bs, be, finish, sourced, td, text, usage } from '../../test/chunks'
import type { LoadedSource } from '../types'
import { buildSharePayload, openSharePayload } from './payload'

/**
 * A window link of `chunks` [from, to) with the cursor at `k`, opened as the page opens one: the engine over what
 * it carries, or the opener's error.
 */
function openWindow(chunks: readonly AnyChunk[], from: number, to: number, k: number) {
  const session = buildStreamSession(sourced(chunks))
  const source: LoadedSource = { format: 'chunk-json', diagnostics: [], sessions: [session] }
  const attempt = session.streams[0]!
  const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k }, { window: { from, to } })
  const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
  if ('error' in opened) return opened
  const shared = opened.source.sessions[0]!.streams[0]!
  return new ReplayEngine(shared.chunks, {
    ...(opened.initialState !== null ? { initialState: opened.initialState } : {}),
    ...(shared.window !== undefined ? { outside: shared.window } : {}),
  })
}

/** The window link's findings, every field, in order, at the stream's positions. */
function windowFindings(chunks: readonly AnyChunk[], from: number, to: number) {
  const engine = openWindow(chunks, from, to, from)
  if ('error' in engine) return engine
  return engine.findings.map((finding) => ({ ...finding, pos: finding.pos + from }))
}

function wholeFindings(chunks: readonly AnyChunk[]) {
  return new ReplayEngine(sourced(chunks)).findings
}

// A window link promises the whole stream's findings (docs/protocol.md §14): those of its own chunks found again
// from the carried state, every other one carried, all with the values a translated message is made of (§5).
describe('a window link keeps every finding of the whole stream', () => {
  it('a finding before the window keeps its params', () => {
    const chunks = [bs(0, 'text'), bs(1, 'text'), td(1, 'hi'), be(1, text('hi')), be(0, text(''))]
    expect(wholeFindings(chunks)[0]!.params).toEqual({ index: '1', count: 1, blocks: '0', more: 'no' })
    expect(windowFindings(chunks, 3, 5)).toEqual(wholeFindings(chunks))
  })

  it('a block that took only empty deltas before the window still mismatches its block-end', () => {
    // Anthropic's tool_use opens with an empty input_json_delta; its block-end then differs from ''.
    const chunks = [bs(0, 'text'), td(0, ''), be(0, text('hi')), finish('stop'), usage(1, 1)]
    expect(wholeFindings(chunks).map((f) => f.rule)).toContain('end-content-mismatch')
    expect(windowFindings(chunks, 2, 3)).toEqual(wholeFindings(chunks))
  })

  it('a block a delta opened before the window is not held open by a finish inside it', () => {
    const chunks = [td(0, 'a'), usage(1, 1), finish('stop')]
    expect(wholeFindings(chunks).map((f) => f.rule)).not.toContain('finish-open-blocks')
    expect(windowFindings(chunks, 2, 3)).toEqual(wholeFindings(chunks))
  })

  it('usage counted before the window numbers the duplicates inside it', () => {
    const chunks = [usage(1, 1), usage(2, 2), usage(3, 3), finish('stop')]
    expect(windowFindings(chunks, 2, 3)).toEqual(wholeFindings(chunks))
  })

  it('a window after a tool call with an id that is not a string opens', () => {
    const chunks: AnyChunk[] = [
      { type: 'tool-call-delta', index: 0, id: 0, argumentsDelta: '{}' },
      td(1, 'x'),
    ]
    expect(windowFindings(chunks, 1, 2)).toEqual(wholeFindings(chunks))
  })

  it('holds for random streams and every window', () => {
    const stream = fc.oneof(knownStream, anyStream(20), oddStream)
    fc.assert(
      fc.property(stream, fc.nat(), fc.nat(), (chunks, a, b) => {
        const from = a % (chunks.length + 1)
        const to = from + (b % (chunks.length - from + 1))
        expect(windowFindings(chunks, from, to)).toEqual(wholeFindings(chunks))
      }),
      { numRuns: 400 },
    )
  })
})

describe('a window link names the chunk whose push threw', () => {
  /** The window link with the cursor at its end; a link that does not open fails the test. */
  const openAtEnd = (chunks: readonly AnyChunk[], from: number, to: number) => {
    const engine = openWindow(chunks, from, to, to)
    if ('error' in engine) throw new Error(engine.error)
    return engine
  }
  // An unknown chunk type makes the harness's push throw (docs/protocol.md §3).
  const chunks: AnyChunk[] = [
    td(0, 'a'),
    td(0, 'b'),
    { type: 'video-delta', index: 0 },
    td(0, 'c'),
    td(0, 'd'),
  ]
  const whole = new ReplayEngine(sourced(chunks))

  it('after the window: at the end', () => {
    const windowed = openAtEnd(chunks, 0, 1)
    expect(windowed.result.errorPos).toBe(whole.result.errorPos)
    expect(windowed.seqAt(windowed.result.errorPos!)).toBe(whole.seqAt(whole.result.errorPos!))
  })

  it('before the window: at every cursor and at the end', () => {
    const windowed = openAtEnd(chunks, 4, 5)
    expect(windowed.result.errorPos! + 4).toBe(whole.result.errorPos)
    expect(windowed.seek(1).errorPos! + 4).toBe(whole.seek(5).errorPos)
    expect(windowed.seqAt(windowed.result.errorPos!)).toBe(whole.seqAt(whole.result.errorPos!))
  })
})
