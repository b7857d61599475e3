// A scripted OpenAI-compatible upstream for tests and benches: Node http, loopback only, no dependencies.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted response: status, headers, the body's pieces (written one by one) and how it ends. */
export type MockScript = {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** Written in order, `delayMs` apart (the first right after the head). */
  readonly pieces: readonly string[]
  readonly delayMs: number
  /** Destroy the socket after the pieces instead of ending the response (a mid-stream disconnect). */
  readonly disconnect: boolean
}

export type MockScenario =
  | 'text'
  | 'reasoning'
  | 'tool-calls'
  | 'rate-limit'
  | 'server-error'
  | 'unauthorized'
  | 'drip'
  | 'disconnect'
  | 'malformed'
  | 'length'

export const MOCK_SCENARIOS: readonly MockScenario[] = [
  'text',
  'reasoning',
  'tool-calls',
  'rate-limit',
  'server-error',
  'unauthorized',
  'drip',
  'disconnect',
  'malformed',
  'length',
]

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }
const JSON_HEADERS = { 'content-type': 'application/json' }

function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const body = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'mock-model',
    choices: [{ index: 0, delta, finish_reason: null, ...extra }],
  }
  return `data: ${JSON.stringify(body)}\n\n`
}

function finish(
  reason: string,
  usage: Record<string, unknown> = { prompt_tokens: 12, completion_tokens: 5 },
): string {
  const body = {
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'mock-model',
    choices: [{ index: 0, delta: { content: '' }, finish_reason: reason }],
    usage,
  }
  return `data: ${JSON.stringify(body)}\n\n`
}

const DONE = 'data: [DONE]\n\n'

const sse = (pieces: string[], delayMs = 0, disconnect = false): MockScript => ({
  status: 200,
  headers: SSE_HEADERS,
  pieces,
  delayMs,
  disconnect,
})

const error = (status: number, message: string, headers: Record<string, string> = {}): MockScript => ({
  status,
  headers: { ...JSON_HEADERS, 'x-request-id': `req_mock_${status}`, ...headers },
  pieces: [JSON.stringify({ error: { message, type: 'mock_error' } })],
  delayMs: 0,
  disconnect: false,
})

/** Options a request may set through headers: `x-mock-delay-ms` and `x-mock-events` (drip, disconnect). */
export type ScenarioOptions = { readonly delayMs?: number; readonly events?: number }

/**
 * The wire of each scenario, as data: what the mock writes, byte for byte (tests compare against it).
 *
 * @example
 * mockScript('text').pieces.join('') // 'data: {…"content":"Hello"…}\n\n…data: [DONE]\n\n'
 */
export function mockScript(scenario: MockScenario, options: ScenarioOptions = {}): MockScript {
  const delayMs = options.delayMs ?? 0
  switch (scenario) {
    case 'text':
      return sse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hello' }),
        chunk({ content: ', wor' }),
        chunk({ content: 'ld — ✓' }),
        finish('stop'),
        DONE,
      ])
    case 'reasoning':
      return sse([
        chunk({ role: 'assistant', reasoning_content: 'Think' }),
        chunk({ reasoning_content: 'ing…' }),
        chunk({ content: 'The answer' }),
        chunk({ content: ' is 42.' }),
        finish('stop', {
          prompt_tokens: 30,
          completion_tokens: 9,
          completion_tokens_details: { reasoning_tokens: 4 },
        }),
        DONE,
      ])
    case 'tool-calls':
      return sse([
        chunk({ role: 'assistant', content: 'Checking.' }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_00_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
            { index: 1, id: 'call_01_b', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city"' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '{"tz":"UTC"}' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ': "Paris"}' } }] }),
        finish('tool_calls'),
        DONE,
      ])
    case 'rate-limit':
      return error(429, 'Rate limit reached, slow down', { 'retry-after': '2' })
    case 'server-error':
      return error(500, 'The server had an error while processing your request')
    case 'unauthorized':
      return error(401, 'Incorrect API key provided')
    case 'drip': {
      const count = options.events ?? 20
      const pieces = [chunk({ role: 'assistant', content: '' })]
      for (let i = 0; i < count; i++) pieces.push(chunk({ content: `w${i} ` }))
      pieces.push(finish('stop'), DONE)
      return sse(pieces, delayMs)
    }
    case 'disconnect': {
      const count = options.events ?? 3
      const pieces = [chunk({ role: 'assistant', content: '' })]
      for (let i = 0; i < count; i++) pieces.push(chunk({ content: `part${i} ` }))
      return sse(pieces, delayMs, true)
    }
    case 'malformed':
      return sse([
        chunk({ role: 'assistant', content: 'Fine so far' }),
        'data: {"id":"chatcmpl-mock","choices":[{"delta":{"content":"oops"}\n\n',
        chunk({ content: 'never read' }),
        finish('stop'),
        DONE,
      ])
    case 'length':
      return sse([
        chunk({ role: 'assistant', content: 'A long answer that' }),
        chunk({ content: ' gets cut' }),
        finish('length', { prompt_tokens: 8, completion_tokens: 16 }),
        DONE,
      ])
  }
}

