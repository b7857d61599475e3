// `chunkscope proxy`: a local OpenAI-compatible reverse proxy that records every streamed chat completion.
import { mkdir, open, readFile } from 'node:fs/promises'
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { httpFailure } from '../../formats/sse/httpFailure'
import { Capture, fileSink, type CaptureSink, type CaptureSummary } from './capture'
import { corsHeaders, FEED_PREFIX, isFeedPath, serveFeed, type FeedSource } from '../feedServer'
import { LiveFeed } from './feed'

export type ProxyOptions = {
  /** The upstream's base URL, e.g. `https://api.deepseek.com` or `http://127.0.0.1:8080/v1`. */
  readonly upstream: string
  readonly port?: number
  /** Where capture logs go (created if missing). */
  readonly out: string
  readonly host?: string
  /** Problems worth a line on stderr (never a header value). */
  readonly log?: (line: string) => void
}

export type ProxyServer = {
  /** `http://127.0.0.1:<port>`: point the client's base URL here. */
  readonly url: string
  readonly port: number
  captures(): CaptureSummary[]
  /** Resolves when every capture begun so far is written and closed. */
  settled(): Promise<void>
  close(): Promise<void>
}

/** RFC 9110 §7.6.1 connection-specific headers, never forwarded (plus those the Connection header names). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

export { FEED_PREFIX }

/** The request headers to send upstream: all but hop-by-hop ones and Host (set from the upstream URL). */
export function forwardHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = String(headers['connection'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'host' || HOP_BY_HOP.has(name) || named.includes(name)) continue
    out[name] = value
  }
  return out
}

/**
 * A page on a loopback origin (the Chunkscope app's Live panel) may call the upstream through the proxy: it gets the
 * CORS headers, including `Retry-After` and `x-request-id` for its failure codes. Null for other origins and for
 * clients that send none (servers, the harness): those are forwarded exactly as before.
 */
function pageCors(req: IncomingMessage): Record<string, string> | null {
  const allowed = corsHeaders(req)
  if (allowed['access-control-allow-origin'] === undefined) return null
  return { ...allowed, 'access-control-expose-headers': 'retry-after, x-request-id' }
}

/** The request's headers for the upstream; a loopback page's `Origin` and `Referer` stay here (not a browser call). */
function upstreamHeaders(headers: IncomingHttpHeaders, fromPage: boolean): OutgoingHttpHeaders {
  const out = forwardHeaders(headers)
  if (fromPage) {
    delete out['origin']
    delete out['referer']
  }
  return out
}

function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out = forwardHeaders(headers)
  delete out['content-length'] // the body is re-framed (chunked) as it streams
  return out
}

/** Header values as single strings, for httpFailure. */
function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

/** The chat completion a request asks to stream, or null when the response is not worth capturing. */
function streamedChat(method: string, path: string, body: Buffer): { model: string | null } | null {
  if (method !== 'POST' || !path.split('?')[0]!.endsWith('/chat/completions')) return null
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { stream?: unknown; model?: unknown }
    if (parsed.stream !== true) return null
    return { model: typeof parsed.model === 'string' ? parsed.model : null }
  } catch {
    return null
  }
}

function decompressor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip()
    case 'deflate':
      return createInflate()
    case 'br':
      return createBrotliDecompress()
    default:
      return null
  }
}

const MAX_ERROR_BODY = 64 * 1024

/**
 * Starts the proxy. Every request is forwarded to `upstream` + its path (method, body, headers but hop-by-hop ones;
 * Authorization goes upstream and nowhere else); responses stream back chunk by chunk as they arrive. A POST
 * `…/chat/completions` with `stream: true` is captured: an event-stream response through the openai-sse translator,
 * an HTTP error as its `httpFailure` finish. One session log per captured response: `<out>/<id>.jsonl`.
 */
