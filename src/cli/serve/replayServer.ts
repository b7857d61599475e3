// The HTTP side of `chunkscope serve`: every POST gets the recording's body again, paced as it was recorded, with
// the scripted faults; only this machine's programs and pages may call it (loopbackGuard.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { refuse, requestGuard, type GuardVerdict } from '../loopbackGuard'
import type { WireDialect, WireEvent } from './encodeWire'

export type Faults = {
  /** Close the connection before the wire events of chunk K (no end marker). */
  readonly cutAt?: number
  /** Pause `ms` before the wire events of chunk K. */
  readonly stallAt?: { readonly at: number; readonly ms: number }
  /** Answer every request with this HTTP status and the dialect's error body instead of the stream. */
  readonly httpStatus?: number
}

export type ReplayBody = {
  readonly events: readonly WireEvent[]
  /** Milliseconds after the first event at which each chunk was received (null: no timing). */
  readonly times: readonly (number | null)[]
  readonly dialect: WireDialect
}

export type ReplayServerOptions = {
  readonly body: ReplayBody
  readonly port: number
  readonly host?: string
  /** 1 = as recorded, 2 = twice as fast; 0 or Infinity = no pauses (`--no-timing`). */
  readonly speed: number
  readonly faults?: Faults
  readonly log?: (line: string) => void
}

export type ReplayServer = { readonly url: string; readonly close: () => Promise<void> }

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export async function startReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  const host = options.host ?? '127.0.0.1'
  const server = createServer()
  let guard: ((req: IncomingMessage) => GuardVerdict) | null = null
  let served = 0
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const verdict = guard?.(req) ?? { ok: false as const, reason: 'the server is starting' }
    if (!verdict.ok) return refuse(req, res, verdict.reason)
    const cors =
      verdict.origin !== null ? { 'access-control-allow-origin': verdict.origin, vary: 'Origin' } : {}
    if (req.method === 'OPTIONS') {
      req.resume()
      return res
        .writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
        })
        .end()
    }
    if (req.method !== 'POST') {
      req.resume()
      return res
        .writeHead(405, { 'content-type': 'application/json', ...cors })
        .end(
          JSON.stringify({ error: { message: 'POST a chat completion or message request', code: 'METHOD' } }),
        )
    }
    served += 1
    options.log?.(`request ${served}: ${req.method} ${req.url ?? '/'}`)
    // The request body does not change the answer; it is read only so the client's write completes.
    req.resume()
    req.once('end', () => void replay(res, options, cors))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  guard = requestGuard({ host, port })
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function replay(res: ServerResponse, options: ReplayServerOptions, cors: Record<string, string>) {
  const { body, faults = {} } = options
  if (faults.httpStatus !== undefined) {
    res
      .writeHead(faults.httpStatus, {
        'content-type': 'application/json',
        ...(faults.httpStatus === 429 ? { 'retry-after': '1' } : {}),
        ...cors,
      })
      .end(JSON.stringify(errorBody(body.dialect, faults.httpStatus)))
    return
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...cors,
  })
  let closed = false
  res.once('close', () => (closed = true))
  const paced = options.speed > 0 && Number.isFinite(options.speed)
  let clock = 0
  let lastChunk = -1
  for (const event of body.events) {
    if (closed) return
    if (event.chunk !== lastChunk) {
      lastChunk = event.chunk
      if (faults.cutAt !== undefined && event.chunk >= faults.cutAt) {
        // A dropped connection, not a clean end (no chunked-body terminator): what a crashed upstream or a proxy
        // timeout looks like. end() on the socket sends what was written first; destroy() would discard it.
        res.socket?.end()
        return
      }
      if (faults.stallAt !== undefined && event.chunk === faults.stallAt.at) await wait(faults.stallAt.ms)
      const at = body.times[event.chunk] ?? null
      if (paced && at !== null && at > clock) {
        await wait((at - clock) / options.speed)
        clock = at
      }
    }
    res.write(event.text)
  }
  res.end()
}

/** The error body each API sends with an HTTP failure, so the adapter classifies it as it would the real one. */
function errorBody(dialect: WireDialect, status: number): unknown {
  const message =
    status === 429 ? 'rate limited (chunkscope serve --http 429)' : `chunkscope serve --http ${status}`
  if (dialect === 'anthropic')
    return {
      type: 'error',
      error: {
        type: status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error',
        message,
      },
    }
  return { error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', code: null } }
}