/** What the mock saw of one request. `closed` settles when the response ended or the client went away. */
export type MockRequest = {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly scenario: MockScenario | null
  /** `finished`: the mock wrote everything; `client-closed`: the connection closed before that. */
  readonly closed: Promise<'finished' | 'client-closed' | 'disconnected'>
  /** `performance.now()` when each piece was written (benches measure latency against it). */
  readonly writes: number[]
}

export type MockUpstream = {
  /** `http://127.0.0.1:<port>` (no trailing slash); POST `${url}/chat/completions`. */
  readonly url: string
  readonly requests: MockRequest[]
  close(): Promise<void>
}

/** One step of a model-name script: a scenario and its options. */
export type MockStep = { readonly scenario: MockScenario; readonly options: ScenarioOptions }

/**
 * A model name (or `x-mock-scenario` value) as a script, since the browser form only sets a model: `mock-` prefix
 * optional, steps separated by `,` (request n of that exact name plays step n, the last one repeats), options after
 * `:` as `delay=<ms>` and `events=<n>`. Null when a step names no scenario or an option is unreadable.
 *
 * @example
 * parseMockModel('mock-rate-limit,text') // [{scenario:'rate-limit',options:{}}, {scenario:'text',options:{}}]
 * parseMockModel('mock-drip:delay=150:events=40') // [{scenario:'drip', options:{delayMs:150, events:40}}]
 */
export function parseMockModel(name: string): MockStep[] | null {
  const steps: MockStep[] = []
  for (const part of name.replace(/^mock-/, '').split(',')) {
    const [scenario, ...settings] = part.trim().split(':')
    if (!(MOCK_SCENARIOS as readonly string[]).includes(scenario ?? '')) return null
    const options: { delayMs?: number; events?: number } = {}
    for (const setting of settings) {
      const match = /^(delay|events)=(\d+)$/.exec(setting.trim())
      if (match === null) return null
      if (match[1] === 'delay') options.delayMs = Number(match[2])
      else options.events = Number(match[2])
    }
    steps.push({ scenario: scenario as MockScenario, options })
  }
  return steps
}

/** The script a request names: header `x-mock-scenario`, else the body's `model` (see {@link parseMockModel}). */
export function scriptOf(
  headers: IncomingHttpHeaders,
  body: string,
): { name: string; steps: MockStep[] } | null {
  const header = headers['x-mock-scenario']
  let name = typeof header === 'string' ? header : ''
  if (name === '') {
    try {
      const model = (JSON.parse(body) as { model?: unknown }).model
      if (typeof model === 'string') name = model
    } catch {
      return null
    }
  }
  const steps = parseMockModel(name)
  return steps === null ? null : { name, steps }
}

/** The (first) scenario a request asks for: header `x-mock-scenario`, else the body's `model` (`mock-<scenario>` or bare). */
export function scenarioOf(headers: IncomingHttpHeaders, body: string): MockScenario | null {
  return scriptOf(headers, body)?.steps[0]?.scenario ?? null
}

export type MockUpstreamOptions = {
  /**
   * Answer CORS as a browser-friendly endpoint does: OPTIONS preflights get 204 with Access-Control-Allow-Origin
   * (the request's Origin), -Methods POST and -Headers authorization, content-type; every response carries
   * Access-Control-Allow-Origin and -Expose-Headers retry-after, x-request-id. Off by default, so a browser test sees
   * a CORS refusal.
   */
  readonly cors?: boolean
}

const CORS_EXPOSE = 'retry-after, retry-after-ms, x-request-id'
const CORS_ALLOW_HEADERS = 'authorization, content-type, x-mock-scenario, x-mock-delay-ms, x-mock-events'

function corsHeaders(origin: string | undefined): Record<string, string> {
  return {
    'access-control-allow-origin': origin ?? '*',
    'access-control-expose-headers': CORS_EXPOSE,
    vary: 'Origin',
  }
}

/**
 * Starts the mock on 127.0.0.1, an ephemeral port. POST …/chat/completions plays the request's scenario (unknown →
 * 400); anything else is 404. A model naming a sequence (`mock-rate-limit,text`) plays its steps over successive
 * requests with that exact name. Timers stop when a client goes away, so a test never leaves work behind.
 */
