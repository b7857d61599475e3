// The proxy against forged Host/Origin headers, oversized bodies, hostile upstreams and echoed credentials.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { waitFor } from '../../test/mockHarnessHost'
import { startMockUpstream, type MockUpstream } from '../../test/mockUpstream'
import { startProxy, type ProxyServer } from './proxy'

const KEYS = {
  bearer: 'sk-bearer-0123456789abcdef',
  xApiKey: 'xak-0123456789abcdef',
  apiKey: 'azure-0123456789abcdef',
  query: 'AIzaQuery0123456789',
  apiKeyParam: 'qk_0123456789abcdef',
}

let mock: MockUpstream
let proxy: ProxyServer
let out: string
/**
 * The timeout tests' own proxy. Its 60 ms clocks run in this process, beside the mock upstream and the client:
 * on a loaded machine a pause of the whole process outlasts them while bytes wait in the socket. Only the tests
 * about timeouts race such a clock; the rest go through `proxy`, whose clocks are the defaults (minutes).
 */
let timing: ProxyServer
let timingOut: string
const logged: string[] = []

beforeAll(async () => {
  mock = await startMockUpstream()
  out = mkdtempSync(join(tmpdir(), 'chunkscope-proxy-security-'))
  proxy = await startProxy({
    upstream: `${mock.url}/v1`,
    out,
    maxBodyBytes: 4096,
    allowedOrigins: ['https://chunkscope.example'],
    log: (line) => logged.push(line),
  })
  timingOut = mkdtempSync(join(tmpdir(), 'chunkscope-proxy-timeouts-'))
  timing = await startProxy({
    upstream: `${mock.url}/v1`,
    out: timingOut,
    timeouts: { connectMs: 200, firstByteMs: 60, idleMs: 60 },
  })
})

afterAll(async () => {
  await proxy?.close()
  await timing?.close()
  await mock?.close()
  rmSync(out, { recursive: true, force: true })
  rmSync(timingOut, { recursive: true, force: true })
})

type Answer = { status: number; headers: IncomingHttpHeaders; text: string; complete: boolean }

/** One raw request to the proxy (`via`), Host and Origin as given (Node sets Host from the URL unless told). */
function send(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  body?: string | Buffer,
  via: ProxyServer = proxy,
): Promise<Answer> {
  const set: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) set[name] = value
  return new Promise((resolve, reject) => {
    const req = request(
      `${via.url}${path}`,
      { method, headers: set, agent: false, setHost: !('host' in set) },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (part: string) => {
          text += part
          // The event stream never ends by itself: its first bytes are enough.
          if (path.endsWith('/events')) res.destroy()
        })
        res.on('error', () => {})
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, complete: res.complete }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** The 403's plain reason. */
function reason(answer: Answer): string {
  const { error } = JSON.parse(answer.text) as { error: { message: string; code: string } }
  expect(error.code).toBe('FORBIDDEN')
  return error.message
}

const chatBody = (model = 'mock-text') => JSON.stringify({ model, stream: true, messages: [] })

const ENDPOINTS: readonly [string, string, string?][] = [
  ['POST', '/v1/chat/completions', chatBody()],
  ['GET', '/v1/models'],
  ['OPTIONS', '/v1/chat/completions'],
  ['GET', '/__chunkscope/captures'],
  ['GET', '/__chunkscope/captures/proxy-x'],
  ['GET', '/__chunkscope/events'],
  ['GET', '/__chunkscope/nothing'],
]

describe('chunkscope proxy: who may call it', () => {
  it.each(ENDPOINTS)(
    '%s %s: a foreign Host gets 403 with the reason, nothing goes upstream',
    async (method, path, body) => {
      const before = mock.requests.length
      const port = proxy.port
      for (const host of [
        `attacker.example:${port}`,
        `127.0.0.1.attacker.example:${port}`,
        '127.0.0.1:1',
        'localhost',
      ]) {
        const answer = await send(method, path, { host, 'content-type': 'application/json' }, body)
        expect(answer.status).toBe(403)
        expect(reason(answer)).toContain(`Host ${JSON.stringify(host)} is not this server`)
        expect(answer.headers['access-control-allow-origin']).toBeUndefined()
      }
      expect(mock.requests.length).toBe(before)
    },
  )

  it.each(ENDPOINTS)('%s %s: a foreign Origin gets 403 with the reason', async (method, path, body) => {
    const before = mock.requests.length
    for (const origin of ['https://attacker.example', 'null', 'http://localhost.attacker.example:5173']) {
      const answer = await send(method, path, { origin, 'access-control-request-method': 'POST' }, body)
      expect(answer.status).toBe(403)
      expect(reason(answer)).toContain(`Origin ${JSON.stringify(origin)} is not allowed`)
    }
    expect(mock.requests.length).toBe(before)
  })

  it('answers loopback names, loopback pages and the origin given by flag', async () => {
    for (const host of [`localhost:${proxy.port}`, `[::1]:${proxy.port}`, `127.0.0.1:${proxy.port}`]) {
      const answer = await send('GET', '/__chunkscope/captures', { host })
      expect(answer.status).toBe(200)
    }
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:4173', 'https://chunkscope.example']) {
      const answer = await send('GET', '/__chunkscope/captures', { origin })
      expect(answer.status).toBe(200)
      expect(answer.headers['access-control-allow-origin']).toBe(origin)
    }
  })

  it('never forwards a cross-site "simple" text/plain POST, and captures nothing of it', async () => {
    const before = { requests: mock.requests.length, captures: proxy.captures().length }
    const answer = await send(
      'POST',
      '/v1/chat/completions',
      { origin: 'https://attacker.example', 'content-type': 'text/plain' },
      chatBody(),
    )
    expect(answer.status).toBe(403)
    expect(mock.requests.length).toBe(before.requests)
    expect(proxy.captures().length).toBe(before.captures)
  })

  it('refuses a WebSocket upgrade from a foreign page', async () => {
    const answer = await send('GET', '/__chunkscope/events', {
      origin: 'https://attacker.example',
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
    })
    expect(answer.status).toBe(403)
  })
})

