// `chunkscope proxy`: a local OpenAI-compatible reverse proxy that records every streamed chat completion.
import { mkdir, open, readFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { httpFailure } from '../../formats/sse/httpFailure'
import type { LlmFailure } from '../../core/protocol'
import { Capture, fileSink, type CaptureSink, type CaptureSummary } from './capture'
import { corsHeaders, FEED_PREFIX, isFeedPath, serveFeed, type FeedSource } from '../feedServer'
import { refuse, requestGuard, type GuardVerdict } from '../loopbackGuard'
import { terminalText } from '../terminalText'
import { LiveFeed } from './feed'
import { decompressor, flatHeaders, forwardHeaders, responseHeaders, upstreamHeaders } from './headers'
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUTS, type ProxyTimeouts } from './limits'
import { credentialsOf, Redactor } from './redact'
import { RequestSniffer } from './requestSniffer'

export type ProxyOptions = {
  /** The upstream's base URL, e.g. `https://api.deepseek.com` or `http://127.0.0.1:8080/v1`. */
  readonly upstream: string
  readonly port?: number
  /** Where capture logs go (created if missing). */
  readonly out: string
  readonly host?: string
  /** Problems worth a line on stderr (never a header value). */
  readonly log?: (line: string) => void
  /** Page origins allowed besides loopback ones (the Chunkscope page's, when served elsewhere): `requestGuard`. */
  readonly allowedOrigins?: readonly string[]
  /** Request bodies larger than this are refused with 413 (default {@link DEFAULT_MAX_BODY_BYTES}). */
  readonly maxBodyBytes?: number
  readonly timeouts?: Partial<ProxyTimeouts>
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

export { FEED_PREFIX }
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUTS, type ProxyTimeouts }
export { forwardHeaders }

/**
 * A page the guard let in (the Chunkscope app's Live panel) may call the upstream through the proxy: it gets the
 * CORS headers, including `Retry-After` and `x-request-id` for its failure codes. Null for clients that send no
 * Origin (servers, the harness): those are forwarded exactly as before.
 */
function pageCors(origin: string | null): Record<string, string> | null {
  if (origin === null) return null
  return { ...corsHeaders(origin), 'access-control-expose-headers': 'retry-after, x-request-id' }
}

/**
 * Whether the request may be a streamed model call (its body then decides: `RequestSniffer`, and the response's
 * type): the endpoints of every wire the recorder reads (docs/protocol.md §9, "Live capture: which wire").
 */
function isChatPost(method: string, path: string): boolean {
  const route = path.split('?')[0]!
  return (
    method === 'POST' &&
    /(\/completions|\/responses|\/messages|:streamGenerateContent|\/api\/(chat|generate)|\/v2\/chat|\/interactions)\/?$/.test(
      route,
    )
  )
}

function jsonError(message: string, code: string): string {
  return JSON.stringify({ error: { message, code } })
}

