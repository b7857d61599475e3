// The live feed's HTTP side, shared by `chunkscope proxy` and `chunkscope attach`: the same three endpoints, the same
// message shapes (src/formats/live/feedProtocol.ts) and the same Host/Origin rule (loopbackGuard.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FeedCapture } from '../formats/live/feedProtocol'
import { refuse, requestGuard, type GuardVerdict } from './loopbackGuard'
import { LiveFeed } from './proxy/feed'

export const FEED_PREFIX = '/__chunkscope/'

/** What the feed serves: the captures so far and each one's session log. */
export type FeedSource<C extends FeedCapture = FeedCapture> = {
  captures(): C[]
  /**
   * The capture's session log so far as JSONL (header line first, then events by seq), or null when there is no
   * such capture. Rejects when the log exists but cannot be read.
   */
  log(id: string): Promise<string | null>
}

/**
 * The feed is for the web app on another loopback port (or an origin allowed by flag): echo the origin the guard
 * let in (`requestGuard`); a request without one (not from a page) needs no CORS.
 */
export function corsHeaders(origin: string | null): Record<string, string> {
  return origin === null ? {} : { 'access-control-allow-origin': origin, vary: 'Origin' }
}

/** Whether `url` (a request's path and query) is one of the feed's. */
export function isFeedPath(url: string): boolean {
  return url.startsWith(FEED_PREFIX)
}

/**
 * Answers one feed request: `GET /__chunkscope/captures` (JSON list), `GET /__chunkscope/captures/<id>` (JSONL),
 * `GET /__chunkscope/events` (Server-Sent Events through `feed`: `hello` first), `OPTIONS` preflight; anything else
 * under the prefix is a JSON 404/405. `origin` is the page origin the guard let in (null: not a page).
 */
export async function serveFeed<C extends FeedCapture>(
  req: IncomingMessage,
  res: ServerResponse,
  feed: LiveFeed,
  source: FeedSource<C>,
  origin: string | null,
): Promise<void> {
  req.resume()
  const path = (req.url ?? '/').slice(FEED_PREFIX.length).split('?')[0]!
  const cors = corsHeaders(origin)
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET' }).end()
    return
  }
  const json = (status: number, value: unknown) =>
    void res.writeHead(status, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(value))
  if (req.method !== 'GET') return json(405, { error: { message: 'GET only', code: 'METHOD_NOT_ALLOWED' } })
  if (path === 'captures') return json(200, source.captures())
  if (path === 'events') return feed.subscribe(res, { type: 'hello', captures: source.captures() }, cors)
  const match = /^captures\/([^/]+)$/.exec(path)
  let id: string | null = null
  try {
    id = match ? decodeURIComponent(match[1]!) : null
  } catch {
    // a bad escape: no such capture
  }
  let text: string | null
  try {
    text = id === null ? null : await source.log(id)
  } catch {
    return json(404, { error: { message: 'capture log not readable', code: 'NOT_FOUND' } })
  }
  if (text === null) return json(404, { error: { message: 'no such capture', code: 'NOT_FOUND' } })
  res.writeHead(200, { ...cors, 'content-type': 'application/jsonl; charset=utf-8' }).end(text)
}

export type FeedServer = {
  /** `http://127.0.0.1:<port>`: the web app subscribes to `${url}/__chunkscope/events`. */
  readonly url: string
  readonly port: number
  readonly feed: LiveFeed
  close(): Promise<void>
}

/** A server with only the feed's endpoints (what `chunkscope attach` serves). */
export async function startFeedServer<C extends FeedCapture>(options: {
  readonly source: FeedSource<C>
  readonly port?: number
  readonly host?: string
  /** Page origins allowed besides loopback ones (`requestGuard`). */
  readonly allowedOrigins?: readonly string[]
}): Promise<FeedServer> {
  const feed = new LiveFeed()
  let guard: (req: IncomingMessage) => GuardVerdict = () => ({ ok: false, reason: 'not listening yet' })
  const server = createServer({ noDelay: true }, (req, res) => {
    const verdict = guard(req)
    if (!verdict.ok) return refuse(req, res, verdict.reason)
    if (isFeedPath(req.url ?? '/')) {
      void serveFeed(req, res, feed, options.source, verdict.origin)
      return
    }
    req.resume()
    res.writeHead(404, { ...corsHeaders(verdict.origin), 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: { message: `not found: the live feed is under ${FEED_PREFIX}`, code: 'NOT_FOUND' },
      }),
    )
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  guard = requestGuard({ host, port, allowedOrigins: options.allowedOrigins ?? [] })
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    feed,
    close: () =>
      new Promise<void>((resolve) => {
        feed.closeAll()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