export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const requests: MockRequest[] = []
  /** Requests seen per script name: which step the next one plays. */
  const played = new Map<string, number>()
  const server = createServer((req, res) => {
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined
    if (options.cors === true) {
      const cors = corsHeaders(origin)
      if (req.method === 'OPTIONS') {
        req.resume()
        res
          .writeHead(204, {
            ...cors,
            'access-control-allow-methods': 'POST, OPTIONS',
            'access-control-allow-headers': CORS_ALLOW_HEADERS,
            'access-control-max-age': '600',
          })
          .end()
        return
      }
      for (const [name, value] of Object.entries(cors)) res.setHeader(name, value)
    }
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8')
      const script = scriptOf(req.headers, body)
      let step: MockStep | null = null
      if (script !== null) {
        const n = played.get(script.name) ?? 0
        played.set(script.name, n + 1)
        step = script.steps[Math.min(n, script.steps.length - 1)]!
      }
      const scenario = step?.scenario ?? null
      let settle: (how: 'finished' | 'client-closed' | 'disconnected') => void = () => {}
      const writes: number[] = []
      const closed = new Promise<'finished' | 'client-closed' | 'disconnected'>(
        (resolve) => (settle = resolve),
      )
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        scenario,
        closed,
        writes,
      })
      const hostile = req.headers['x-mock-hostile']
      if (typeof hostile === 'string') {
        playHostile(hostile, req.headers, req.url ?? '', res, settle)
        return
      }
      if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
        res.writeHead(404, JSON_HEADERS).end(JSON.stringify({ error: { message: 'not found' } }))
        settle('finished')
        return
      }
      if (step === null) {
        res.writeHead(400, JSON_HEADERS).end(JSON.stringify({ error: { message: 'unknown mock scenario' } }))
        settle('finished')
        return
      }
      const delay = Number(req.headers['x-mock-delay-ms'])
      const events = Number(req.headers['x-mock-events'])
      play(
        mockScript(step.scenario, {
          ...(Number.isFinite(delay) && delay >= 0 ? { delayMs: delay } : {}),
          ...(Number.isInteger(events) && events >= 0 ? { events } : {}),
          ...step.options,
        }),
        res,
        settle,
        writes,
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * How a hostile upstream answers (header `x-mock-hostile`), for the proxy's timeout, redaction and memory tests:
 * - `hang`: reads the request, never answers;
 * - `stall`: a 200 event-stream head and one chunk, then nothing;
 * - `echo-credentials`: a 401 whose JSON error echoes every header and the URL (keys included), as some do;
 * - `echo-credentials-stream`: a 200 stream whose text is the Authorization header and URL, then `[DONE]`;
 * - `huge:<bytes>`: a 200 stream of that many bytes of text chunks, written as fast as the client reads.
 */
function playHostile(
  kind: string,
  headers: IncomingHttpHeaders,
  url: string,
  res: ServerResponse,
  settle: (how: 'finished' | 'client-closed' | 'disconnected') => void,
): void {
  res.on('close', () => settle('client-closed'))
  const end = (status: number, head: Record<string, string>, body: string) => {
    res.writeHead(status, head).end(body)
    settle('finished')
  }
  if (kind === 'hang') return
  if (kind === 'stall') {
    res.writeHead(200, SSE_HEADERS)
    res.write(chunk({ role: 'assistant', content: 'and then' }))
    return
  }
  if (kind === 'echo-credentials') {
    const echoed = `Incorrect API key provided: ${JSON.stringify(headers)} at ${url}`
    return end(
      401,
      JSON_HEADERS,
      JSON.stringify({ error: { message: echoed, type: 'invalid_request_error' } }),
    )
  }
  if (kind === 'echo-credentials-stream') {
    const echoed = `${String(headers['authorization'])} ${String(headers['x-api-key'])} ${url}`
    return end(200, SSE_HEADERS, chunk({ role: 'assistant', content: echoed }) + finish('stop') + DONE)
  }
  const huge = /^huge:(\d+)$/.exec(kind)
  if (huge === null) return end(400, JSON_HEADERS, JSON.stringify({ error: { message: 'unknown hostile' } }))
  let left = Number(huge[1])
  const piece = chunk({ content: 'x'.repeat(16 * 1024) })
  res.writeHead(200, SSE_HEADERS)
  res.write(chunk({ role: 'assistant', content: '' }))
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      left -= piece.length
      if (!res.write(piece)) return void res.once('drain', pump)
    }
    if (!res.destroyed) res.end(finish('stop') + DONE)
    settle('finished')
  }
  pump()
}

function play(
  script: MockScript,
  res: ServerResponse,
  settle: (how: 'finished' | 'client-closed' | 'disconnected') => void,
  writes: number[],
): void {
  let timer: ReturnType<typeof setTimeout> | null = null
  let done = false
  res.on('close', () => {
    if (timer !== null) clearTimeout(timer)
    if (!done) settle('client-closed')
  })
  res.writeHead(script.status, script.headers)
  res.flushHeaders()
  let i = 0
  // The last write's flush: a disconnect cuts the socket only once every piece has reached it (under load, a
  // destroy right after `write` could drop bytes still queued, and the client would miss part of the script).
  let flushed: Promise<void> = Promise.resolve()
  const next = () => {
    timer = null
    if (res.destroyed) return
    if (i < script.pieces.length) {
      writes.push(performance.now())
      flushed = new Promise((resolve) => res.write(script.pieces[i]!, () => resolve()))
      i += 1
      if (script.delayMs > 0) timer = setTimeout(next, script.delayMs)
      else setImmediate(next)
      return
    }
    done = true
    if (script.disconnect) {
      void flushed.then(() => {
        settle('disconnected')
        res.socket?.destroy()
      })
    } else {
      res.end()
      settle('finished')
    }
  }
  next()
}
