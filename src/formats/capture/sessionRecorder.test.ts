import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { compareRecorded, type Session } from '../../core/session'
import { MOCK_SCENARIOS, mockScript, type MockScenario } from '../../test/mockUpstream'
import type { FeedCapture, FeedRecord } from '../live/feedProtocol'
import { loadSource } from '../load'
import { httpFailure } from '../sse/httpFailure'
import { SessionRecorder, type RecorderOptions } from './sessionRecorder'

type Recorded = {
  recorder: SessionRecorder
  appended: FeedRecord[]
  published: FeedRecord[]
  summaries: FeedCapture[]
  /** Every append and publish in call order, by seq (`H` for the header). */
  trace: string[]
}

function recorder(overrides: Partial<RecorderOptions> = {}): Recorded {
  const appended: FeedRecord[] = []
  const published: FeedRecord[] = []
  const summaries: FeedCapture[] = []
  const trace: string[] = []
  const label = (record: FeedRecord) => (record['type'] === 'session' ? 'H' : String(record['seq']))
  let clock = 1_000
  const made = new SessionRecorder({
    id: 'cap-1',
    kind: 'browser',
    title: 'mock · 127.0.0.1',
    model: 'mock-model',
    header: { chunkscopeBrowser: { url: 'http://127.0.0.1/chat/completions' } },
    sink: {
      append: async (record) => {
        await new Promise((resolve) => setTimeout(resolve, 0))
        appended.push(record)
        trace.push(`append ${label(record)}`)
      },
    },
    publish: (record) => {
      published.push(record)
      trace.push(`publish ${label(record)}`)
    },
    onSummary: (summary) => summaries.push(summary),
    now: () => (clock += 1),
    ...overrides,
  })
  return { recorder: made, appended, published, summaries, trace }
}

const jsonl = (records: readonly FeedRecord[]) => records.map((r) => JSON.stringify(r) + '\n').join('')

