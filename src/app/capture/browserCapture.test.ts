import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { compareRecorded, type Session } from '../../core/session'
import type { FeedCapture, FeedRecord } from '../../formats/live/feedProtocol'
import { loadSource } from '../../formats/load'
import {
  MOCK_SCENARIOS,
  type MockScenario,
  startMockUpstream,
  type MockUpstream,
} from '../../test/mockUpstream'
import {
  isNoResponseFailure,
  noResponseFailure,
  proxyCommand,
  startBrowserCapture,
  type BrowserCaptureOptions,
} from './browserCapture'
import { buildChatRequest, type ChatForm } from './chatRequest'
import { retryPolicy } from './retryPolicy'

const SECRET = 'sk-chunkscope-BROWSER-SECRET-9191'
let mock: MockUpstream

beforeAll(async () => {
  mock = await startMockUpstream({ cors: true })
})

afterAll(async () => {
  await mock?.close()
})

afterEach(() => {
  vi.restoreAllMocks()
})

function form(model: string, base = mock.url): ChatForm {
  return {
    baseUrl: base,
    model,
    apiKey: SECRET,
    systemPrompt: 'Be brief.',
    messages: [{ role: 'user', content: 'Hello?' }],
    tools: '',
    maxTokens: '',
    temperature: null,
    reasoningEffort: null,
  }
}

type Run = {
  appended: FeedRecord[]
  published: FeedRecord[]
  summaries: FeedCapture[]
  sleeps: number[]
  trace: string[]
}

function options(run: Run, extra: Partial<BrowserCaptureOptions> = {}): BrowserCaptureOptions {
  let n = 0
  return {
    id: `browser-${Math.random().toString(36).slice(2)}`,
    sink: {
      append: async (record) => {
        await Promise.resolve()
        run.appended.push(record)
        run.trace.push(`append ${n++}`)
      },
    },
    publish: (record) => {
      run.published.push(record)
      run.trace.push(`publish ${run.published.length - 1}`)
    },
    onSummary: (summary) => run.summaries.push(summary),
    sleep: async (ms) => void run.sleeps.push(ms),
    random: () => 0.5,
    ...extra,
  }
}

const newRun = (): Run => ({ appended: [], published: [], summaries: [], sleeps: [], trace: [] })