export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  const upstream = new URL(options.upstream)
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`--upstream must be an http(s) URL, got ${upstream.protocol}`)
  const basePath = upstream.pathname.replace(/\/+$/, '')
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest
  const log = options.log ?? (() => {})
  await mkdir(options.out, { recursive: true })
  const runId = new Date().toISOString().replace(/[:.]/g, '-')
  const feed = new LiveFeed()
  const captures = new Map<string, Capture>()
  const starting = new Set<Promise<Capture | null>>()
  let counter = 0

  const startCapture = async (
    req: IncomingMessage,
    status: number,
    model: string | null,
  ): Promise<Capture | null> => {
    counter += 1
    const id = `proxy-${runId}-${String(counter).padStart(4, '0')}`
    const file = `${id}.jsonl`
    const feedSink = {
      publishRecord: (captureId: string, record: Record<string, unknown>) =>
        feed.publish({ type: 'record', captureId, record }),
      publishCapture: (capture: CaptureSummary) => feed.publish({ type: 'capture', capture }),
    }
    let sink: CaptureSink
    try {
      sink = fileSink(await open(join(options.out, file), 'wx'), feedSink)
    } catch (error) {
      log(`chunkscope proxy: cannot write ${file}: ${(error as Error).message}`)
      sink = { write: async () => {}, close: async () => {}, ...feedSink }
    }
    const capture = new Capture(
      { id, file, method: req.method ?? 'POST', path: req.url ?? '/', model, status },
      sink,
      (error) => log(`chunkscope proxy: writing ${file} failed: ${(error as Error).message}`),
    )
    captures.set(id, capture)
    return capture
  }

  const feedSource: FeedSource<CaptureSummary> = {
    captures: () => [...captures.values()].map((capture) => capture.summary()),
    log: async (id) => {
      const capture = captures.get(id)
      if (capture === undefined) return null
      await capture.written.catch(() => {})
      return readFile(join(options.out, capture.summary().file), 'utf8')
    },
  }

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const path = req.url ?? '/'
    const method = req.method ?? 'GET'
    // Chunkscope's own page (or any loopback page) calling through the proxy: the CORS the upstream may not give.
    const cors = pageCors(req)
    if (cors !== null && method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res
        .writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': String(
            req.headers['access-control-request-headers'] ?? 'authorization, content-type',
          ),
          'access-control-max-age': '600',
        })
        .end()
      return
    }
    const chat = streamedChat(method, path, body)
    const controller = new AbortController()
    let capture: Capture | null = null
    let capturing: Promise<Capture | null> | null = null
    let clientGone = false
    res.on('close', () => {
      if (res.writableFinished) return
      clientGone = true
      controller.abort()
      void capturing?.then((c) => c?.abort())
    })
    const upstreamReq = send(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
        port: upstream.port || undefined,
        path: basePath + path,
        method,
        headers: upstreamHeaders(req.headers, cors !== null),
        signal: controller.signal,
      },
      (upRes) => {
        const status = upRes.statusCode ?? 502
        res.writeHead(status, upRes.statusMessage ?? '', { ...responseHeaders(upRes.headers), ...cors })
        res.flushHeaders()
        const eventStream = String(upRes.headers['content-type'] ?? '').includes('text/event-stream')
        const captureThis = chat !== null && (status >= 400 || (status < 300 && eventStream))
        if (captureThis) {
          const started = startCapture(req, status, chat.model)
          starting.add(started)
          capturing = started
        }
        const inflate = captureThis && status < 300 ? decompressor(upRes.headers['content-encoding']) : null
        const errorParts: Buffer[] = []
        let errorBytes = 0
        const toCapture = (bytes: Buffer) => {
          if (!captureThis) return
          if (status >= 400) {
            if (errorBytes < MAX_ERROR_BODY) errorParts.push(bytes)
            errorBytes += bytes.length
          } else if (capture !== null) capture.pushBytes(bytes)
          else void capturing?.then((c) => c?.pushBytes(bytes))
        }
        void capturing?.then((c) => (capture = c))
        if (inflate !== null) {
          inflate.on('data', toCapture)
          inflate.on('error', () => {})
        }
        upRes.on('data', (bytes: Buffer) => {
          if (!res.write(bytes)) {
            upRes.pause()
            res.once('drain', () => upRes.resume())
          }
          if (inflate !== null) inflate.write(bytes)
          else toCapture(bytes)
        })
        upRes.on('error', () => {}) // surfaces as 'close' without `complete`
        upRes.on('close', () => {
          const complete = upRes.complete
          if (complete) res.end()
          else if (!clientGone) {
            // The upstream cut the body: let the client see the same cut after the bytes it already has.
            const socket = res.socket
            if (socket !== null) socket.end()
            else res.destroy()
          }
          if (!captureThis) return
          const finishCapture = () =>
            void capturing?.then((c) => {
              if (c === null) return
              if (clientGone) return c.abort()
              if (status >= 400) {
                const text = Buffer.concat(errorParts).toString('utf8')
                return c.fail(httpFailure(status, flatHeaders(upRes.headers), text))
              }
              return c.endBody()
            })
          if (inflate !== null && complete) {
            inflate.once('end', finishCapture)
            inflate.once('error', finishCapture)
            inflate.end()
          } else finishCapture()
        })
      },
    )
    upstreamReq.on('error', (error: Error & { code?: string }) => {
      if (clientGone) return
      if (!res.headersSent) {
        log(`chunkscope proxy: upstream ${upstream.host} unreachable: ${error.code ?? error.message}`)
        res.writeHead(502, { 'content-type': 'application/json', ...cors }).end(
          JSON.stringify({
            error: {
              message: `chunkscope proxy: upstream ${upstream.origin} unreachable (${error.code ?? error.message})`,
              code: 'UPSTREAM_UNREACHABLE',
            },
          }),
        )
      }
    })
    upstreamReq.end(body)
  }

  const server = createServer({ noDelay: true }, (req, res) => {
    const path = req.url ?? '/'
    if (isFeedPath(path)) {
      void serveFeed(req, res, feed, feedSource)
      return
    }
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => forward(req, res, Buffer.concat(parts)))
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}`,
    port,
    captures: feedSource.captures,
    settled: async () => {
      await Promise.all(starting)
      await Promise.all([...captures.values()].map((capture) => capture.done))
    },
    close: () =>
      new Promise<void>((resolve) => {
        feed.closeAll()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
