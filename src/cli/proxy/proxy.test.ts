import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { gzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { compareRecorded } from '../../core/session'
import { loadSource } from '../../formats/load'
import { mockScript, startMockUpstream, type MockScenario, type MockUpstream } from '../../test/mockUpstream'
import type { CaptureSummary } from './capture'
import type { FeedMessage } from './feed'
import { forwardHeaders, startProxy, type ProxyServer } from './proxy'
import { clientResult, getText, postRaw, type RawResponse } from './testClient'

const SECRET = 'sk-chunkscope-SECRET-4242'
let mock: MockUpstream
let proxy: ProxyServer
let out: string

beforeAll(async () => {
  mock = await startMockUpstream()
  out = mkdtempSync(join(tmpdir(), 'chunkscope-proxy-'))
  proxy = await startProxy({ upstream: `${mock.url}/v1`, out })
})

afterAll(async () => {
  await proxy?.close()
  await mock?.close()
  rmSync(out, { recursive: true, force: true })
})

function post(
  scenario: MockScenario,
  options: { delayMs?: number; events?: number; abort?: boolean; base?: string } = {},
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return postRaw(`${options.base ?? proxy.url}/chat/completions`, {
    headers: {
      authorization: `Bearer ${SECRET}`,
      ...(options.delayMs !== undefined ? { 'x-mock-delay-ms': String(options.delayMs) } : {}),
      ...(options.events !== undefined ? { 'x-mock-events': String(options.events) } : {}),
      ...headers,
    },
    body: { model: `mock-${scenario}`, stream: true, messages: [{ role: 'user', content: 'hi' }] },
    abortAfterFirstPiece: options.abort ?? false,
  })
}

/** The capture of the latest request for `model`, and its log loaded back. */
function loadCapture(capture: CaptureSummary) {
  const text = readFileSync(join(out, capture.file), 'utf8')
  const source = loadSource(text, capture.file)
  expect(source.format).toBe('dsh-session-jsonl')
  expect(source.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  const attempt = source.sessions[0]!.streams[0]!
  return { text, attempt, result: analyzeStream(attempt.chunks) }
}

function captureOf(model: string): CaptureSummary {
  const found = proxy.captures().filter((capture) => capture.model === model)
  expect(found.length).toBeGreaterThan(0)
  return found.at(-1)!
}

const EXPECTED: Record<MockScenario, { status: number; finish: string; code?: string }> = {
  text: { status: 200, finish: 'stop' },
  reasoning: { status: 200, finish: 'stop' },
  'tool-calls': { status: 200, finish: 'tool-calls' },
  'rate-limit': { status: 429, finish: 'error', code: 'RATE_LIMIT' },
  'server-error': { status: 500, finish: 'error', code: 'SERVER' },
  unauthorized: { status: 401, finish: 'error', code: 'AUTH' },
  drip: { status: 200, finish: 'stop' },
  disconnect: { status: 200, finish: 'error', code: 'STREAM_CLOSED' },
  malformed: { status: 200, finish: 'error', code: 'MALFORMED_RESPONSE' },
  length: { status: 200, finish: 'max-tokens' },
}

describe('chunkscope proxy', () => {
  it.each(Object.keys(EXPECTED) as MockScenario[])(
    '%s: the client gets the upstream bytes; the capture assembles as the client does',
    async (scenario) => {
      const options = scenario === 'drip' ? { delayMs: 2, events: 10 } : {}
      const response = await post(scenario, options)
      const expected = EXPECTED[scenario]
      expect(response.status).toBe(expected.status)
      const wire = mockScript(scenario, options).pieces.join('')
      expect(response.bytes.toString('utf8')).toBe(wire)
      expect(mock.requests.at(-1)!.url).toBe('/v1/chat/completions')
      expect(mock.requests.at(-1)!.headers['authorization']).toBe(`Bearer ${SECRET}`)
      await proxy.settled()

      const client = clientResult(response)
      const capture = captureOf(`mock-${scenario}`)
      expect(capture.status).toBe(expected.status)
      expect(capture.state).toBe(expected.finish === 'error' ? 'error' : 'completed')
      const { attempt, result } = loadCapture(capture)
      expect(result.blocks).toEqual(client.blocks)
      expect(result.interruptedBlocks).toEqual(client.interruptedBlocks)
      expect(result.finish).toEqual(client.finish)
      expect(result.usage).toEqual(client.usage)
      const failure = 'failure' in result.finish ? result.finish.failure : null
      expect(result.finish.kind).toBe(expected.finish)
      expect(failure?.code).toBe(expected.code)
      expect(failure?.providerRetryAfterMs).toBe(scenario === 'rate-limit' ? 2000 : undefined)
      const comparison = compareRecorded(attempt)
      // A failed attempt leaves no message (§6); a successful one is cited whole and matches the client's blocks.
      expect(comparison?.match ?? null).toBe(expected.finish === 'error' ? null : true)
      expect(comparison?.assembled ?? client.blocks).toEqual(client.blocks)
    },
  )

  it('never writes the Authorization header to disk', async () => {
    await post('text')
    await proxy.settled()
    const files = readdirSync(out)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const text = readFileSync(join(out, file), 'utf8')
      expect(text).not.toContain(SECRET)
      expect(text.toLowerCase()).not.toContain('authorization')
    }
  })

  it('lets a loopback page call through it (CORS), without passing the page origin upstream', async () => {
    const origin = 'http://127.0.0.1:5199'
    const preflight = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin)
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization')
    const before = mock.requests.length
    const response = await post('rate-limit', {}, { origin })
    expect(response.headers['access-control-allow-origin']).toBe(origin)
    expect(response.headers['access-control-expose-headers']).toContain('retry-after')
    expect(mock.requests.length).toBe(before + 1) // the preflight stayed in the proxy
    expect(mock.requests.at(-1)!.headers['origin']).toBeUndefined()
    // A page elsewhere is refused before anything goes upstream, and gets no CORS to read why.
    const foreign = await post('text', {}, { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    expect(mock.requests.length).toBe(before + 1)
  })

  it('answers 502 UPSTREAM_UNREACHABLE when the upstream is down', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const lines: string[] = []
    const dead = await startProxy({
      upstream: `http://127.0.0.1:${port}`,
      out,
      log: (line) => lines.push(line),
    })
    try {
      const response = await post('text', { base: dead.url })
      expect(response.status).toBe(502)
      expect(response.headers['content-type']).toContain('application/json')
      const body = JSON.parse(response.bytes.toString('utf8')) as { error: { message: string; code: string } }
      expect(body.error.code).toBe('UPSTREAM_UNREACHABLE')
      expect(body.error.message).toContain(`127.0.0.1:${port}`)
      expect(lines.join('\n')).not.toContain(SECRET)
    } finally {
      await dead.close()
    }
  })

  it('aborts the upstream request when the client goes away; the capture ends aborted', async () => {
    const before = mock.requests.length
    const response = await post('drip', { delayMs: 25, events: 400, abort: true })
    expect(response.bytes.length).toBeGreaterThan(0)
    const upstreamRequest = mock.requests[before]!
    expect(await upstreamRequest.closed).toBe('client-closed')
    await proxy.settled()
    const capture = proxy.captures().at(-1)!
    expect(capture.state).toBe('aborted')
    const { attempt, result } = loadCapture(capture)
    expect(result.finish).toMatchObject({ kind: 'aborted', failure: { code: 'ABORTED' } })
    expect(attempt.chunks.length).toBeGreaterThan(0)
  })

  it('carries 50 concurrent streams byte for byte, each capture assembling as its client', async () => {
    const before = proxy.captures().length
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post('drip', { delayMs: 1 + (i % 3), events: 20 })),
    )
    await proxy.settled()
    const wire = mockScript('drip', { events: 20 }).pieces.join('')
    for (const response of responses) expect(response.bytes.toString('utf8')).toBe(wire)
    const captures = proxy.captures().slice(before)
    expect(captures).toHaveLength(50)
    const expected = clientResult(responses[0]!)
    for (const capture of captures) {
      expect(capture.state).toBe('completed')
      const { attempt, result } = loadCapture(capture)
      expect(result.blocks).toEqual(expected.blocks)
      expect(compareRecorded(attempt)?.match).toBe(true)
    }
    for (const response of responses) expect(clientResult(response).blocks).toEqual(expected.blocks)
  })

  it('lists captures and publishes each written line on the live feed, in order', async () => {
    const list = await getText(`${proxy.url}/__chunkscope/captures`)
    expect(list.status).toBe(200)
    expect((JSON.parse(list.text) as CaptureSummary[]).length).toBe(proxy.captures().length)

    const messages: FeedMessage[] = []
    let captureId = ''
    let file = ''
    const onDiskFirst: boolean[] = []
    const ended = new Promise<void>((resolve, reject) => {
      const req = request(`${proxy.url}/__chunkscope/events`, { agent: false }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream')
        let buffer = ''
        let started = false
        res.setEncoding('utf8')
        res.on('data', (piece: string) => {
          buffer += piece
          let cut = buffer.indexOf('\n\n')
          while (cut !== -1) {
            const frame = buffer.slice(0, cut)
            buffer = buffer.slice(cut + 2)
            cut = buffer.indexOf('\n\n')
            if (!frame.startsWith('data: ')) continue
            const message = JSON.parse(frame.slice(6)) as FeedMessage<CaptureSummary>
            messages.push(message)
            if (message.type === 'hello' && !started) {
              started = true
              void post('reasoning')
            }
            if (message.type === 'record' && message.captureId === captureId) {
              // Durable-first: a record is on disk before the feed publishes it.
              onDiskFirst.push(readFileSync(join(out, file), 'utf8').includes(JSON.stringify(message.record)))
            }
            if (message.type === 'capture' && message.capture.model === 'mock-reasoning') {
              captureId = message.capture.id
              file = message.capture.file
              if (message.capture.state !== 'streaming') {
                req.destroy()
                resolve()
              }
            }
          }
        })
      })
      req.on('error', (error) => {
        if (captureId === '') reject(error)
      })
      req.end()
    })
    await ended
    await proxy.settled()
    const records = messages.flatMap((m) =>
      m.type === 'record' && m.captureId === captureId ? [m.record] : [],
    )
    const capture = proxy.captures().find((c) => c.id === captureId)!
    expect(onDiskFirst).toEqual(records.map(() => true))
    const lines = readFileSync(join(out, capture.file), 'utf8').trimEnd().split('\n')
    expect(records.map((record) => JSON.stringify(record))).toEqual(lines)
    const backfill = await getText(`${proxy.url}/__chunkscope/captures/${captureId}`)
    expect(backfill.text.trimEnd().split('\n')).toEqual(lines)
  })

  it('passes a gzip body through untouched and captures it decompressed', async () => {
    const wire = mockScript('tool-calls').pieces.join('')
    const gz = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' })
        res.end(gzipSync(wire))
      })
    })
    await new Promise<void>((resolve) => gz.listen(0, '127.0.0.1', resolve))
    const gzProxy = await startProxy({
      upstream: `http://127.0.0.1:${(gz.address() as AddressInfo).port}`,
      out,
    })
    try {
      const response = await postRaw(`${gzProxy.url}/chat/completions`, {
        headers: { 'accept-encoding': 'gzip' },
        body: { model: 'gzip-model', stream: true },
      })
      expect(response.headers['content-encoding']).toBe('gzip')
      expect(response.bytes).toEqual(gzipSync(wire))
      await gzProxy.settled()
      const { result } = loadCapture(gzProxy.captures()[0]!)
      const direct = clientResult({ ...response, headers: {}, bytes: Buffer.from(wire) })
      expect(result.blocks).toEqual(direct.blocks)
      expect(result.finish).toEqual({ kind: 'tool-calls' })
    } finally {
      await gzProxy.close()
      await new Promise<void>((resolve) => gz.close(() => resolve()))
    }
  })

  it('drops hop-by-hop headers and Host, keeps Authorization for the upstream', () => {
    const headers = forwardHeaders({
      host: 'x',
      connection: 'keep-alive, x-drop-me',
      'keep-alive': 'timeout=5',
      'x-drop-me': '1',
      'transfer-encoding': 'chunked',
      authorization: 'Bearer t',
      'content-type': 'application/json',
    })
    expect(headers).toEqual({ authorization: 'Bearer t', 'content-type': 'application/json' })
  })
})