function load(records: readonly FeedRecord[]): Session {
  const text = records.map((record) => JSON.stringify(record) + '\n').join('')
  const source = loadSource(text, 'browser.jsonl')
  expect(source.format).toBe('dsh-session-jsonl')
  expect(source.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  return source.sessions[0]!
}

async function capture(model: string, extra: Partial<BrowserCaptureOptions> = {}) {
  const run = newRun()
  const started = startBrowserCapture(form(model), options(run, extra))
  const final = await started.done
  return { run, final, session: load(run.appended), started }
}

const EXPECTED: Record<MockScenario, { finish: string; code?: string; attempts: number }> = {
  text: { finish: 'stop', attempts: 1 },
  reasoning: { finish: 'stop', attempts: 1 },
  'tool-calls': { finish: 'tool-calls', attempts: 1 },
  'rate-limit': { finish: 'error', code: 'RATE_LIMIT', attempts: 6 },
  'server-error': { finish: 'error', code: 'SERVER', attempts: 6 },
  unauthorized: { finish: 'error', code: 'AUTH', attempts: 1 },
  drip: { finish: 'stop', attempts: 1 },
  disconnect: { finish: 'error', code: 'STREAM_CLOSED', attempts: 1 },
  malformed: { finish: 'error', code: 'MALFORMED_RESPONSE', attempts: 1 },
  length: { finish: 'max-tokens', attempts: 1 },
}

// The mock counts requests per model name: each sequence below is used by one test only.
describe('startBrowserCapture against the mock upstream', () => {
  it.each(MOCK_SCENARIOS)('%s: the attempts, finish and recorded message load back', async (scenario) => {
    const { run, final, session } = await capture(`mock-${scenario}`)
    const expected = EXPECTED[scenario]
    expect(run.published).toEqual(run.appended)
    const attempts = session.turns[0]!.steps[0]!.attempts
    expect(attempts).toHaveLength(expected.attempts)
    const last = attempts.at(-1)!
    const result = analyzeStream(last.chunks)
    expect(result.finish.kind).toBe(expected.finish)
    expect(result.finish).toMatchObject(
      expected.code !== undefined ? { failure: { code: expected.code } } : { kind: expected.finish },
    )
    const messaged = expected.finish !== 'error'
    expect(compareRecorded(last)?.match ?? 'no message').toBe(messaged ? true : 'no message')
    expect(final).toMatchObject({
      kind: 'browser',
      state: expected.finish === 'error' ? 'error' : 'completed',
    })
    expect(session.header?.raw['chunkscopeBrowser']).toMatchObject({ url: `${mock.url}/chat/completions` })
  })

  it('sends the built request: POST, stream with usage, the key as a Bearer header', async () => {
    const before = mock.requests.length
    await capture('mock-text')
    const request = mock.requests[before]!
    expect(request.method).toBe('POST')
    expect(request.url).toBe('/chat/completions')
    expect(request.headers.authorization).toBe(`Bearer ${SECRET}`)
    expect(JSON.parse(request.body)).toEqual({
      model: 'mock-text',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    })
  })

  it('429 then text: two attempts of one step, llm/retry with the Retry-After delay', async () => {
    const { run, session, final } = await capture('mock-rate-limit,text')
    expect(run.sleeps).toEqual([2000])
    const retry = run.appended.find((record) => record['type'] === 'llm/retry')!
    expect(retry['data']).toMatchObject({
      retry: 1,
      maxRetries: 5,
      delayMs: 2000,
      failure: { code: 'RATE_LIMIT', status: 429, providerRetryAfterMs: 2000, requestId: 'req_mock_429' },
    })
    const attempts = session.turns[0]!.steps[0]!.attempts
    expect(attempts.map((attempt) => attempt.kind)).toEqual(['first', 'retry'])
    expect(compareRecorded(attempts[1]!)?.match).toBe(true)
    expect(final.state).toBe('completed')
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'completed' })
  })

  it('500 until the retries run out: 6 attempts, backoff 500 ms × 2^(n−1), turn/end error', async () => {
    const { run, session, final } = await capture('mock-server-error')
    expect(run.sleeps).toEqual([500, 1000, 2000, 4000, 8000])
    expect(session.turns[0]!.steps[0]!.attempts).toHaveLength(6)
    expect(run.appended.filter((record) => record['type'] === 'llm/retry-started')).toHaveLength(5)
    expect(session.turns[0]!.end?.reason).toMatchObject({ kind: 'error', error: { code: 'SERVER' } })
    expect(final.state).toBe('error')
  })

  it('401: no retry, AUTH', async () => {
    const { run, session } = await capture('mock-unauthorized')
    expect(run.sleeps).toEqual([])
    expect(session.streams).toHaveLength(1)
    expect(session.turns[0]!.end?.reason).toMatchObject({ kind: 'error', error: { code: 'AUTH' } })
  })

  it('policy off: one attempt', async () => {
    const { run, session } = await capture('mock-rate-limit,reasoning', { policy: 'off' })
    expect(run.sleeps).toEqual([])
    expect(session.streams).toHaveLength(1)
    expect(session.turns[0]!.end?.reason).toMatchObject({ kind: 'error', error: { code: 'RATE_LIMIT' } })
  })

  it('a configured policy: two retries on SERVER only', async () => {
    const policy = retryPolicy({ maxRetries: 2, baseMs: 100, jitter: 0, codes: ['SERVER'] })
    const { run, session } = await capture('mock-server-error', { policy })
    expect(run.sleeps).toEqual([100, 200])
    expect(session.streams).toHaveLength(3)
  })

  it('a stream silent past the idle timeout fails TIMEOUT and is retried per policy', async () => {
    const policy = retryPolicy({ maxRetries: 1, baseMs: 10, jitter: 0, codes: ['TIMEOUT'] })
    const { run, session } = await capture('mock-drip:delay=400:events=5', { policy, idleTimeoutMs: 150 })
    expect(run.sleeps).toEqual([10])
    expect(session.streams).toHaveLength(2)
    for (const stream of session.streams) {
      const result = analyzeStream(stream.chunks)
      expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'TIMEOUT' } })
    }
    expect(session.turns[0]!.end?.reason).toMatchObject({ kind: 'error', error: { code: 'TIMEOUT' } })
    // The cut-off attempts went away from the endpoint: it saw the client close before its drip ended.
    expect(await mock.requests.at(-1)!.closed).toBe('client-closed')
  })

  it('Stop mid-drip: aborted at once, the chunks so far kept, an interrupted message', async () => {
    const run = newRun()
    const started = startBrowserCapture(form('mock-drip:delay=20:events=400'), options(run))
    await vi.waitUntil(() => run.published.filter((r) => r['type'] === 'assistant/chunk').length >= 4, {
      timeout: 5000,
      interval: 5,
    })
    started.stop()
    const final = await started.done
    expect(final.state).toBe('aborted')
    const session = load(run.appended)
    const attempt = session.streams[0]!
    expect(attempt.chunks.length).toBeGreaterThanOrEqual(4)
    expect(attempt.chunks.at(-1)!.chunk).toMatchObject({ type: 'finish', reason: { kind: 'aborted' } })
    expect(attempt.recorded?.interrupted).toBe(true)
    expect(compareRecorded(attempt)?.match).toBe(true)
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'aborted', reason: { kind: 'user' } })
    expect(await mock.requests.at(-1)!.closed).toBe('client-closed')
  })

  it('Stop during a retry wait ends at once, aborted', async () => {
    const run = newRun()
    let waiting: () => void = () => {}
    const waited = new Promise<void>((resolve) => (waiting = resolve))
    const started = startBrowserCapture(
      form('mock-server-error'),
      options(run, {
        sleep: (_ms, signal) => {
          waiting()
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve()))
        },
      }),
    )
    await waited
    started.stop()
    const final = await started.done
    expect(final.state).toBe('aborted')
    const session = load(run.appended)
    expect(session.streams).toHaveLength(1)
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'aborted', reason: { kind: 'user' } })
  })

  it('publishes a record only after its append resolved', async () => {
    const { run } = await capture('mock-reasoning')
    const published = run.trace.filter((entry) => entry.startsWith('publish '))
    expect(published).toHaveLength(run.appended.length)
    const late = published.filter(
      (entry) => run.trace.indexOf(entry.replace('publish', 'append')) > run.trace.indexOf(entry),
    )
    expect(late).toEqual([])
    expect(run.summaries.some((summary) => summary.state === 'streaming' && summary.chunks > 0)).toBe(true)
  })

  it('no response (CORS refusal or unreachable): TRANSPORT with the proxy hint, retried per policy', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const base = `http://127.0.0.1:${port}/v1`
    const run = newRun()
    const final = await startBrowserCapture(form('mock-text', base), options(run)).done
    expect(final.state).toBe('error')
    expect(isNoResponseFailure(final.finish)).toBe(true)
    const failure = (final.finish as { failure: { message: string } }).failure
    expect(failure.message).toContain(`http://127.0.0.1:${port}`)
    expect(failure.message).toContain('CORS')
    expect(failure.message).toContain('chunkscope proxy')
    expect(run.sleeps).toHaveLength(5)
    // The hint shows as soon as the first attempt failed, while the retries wait.
    expect(run.summaries.find((summary) => isNoResponseFailure(summary.finish))?.state).toBe('streaming')
    expect(isNoResponseFailure({ code: 'TRANSPORT', message: 'socket hang up' })).toBe(false)
  })

  it('the hint for a remote endpoint is to run the proxy in front of it', () => {
    const failure = noResponseFailure({
      url: 'https://api.deepseek.com/v1/chat/completions',
      baseUrl: 'https://api.deepseek.com/v1',
    })
    expect(failure.message).toContain('No response from https://api.deepseek.com: ')
    expect(failure.message).toContain(proxyCommand('https://api.deepseek.com/v1'))
    expect(isNoResponseFailure(failure)).toBe(true)
  })

  it('a 400 from the endpoint surfaces as INVALID_REQUEST with its own message', async () => {
    const { session } = await capture('not-a-mock-scenario')
    expect(session.turns[0]!.end?.reason).toMatchObject({
      kind: 'error',
      error: { code: 'INVALID_REQUEST', message: 'unknown mock scenario' },
    })
  })

  it('keeps the API key out of every record, summary, message and console line', async () => {
    const logged: string[] = []
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')))
    const outputs: unknown[] = []
    for (const scenario of ['rate-limit,length', 'unauthorized', 'malformed', 'drip:events=3']) {
      const { run, final } = await capture(`mock-${scenario}`)
      outputs.push(run.appended, run.published, run.summaries, final)
    }
    const noResponse = newRun()
    outputs.push(await startBrowserCapture(form('x', 'http://127.0.0.1:1'), options(noResponse)).done)
    outputs.push(noResponse.appended)
    const text = JSON.stringify(outputs) + logged.join('\n')
    expect(text).toContain('chunkscopeBrowser')
    expect(text).not.toContain(SECRET)
    expect(text.toLowerCase()).not.toContain('authorization')
    const built = buildChatRequest(form('mock-text'))
    expect(built.ok && JSON.stringify(built.body)).not.toContain(SECRET)
  })
})