describe('chunkscope proxy: request bodies', () => {
  it('refuses a body over the limit with 413 and a reason, declared or chunked; nothing reaches the upstream', async () => {
    const before = mock.requests.length
    const big = JSON.stringify({ model: 'mock-text', stream: true, pad: 'x'.repeat(5000) })
    const declared = await send('POST', '/v1/chat/completions', { 'content-length': String(big.length) }, big)
    expect(declared.status).toBe(413)
    expect(JSON.parse(declared.text)).toEqual({
      error: {
        message: 'chunkscope proxy: the request body is larger than 0 MiB (--max-body-mb)',
        code: 'PAYLOAD_TOO_LARGE',
      },
    })
    const chunked = await send('POST', '/v1/chat/completions', { 'transfer-encoding': 'chunked' }, big)
    expect(chunked.status).toBe(413)
    expect(mock.requests.length).toBe(before)
  })

  it('streams the body upstream as it arrives (the upstream sees the first half before the client sends the rest)', async () => {
    let seen = 0
    const upstream: Server = createServer((req, res) => {
      req.on('data', (part: Buffer) => (seen += part.length))
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'))
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    const through = await startProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      out,
    })
    try {
      const answered = new Promise<number>((resolve, reject) => {
        const req = request(`${through.url}/v1/chat/completions`, { method: 'POST', agent: false }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.write('{"model":"m","stream":true,"messages":[')
        void waitFor('the first half upstream', () => seen > 0).then(() => req.end(']}'))
      })
      expect(await answered).toBe(200)
      expect(seen).toBe('{"model":"m","stream":true,"messages":[]}'.length)
    } finally {
      await through.close()
      upstream.close()
    }
  })
})

/** The capture of the latest request, once durable, and its log's last attempt. */
async function lastCapture(from = { proxy, out }) {
  await from.proxy.settled()
  const capture = from.proxy.captures().at(-1)!
  const source = loadSource(readFileSync(join(from.out, capture.file), 'utf8'), capture.file)
  const chunks = source.sessions[0]!.streams[0]!.chunks.map((sourced) => sourced.chunk)
  return { capture, finish: chunks.at(-1) }
}

describe('chunkscope proxy: hostile upstreams', () => {
  it('a hanging upstream: 504 TIMEOUT to the client, a TIMEOUT finish in the capture', async () => {
    const hostile = { 'x-mock-hostile': 'hang' }
    const answer = await send('POST', '/v1/chat/completions', hostile, chatBody(), timing)
    expect(answer.status).toBe(504)
    expect(JSON.parse(answer.text).error).toEqual({
      message: `chunkscope proxy: the upstream ${mock.url} sent nothing: no response within 60 ms`,
      code: 'TIMEOUT',
    })
    const { capture, finish } = await lastCapture({ proxy: timing, out: timingOut })
    expect(capture.state).toBe('error')
    expect(finish).toMatchObject({ type: 'finish', reason: { kind: 'error', failure: { code: 'TIMEOUT' } } })
    await expect(mock.requests.at(-1)!.closed).resolves.toBe('client-closed')
  })

  it('an upstream that stalls mid-stream: the client keeps what came, then the body is cut; TIMEOUT captured', async () => {
    const hostile = { 'x-mock-hostile': 'stall' }
    const answer = await send('POST', '/v1/chat/completions', hostile, chatBody(), timing)
    expect(answer.status).toBe(200)
    expect(answer.complete).toBe(false)
    expect(answer.text).toContain('"content":"and then"')
    expect(answer.text).toContain('no body byte within 60 ms (TIMEOUT)')
    const { capture, finish } = await lastCapture({ proxy: timing, out: timingOut })
    expect(capture.state).toBe('error')
    expect(finish).toMatchObject({ reason: { kind: 'error', failure: { code: 'TIMEOUT' } } })
  })

  it('a body faster than the disk: the upstream waits for the capture file, nothing is lost', async () => {
    const answer = await send(
      'POST',
      '/v1/chat/completions',
      { 'x-mock-hostile': 'huge:3000000' },
      chatBody(),
    )
    expect(answer.complete).toBe(true)
    expect(answer.text.length).toBeGreaterThan(3_000_000)
    const { capture, finish } = await lastCapture()
    expect(capture.state).toBe('completed')
    expect(finish).toEqual({ type: 'finish', reason: { kind: 'stop' } })
    const text = readFileSync(join(out, capture.file), 'utf8')
    const client = answer.text.match(/x{16384}/g)!.length
    expect(text.match(/"text":"x{16384}"/g)!.length).toBe(client) // every delta, in the capture as on the wire
  })

  it('an upstream that accepts the connection but never completes TLS: 504 TIMEOUT (connect)', async () => {
    const sockets: Socket[] = []
    const silent = createTcpServer((socket) => void sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const tls = await startProxy({
      upstream: `https://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      out,
      timeouts: { connectMs: 50 },
    })
    try {
      const answer = await new Promise<Answer>((resolve, reject) => {
        const req = request(`${tls.url}/v1/models`, { agent: false }, (res) => {
          let text = ''
          res.on('data', (part: Buffer) => (text += part.toString('utf8')))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, complete: true }),
          )
        })
        req.on('error', reject)
        req.end()
      })
      expect(answer.status).toBe(504)
      expect(JSON.parse(answer.text).error.message).toContain('no connection within 50 ms')
    } finally {
      await tls.close()
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  })
})

describe('chunkscope proxy: credentials', () => {
  const path = `/v1/chat/completions?key=${KEYS.query}&api_key=${KEYS.apiKeyParam}`
  const headers = {
    authorization: `Bearer ${KEYS.bearer}`,
    'x-api-key': KEYS.xApiKey,
    'api-key': KEYS.apiKey,
  }

  /** Every byte the proxy wrote under `out`, its captures list and the feed as a late subscriber reads it. */
  async function everythingPublished(): Promise<string> {
    await proxy.settled()
    const files = readdirSync(out).map((file) => readFileSync(join(out, file), 'utf8'))
    const list = await send('GET', '/__chunkscope/captures', {})
    const logs = await Promise.all(
      proxy.captures().map((capture) => send('GET', `/__chunkscope/captures/${capture.id}`, {})),
    )
    return [...files, list.text, ...logs.map((log) => log.text), ...logged].join('\n')
  }

  it('an upstream 401 (and a stream) echoing every key: no key in any file, feed record or log line', async () => {
    const feed = new Promise<string>((resolve) => {
      const req = request(`${proxy.url}/__chunkscope/events`, { agent: false }, (res) => {
        let text = ''
        res.on('data', (part: Buffer) => (text += part.toString('utf8')))
        res.on('close', () => resolve(text))
      })
      req.end()
    })
    const unauthorized = await send(
      'POST',
      path,
      { ...headers, 'x-mock-hostile': 'echo-credentials' },
      chatBody(),
    )
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.text).toContain(KEYS.bearer) // the client gets the upstream's bytes as they are
    const streamed = await send(
      'POST',
      path,
      { ...headers, 'x-mock-hostile': 'echo-credentials-stream' },
      chatBody(),
    )
    expect(streamed.text).toContain(KEYS.bearer)
    const published = await everythingPublished()
    await proxy.close() // ends the feed subscription; a new proxy takes over for later tests
    proxy = await startProxy({
      upstream: `${mock.url}/v1`,
      out,
      maxBodyBytes: 4096,
      log: (l) => logged.push(l),
    })
    const seen = published + (await feed)
    expect(seen).toContain('[redacted]')
    expect(seen).toContain('Incorrect API key provided')
    for (const key of Object.values(KEYS)) expect(seen).not.toContain(key)
  })
})