function megabytes(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`
}

const MAX_ERROR_BODY = 64 * 1024
/** Body bytes a capture may have taken in ahead of its file before the upstream is paused. */
const MAX_CAPTURE_AHEAD = 1024 * 1024

/**
 * Starts the proxy. Every request is checked (`requestGuard`: Host and Origin, else 403), then forwarded to
 * `upstream` + its path (method, headers but hop-by-hop ones; the body streamed as it arrives, up to
 * `maxBodyBytes`, else 413); the response is streamed back unchanged. Streamed chat completions (and their HTTP
 * errors) are captured, one session log per response under `out`, with every credential the request carried
 * redacted; `${FEED_PREFIX}…` is the live feed. A connect, first-byte or idle timeout ends the exchange in
 * `TIMEOUT`: a 504 when the client has no response yet, else the body is cut; the capture ends with that failure.
 */
export async function startProxy(options: ProxyOptions): Promise<ProxyServer> {
  const upstream = new URL(options.upstream)
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`--upstream must be an http(s) URL, got ${upstream.protocol}`)
  const basePath = upstream.pathname.replace(/\/+$/, '')
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest
  const log = (line: string) => options.log?.(terminalText(line))
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const timeouts: ProxyTimeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
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
    redactor: Redactor,
    contentType = '',
  ): Promise<Capture | null> => {
    counter += 1
    const id = `proxy-${runId}-${String(counter).padStart(4, '0')}`
    const file = `${id}.jsonl`
    const feedSink = {
      listening: () => feed.size > 0,
      publishRecord: (captureId: string, record: Record<string, unknown>) =>
        feed.publish({ type: 'record', captureId, record }),
      publishCapture: (capture: CaptureSummary) => feed.publish({ type: 'capture', capture }),
    }
    let sink: CaptureSink
    try {
      sink = fileSink(await open(join(options.out, file), 'wx'), feedSink)
    } catch (error) {
      log(`chunkscope proxy: cannot write ${file}: ${redactor.text((error as Error).message)}`)
      sink = { write: async () => {}, close: async () => {}, ...feedSink }
    }
    const capture = new Capture(
      { id, file, method: req.method ?? 'POST', path: req.url ?? '/', model, status },
      sink,
      (error) => log(`chunkscope proxy: writing ${file} failed: ${redactor.text((error as Error).message)}`),
      redactor,
      { contentType, path: req.url ?? '/' },
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

  const forward = (req: IncomingMessage, res: ServerResponse, origin: string | null) => {
    const path = req.url ?? '/'
    const method = req.method ?? 'GET'
    // Chunkscope's own page (or an allowed page) calling through the proxy: the CORS the upstream may not give.
    const cors = pageCors(origin)
    if (cors !== null && method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      req.resume()
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
    const answer = (status: number, message: string, code: string) => {
      if (res.headersSent) return void res.destroy()
      res
        .writeHead(status, { 'content-type': 'application/json', connection: 'close', ...cors })
        .end(jsonError(message, code))
    }
    const tooLarge = () =>
      answer(
        413,
        `chunkscope proxy: the request body is larger than ${megabytes(maxBody)} (--max-body-mb)`,
        'PAYLOAD_TOO_LARGE',
      )
    const declared = Number(req.headers['content-length'] ?? 0)
    if (declared > maxBody) {
      req.resume()
      return tooLarge()
    }
    const redactor = new Redactor(credentialsOf(req.headers, path))
    const sniffer = isChatPost(method, path) ? new RequestSniffer() : null
    const controller = new AbortController()
    let capture: Capture | null = null
    let capturing: Promise<Capture | null> | null = null
    let clientGone = false
    /** Set when the exchange ended on our side: a timeout or an oversized body (no 502 then). */
    let ended: LlmFailure | 'too-large' | null = null
    let timer: ReturnType<typeof setTimeout> | null = null
    let received = 0
    let bodyDone = false
    let eventStream = false
    const arm = (ms: number, what: string) => {
      if (timer !== null) clearTimeout(timer)
      timer = setTimeout(() => timeOut(`${what} within ${ms} ms`), ms)
    }
    const disarm = () => {
      if (timer !== null) clearTimeout(timer)
      timer = null
    }
    /** We cut the client's body after the upstream cut its own (or timed out): not the client going away. */
    let cutting = false
    res.on('close', () => {
      disarm()
      if (res.writableFinished || cutting) return
      clientGone = true
      controller.abort()
      void capturing?.then((c) => c?.abort())
    })
    const capture504 = (failure: LlmFailure) => {
      const chat = sniffer?.result()
      if (chat?.stream !== true) return
      const started = startCapture(req, 504, chat.model, redactor)
      starting.add(started)
      capturing = started
      void started.then((c) => c?.fail(failure))
    }
    const timeOut = (what: string) => {
      timer = null
      const failure: LlmFailure = {
        message: `chunkscope proxy: the upstream ${upstream.origin} sent nothing: ${what}`,
        code: 'TIMEOUT',
      }
      ended = failure
      log(failure.message)
      if (!res.headersSent) {
        answer(504, failure.message, 'TIMEOUT')
        if (capturing === null) capture504(failure)
      } else if (eventStream) {
        // An SSE comment says why in the raw stream; the cut then reads as STREAM_CLOSED to the client's parser.
        res.write(`\n: ${failure.message} (TIMEOUT)\n\n`)
      }
      upstreamReq.destroy()
    }

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
        arm(timeouts.idleMs, 'no body byte')
        const status = upRes.statusCode ?? 502
        res.writeHead(status, upRes.statusMessage ?? '', { ...responseHeaders(upRes.headers), ...cors })
        res.flushHeaders()
        const contentType = String(upRes.headers['content-type'] ?? '')
        eventStream = contentType.includes('text/event-stream')
        // A response that comes before the body ended (an early 401, say) is not a stream the body asked for.
        const chat = sniffer?.result() ?? null
        // Streamed without `"stream": true`: Gemini asks in its path (`:streamGenerateContent`), Ollama streams
        // unless told not to, as NDJSON (docs/protocol.md §9, "Live capture: which wire").
        const ndjson = /ndjson/.test(contentType) && chat !== null && !chat.noStream
        const streamed =
          chat?.stream === true || (chat !== null && /:streamGenerateContent/.test(path)) || ndjson
        const captureThis =
          chat !== null && streamed && (status >= 400 || (status < 300 && (eventStream || ndjson)))
        if (captureThis) {
          const started = startCapture(req, status, chat.model, redactor, contentType)
          starting.add(started)
          capturing = started
        }
        const inflate = captureThis && status < 300 ? decompressor(upRes.headers['content-encoding']) : null
        const errorParts: Buffer[] = []
        let errorBytes = 0
        // The upstream is paused while the client is slow or the capture's file lags behind (`holds`), so neither
        // a slow reader nor a slow disk makes the proxy hold a fast upstream's body in memory.
        const holds = new Set<'client' | 'disk'>()
        const hold = (why: 'client' | 'disk') => {
          holds.add(why)
          upRes.pause()
          disarm() // waiting on our side, not on the upstream
        }
        const release = (why: 'client' | 'disk') => {
          holds.delete(why)
          if (holds.size > 0 || upRes.destroyed) return
          arm(timeouts.idleMs, 'no body byte')
          upRes.resume()
        }
        let unwritten = 0
        const toCapture = (bytes: Buffer) => {
          if (!captureThis) return
          if (status >= 400) {
            if (errorBytes < MAX_ERROR_BODY) errorParts.push(bytes)
            errorBytes += bytes.length
          } else if (capture !== null) {
            capture.pushBytes(bytes)
            unwritten += bytes.length
            if (unwritten < MAX_CAPTURE_AHEAD || holds.has('disk')) return
            hold('disk')
            void capture.written.then(() => {
              unwritten = 0
              release('disk')
            })
          } else void capturing?.then((c) => c?.pushBytes(bytes))
        }
        void capturing?.then((c) => (capture = c))
        if (inflate !== null) {
          inflate.on('data', toCapture)
          inflate.on('error', () => {})
        }
        upRes.on('data', (bytes: Buffer) => {
          // Pieces already read may still arrive while held: the idle clock restarts only on release.
          if (holds.size === 0) arm(timeouts.idleMs, 'no body byte')
          if (!res.write(bytes)) {
            hold('client')
            res.once('drain', () => release('client'))
          }
          if (inflate !== null) inflate.write(bytes)
          else toCapture(bytes)
        })
        upRes.on('error', () => {}) // surfaces as 'close' without `complete`
        upRes.on('close', () => {
          disarm()
          const complete = upRes.complete && ended === null
          if (complete) res.end()
          else if (!clientGone) {
            // The upstream cut the body (or we did): the client sees the same cut after the bytes it already has.
            cutting = true
            const socket = res.socket
            if (socket !== null) socket.end()
            else res.destroy()
          }
          if (!captureThis) return
          const finishCapture = () =>
            void capturing?.then((c) => {
              if (c === null) return
              if (clientGone) return c.abort()
              if (ended !== null && ended !== 'too-large') return c.fail(ended)
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
    arm(timeouts.connectMs, 'no connection')
    upstreamReq.on('socket', (socket) => {
      // A kept-alive socket is already connected; a new one is up at `connect` (http) or `secureConnect` (https).
      if (!socket.connecting) return disarm()
      socket.once(upstream.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        if (res.headersSent || ended !== null) return
        if (bodyDone) arm(timeouts.firstByteMs, 'no response')
        else disarm()
      })
    })
    upstreamReq.on('finish', () => {
      if (!res.headersSent && ended === null && timer === null) arm(timeouts.firstByteMs, 'no response')
    })
    upstreamReq.on('error', (error: Error & { code?: string }) => {
      disarm()
      if (clientGone || ended !== null) return
      if (res.headersSent) return // a cut after the head: the response's 'close' handles it
      const why = redactor.text(error.code ?? error.message)
      log(`chunkscope proxy: upstream ${upstream.host} unreachable: ${why}`)
      answer(
        502,
        `chunkscope proxy: upstream ${upstream.origin} unreachable (${why})`,
        'UPSTREAM_UNREACHABLE',
      )
    })

    // The body goes upstream as it arrives (never held whole), counted against the limit.
    req.on('data', (bytes: Buffer) => {
      if (ended !== null) return
      received += bytes.length
      if (received > maxBody) {
        ended = 'too-large'
        disarm()
        upstreamReq.destroy()
        req.resume()
        return tooLarge()
      }
      sniffer?.feed(bytes)
      if (!upstreamReq.write(bytes)) {
        req.pause()
        upstreamReq.once('drain', () => req.resume())
      }
    })
    req.on('end', () => {
      bodyDone = true
      if (ended === null) upstreamReq.end()
    })
  }

  let guard: (req: IncomingMessage) => GuardVerdict = () => ({ ok: false, reason: 'not listening yet' })
  const server = createServer({ noDelay: true }, (req, res) => {
    const verdict = guard(req)
    // Refused before a byte goes upstream: a cross-site `text/plain` POST never reaches the provider.
    if (!verdict.ok) return refuse(req, res, verdict.reason)
    if (isFeedPath(req.url ?? '/')) {
      void serveFeed(req, res, feed, feedSource, verdict.origin)
      return
    }
    forward(req, res, verdict.origin)
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  guard = requestGuard({ host, port, allowedOrigins: options.allowedOrigins ?? [] })
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