function load(records: readonly FeedRecord[]): Session {
  const source = loadSource(jsonl(records), 'capture.jsonl')
  expect(source.format).toBe('dsh-session-jsonl')
  expect(source.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  return source.sessions[0]!
}

/** Feeds one scripted response to the current attempt the way a client sees it. */
function play(target: SessionRecorder, scenario: MockScenario): void {
  const script = mockScript(scenario)
  if (script.status >= 400) {
    target.failAttempt(httpFailure(script.status, script.headers, script.pieces.join('')))
    return
  }
  const bytes = new TextEncoder().encode(script.pieces.join(''))
  // Cut at odd places, as a network delivers it (a multi-byte character split across reads included).
  for (let at = 0; at < bytes.length; at += 7) target.pushBytes(bytes.subarray(at, at + 7))
  target.endBody()
}

const EXPECTED: Record<MockScenario, { finish: string; code?: string; turnEnd: string; message: boolean }> = {
  text: { finish: 'stop', turnEnd: 'completed', message: true },
  reasoning: { finish: 'stop', turnEnd: 'completed', message: true },
  'tool-calls': { finish: 'tool-calls', turnEnd: 'completed', message: true },
  'rate-limit': { finish: 'error', code: 'RATE_LIMIT', turnEnd: 'error', message: false },
  'server-error': { finish: 'error', code: 'SERVER', turnEnd: 'error', message: false },
  unauthorized: { finish: 'error', code: 'AUTH', turnEnd: 'error', message: false },
  drip: { finish: 'stop', turnEnd: 'completed', message: true },
  disconnect: { finish: 'error', code: 'STREAM_CLOSED', turnEnd: 'error', message: false },
  malformed: { finish: 'error', code: 'MALFORMED_RESPONSE', turnEnd: 'error', message: false },
  length: { finish: 'max-tokens', turnEnd: 'max-tokens', message: true },
}

describe('SessionRecorder', () => {
  it.each(MOCK_SCENARIOS)(
    '%s: one attempt that loads back with its finish, code and message',
    async (scenario) => {
      const { recorder: r, appended, published, summaries } = recorder()
      play(r, scenario)
      const final = await r.end()
      const expected = EXPECTED[scenario]
      expect(published).toEqual(appended)
      const session = load(appended)
      expect(session.header?.raw['chunkscopeBrowser']).toEqual({ url: 'http://127.0.0.1/chat/completions' })
      expect(session.streams).toHaveLength(1)
      const attempt = session.streams[0]!
      expect(attempt.id).toBe('t1.s1.a1')
      const result = analyzeStream(attempt.chunks)
      expect(result.finish.kind).toBe(expected.finish)
      expect(result.finish).toMatchObject(
        expected.code !== undefined ? { failure: { code: expected.code } } : { kind: expected.finish },
      )
      expect(session.turns[0]!.end?.reason).toMatchObject({ kind: expected.turnEnd })
      expect(attempt.recorded !== null).toBe(expected.message)
      expect(compareRecorded(attempt)?.match ?? 'no message').toBe(expected.message ? true : 'no message')
      expect(final).toMatchObject({
        id: 'cap-1',
        kind: 'browser',
        state: expected.finish === 'error' ? 'error' : 'completed',
        chunks: attempt.chunks.length,
        finish: result.finish,
      })
      expect(summaries.at(-1)).toEqual(final)
      expect(summaries[0]).toMatchObject({ state: 'streaming', chunks: 0, finish: null })
    },
  )

  it('stamps each chunk with its receive time and never packs (records are written as they arrive)', async () => {
    const { recorder: r, appended } = recorder()
    play(r, 'drip')
    await r.end()
    const chunks = appended.filter((record) => record['type'] === 'assistant/chunk')
    expect(chunks.length).toBeGreaterThan(20)
    const times = chunks.map((record) => record['time'] as number)
    expect(new Set(times).size).toBe(times.length)
  })

  it('appends every record before it is published, one append at a time, in seq order', async () => {
    const { recorder: r, trace, appended } = recorder()
    play(r, 'reasoning')
    await r.end()
    const published = trace.filter((entry) => entry.startsWith('publish '))
    expect(published).toHaveLength(appended.length)
    const late = published.filter(
      (entry) => trace.indexOf(entry.replace('publish', 'append')) > trace.indexOf(entry),
    )
    expect(late).toEqual([])
    const seqs = appended.slice(1).map((record) => record['seq'])
    expect(seqs).toEqual(seqs.map((_, i) => i))
  })

  it('batches records that piled up behind a slow append through appendMany, still in order', async () => {
    const batches: number[] = []
    const appended: FeedRecord[] = []
    const { recorder: r, published } = recorder({
      sink: {
        append: async (record) => void appended.push(record),
        appendMany: async (records) => {
          batches.push(records.length)
          appended.push(...records)
        },
      },
    })
    play(r, 'drip')
    await r.end()
    expect(batches.length).toBeGreaterThan(0)
    expect(published).toEqual(appended)
    load(appended)
  })

  it('a retry is a new attempt of the same step: llm/retry, llm/retry-started, then the next attempt', async () => {
    const { recorder: r, appended } = recorder()
    play(r, 'rate-limit')
    const failure = (r.attemptFinish as { failure: { providerRetryAfterMs?: number } }).failure
    expect(failure.providerRetryAfterMs).toBe(2000)
    r.retry({ delayMs: 2000, maxRetries: 5, failure: failure as never })
    r.startRetry()
    play(r, 'text')
    await r.end()
    const retry = appended.find((record) => record['type'] === 'llm/retry')!
    expect(retry['data']).toMatchObject({
      retryId: 'cap-1-retry-1',
      turn: 1,
      step: 1,
      retry: 1,
      delayMs: 2000,
    })
    expect(appended.find((record) => record['type'] === 'llm/retry-started')!['data']).toEqual({
      retryId: 'cap-1-retry-1',
      turn: 1,
      step: 1,
      retry: 1,
    })
    const session = load(appended)
    expect(session.turns).toHaveLength(1)
    expect(session.turns[0]!.steps).toHaveLength(1)
    const [first, second] = session.turns[0]!.steps[0]!.attempts
    expect(first!.kind).toBe('first')
    expect(second!.kind).toBe('retry')
    expect(second!.retryId).toBe('cap-1-retry-1')
    expect(first!.recorded).toBeNull()
    expect(compareRecorded(second!)?.match).toBe(true)
    expect(second!.recorded!.sourceEventSeqs).toEqual(second!.chunks.map((c) => c.seq))
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'completed' })
  })

  it('Stop mid-stream: a finish aborted chunk, an interrupted message with what arrived, turn/end aborted', async () => {
    const { recorder: r, appended, summaries } = recorder()
    const pieces = mockScript('drip').pieces
    r.pushText(pieces.slice(0, 5).join(''))
    const final = await r.abort()
    expect(final.state).toBe('aborted')
    expect(summaries.at(-1)?.finish).toEqual({
      kind: 'aborted',
      failure: { message: 'stopped by the user', code: 'ABORTED' },
    })
    const session = load(appended)
    const attempt = session.streams[0]!
    expect(attempt.chunks.at(-1)!.chunk).toEqual({
      type: 'finish',
      reason: { kind: 'aborted', failure: { message: 'stopped by the user', code: 'ABORTED' } },
    })
    expect(attempt.recorded?.interrupted).toBe(true)
    expect(attempt.recorded?.content).toEqual([{ type: 'text', text: 'w0 w1 w2 w3 ' }])
    expect(compareRecorded(attempt)?.match).toBe(true)
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'aborted', reason: { kind: 'user' } })
  })

  it('Stop before any text: no message; Stop during a retry wait adds no chunk', async () => {
    const early = recorder()
    await early.recorder.abort()
    const session = load(early.appended)
    expect(session.streams[0]!.chunks).toHaveLength(1)
    expect(session.messages).toEqual([])

    const waiting = recorder()
    play(waiting.recorder, 'server-error')
    waiting.recorder.retry({ delayMs: 500, failure: { message: 'x', code: 'SERVER' } })
    const final = await waiting.recorder.abort()
    expect(final.state).toBe('aborted')
    const types = waiting.appended.map((record) => record['type'])
    expect(types.slice(-3)).toEqual(['llm/retry', 'step/end', 'turn/end'])
    expect(load(waiting.appended).turns[0]!.end?.reason).toEqual({
      kind: 'aborted',
      reason: { kind: 'user' },
    })
  })

  it('a failing sink is reported once; records are still published and the capture ends', async () => {
    const errors: unknown[] = []
    const { recorder: r, published } = recorder({
      sink: { append: () => Promise.reject(new Error('quota')) },
      onSinkError: (error) => errors.push(error),
    })
    play(r, 'text')
    const final = await r.end()
    expect(errors).toHaveLength(1)
    expect(final.state).toBe('completed')
    expect(load(published).streams[0]!.recorded).not.toBeNull()
  })
})
