// `chunkscope attach`: relays a running harness web host's sessions (docs/protocol.md §10) to the Chunkscope live feed.
import WebSocket from 'ws'
import type { FeedCapture } from '../../formats/live/feedProtocol'
import { startFeedServer, type FeedServer } from '../feedServer'
import { terminalText } from '../terminalText'
import { DEFAULT_RPC_LIMITS, describeNetError, historyPage } from './hostRpc'
import { attachHeader, DEFAULT_MAX_HELD, SessionRelay, type RelayStats } from './sessionRelay'
import { isRecord } from '../../core/base/isRecord'

export type AttachOptions = {
  /** The harness web host, e.g. `http://127.0.0.1:3080` (the `dsh web` default). */
  readonly url: string
  /** The feed server's port (0 picks a free one; default 0). */
  readonly port?: number
  readonly host?: string
  /** Lines for stderr: connection changes, history failures (plain words, no stack). */
  readonly log?: (line: string) => void
  /** Reconnect delays: `initialMs` doubling up to `maxMs` (defaults 250 ms and 10 s). */
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number }
  /** Page origins allowed on the feed besides loopback ones (`requestGuard`). */
  readonly allowedOrigins?: readonly string[]
  readonly limits?: Partial<AttachLimits>
}

/** What a hostile or broken host can make the relay spend; each cap, when reached, is reported on stderr. */
export type AttachLimits = {
  /** `session.history` pages per session, over all its pulls. */
  readonly maxPagesPerSession: number
  /** One pull (all its pages) may take this long. */
  readonly pullTimeoutMs: number
  /** One history answer (the read stops there) and one socket frame. */
  readonly maxAnswerBytes: number
  /** One history call, to its last byte. */
  readonly rpcTimeoutMs: number
  /** Events held behind a missing seq, per session. */
  readonly maxHeld: number
}

/** 10,000 pages is 500,000 events at the host's page of 50: more than any real session, far less than forever. */
export const DEFAULT_ATTACH_LIMITS: AttachLimits = {
  maxPagesPerSession: 10_000,
  pullTimeoutMs: 120_000,
  maxAnswerBytes: DEFAULT_RPC_LIMITS.maxAnswerBytes,
  rpcTimeoutMs: DEFAULT_RPC_LIMITS.timeoutMs,
  maxHeld: DEFAULT_MAX_HELD,
}

export type AttachSessionStats = RelayStats & {
  /** `session.history` pulls begun for this session. */
  readonly pulls: number
  /** `session.history` pages asked for, over all pulls. */
  readonly pages: number
}

export type AttachRelay = {
  /** The feed server's base URL (`http://127.0.0.1:<port>`): give it to the web app. */
  readonly feedUrl: string
  readonly port: number
  /** The WebSocket the relay connects to. */
  readonly socketUrl: string
  /** The socket is open. */
  readonly connected: boolean
  captures(): FeedCapture[]
  /** A session's published log (JSONL: header, then events by seq), null when unknown. */
  log(sessionId: string): string | null
  stats(sessionId: string): AttachSessionStats | null
  close(): Promise<void>
}

type Tracked = {
  readonly relay: SessionRelay
  pulling: boolean
  /** A gap was seen during a pull: pull again if a hole remains after it. */
  again: boolean
  pulls: number
  pages: number
  /** Why paging stopped for good (the page cap), once said. */
  exhausted: boolean
  /** The overflow of held events was reported for the current hole (at this published seq). */
  overflowAt: number
  retry: ReturnType<typeof setTimeout> | null
  retryDelay: number
  /** What the last `capture` message said (title, finish, startedAt), to announce changes only. */
  announced: string
}

/** The host's base URL, checked: http(s), no query. */
export function hostBase(url: string): URL {
  const base = new URL(url)
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new Error(`--url must be an http(s) URL, got ${base.protocol}`)
  base.search = ''
  base.hash = ''
  return base
}

/** `http://host:3080` → `ws://host:3080/api/events.mux` (https → wss; a base path is kept). */
export function socketUrlOf(base: URL): string {
  const ws = new URL(base.href)
  ws.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:'
  ws.pathname = `${base.pathname.replace(/\/+$/, '')}/api/events.mux`
  return ws.href
}

/**
 * Starts the feed server, then connects to `${url}/api/events.mux` (no Origin header) and keeps every session it
 * hears of: backfilled from `session.history` on `session/subscribed` (all pages, newest first, until the pages
 * reach what is already held), duplicates dropped by seq, history re-pulled on a seq gap, the socket reconnected
 * with capped backoff when it closes (the sessions so far stay). Each session is one `harness` capture on the feed:
 * a synthesised header record, then its events in seq order, only the contiguous prefix (no gaps, no duplicates).
 */
export async function startAttach(options: AttachOptions): Promise<AttachRelay> {
  const base = hostBase(options.url)
  const socketUrl = socketUrlOf(base)
  // Session ids, close reasons and error messages come from the host: never raw on the terminal.
  const log = (line: string) => options.log?.(terminalText(line))
  const limits: AttachLimits = { ...DEFAULT_ATTACH_LIMITS, ...options.limits }
  const rpcLimits = { maxAnswerBytes: limits.maxAnswerBytes, timeoutMs: limits.rpcTimeoutMs }
  const initialMs = options.backoff?.initialMs ?? 250
  const maxMs = options.backoff?.maxMs ?? 10_000
  const sessions = new Map<string, Tracked>()
  const aborter = new AbortController()
  let stopped = false
  let socket: WebSocket | null = null
  let open = false
  let everOpen = false
  let delay = initialMs
  let reconnect: ReturnType<typeof setTimeout> | null = null
  let problem: string | null = null
  let lastLogged: string | null = null

  const feedServer: FeedServer = await startFeedServer({
    port: options.port ?? 0,
    ...(options.host !== undefined ? { host: options.host } : {}),
    allowedOrigins: options.allowedOrigins ?? [],
    source: {
      captures: () => [...sessions.values()].map((tracked) => tracked.relay.summary()),
      log: async (id) => sessions.get(id)?.relay.log() ?? null,
    },
  })
  const feed = feedServer.feed

  const announce = (tracked: Tracked) => {
    const capture = tracked.relay.summary()
    const key = JSON.stringify([capture.title, capture.finish, capture.startedAt])
    if (key === tracked.announced) return
    tracked.announced = key
    feed.publish({ type: 'capture', capture })
  }

  const publish = (tracked: Tracked) => {
    const records = tracked.relay.drain()
    if (records.length === 0) return
    announce(tracked)
    for (const record of records) feed.publish({ type: 'record', captureId: tracked.relay.id, record })
  }

  const track = (sessionId: string): Tracked => {
    const known = sessions.get(sessionId)
    if (known !== undefined) return known
    const relay = new SessionRelay(
      sessionId,
      attachHeader(sessionId, base.href.replace(/\/$/, '')),
      limits.maxHeld,
    )
    const tracked: Tracked = {
      relay,
      pulling: false,
      again: false,
      pulls: 0,
      pages: 0,
      exhausted: false,
      overflowAt: -1,
      retry: null,
      retryDelay: initialMs,
      announced: '',
    }
    sessions.set(sessionId, tracked)
    announce(tracked)
    feed.publish({ type: 'record', captureId: sessionId, record: relay.header })
    return tracked
  }

  /** Why a pull ended early, on stderr: the events after the hole keep waiting. */
  const stopPaging = (tracked: Tracked, why: string) =>
    say(
      `chunkscope attach: session ${tracked.relay.id}: ${why}; events after seq ${tracked.relay.published} wait`,
    )

  const noteAdded = (tracked: Tracked, added: ReturnType<SessionRelay['add']>) => {
    if (added !== 'overflow' || tracked.overflowAt === tracked.relay.published) return
    tracked.overflowAt = tracked.relay.published
    say(
      `chunkscope attach: session ${tracked.relay.id}: seq ${tracked.relay.published} is missing and ` +
        `${limits.maxHeld} events wait behind it (the cap); later ones are dropped until it arrives`,
    )
  }

  /** Pulls the history newest page first until the pages reach what is already published. */
  const pull = async (tracked: Tracked): Promise<void> => {
    if (stopped || tracked.exhausted) return
    if (tracked.pulling) {
      tracked.again = true
      return
    }
    if (tracked.retry !== null) clearTimeout(tracked.retry)
    tracked.retry = null
    tracked.pulling = true
    tracked.again = false
    tracked.pulls += 1
    const { relay } = tracked
    let failed = false
    try {
      let before: number | undefined
      const deadline = Date.now() + limits.pullTimeoutMs
      for (;;) {
        if (tracked.pages >= limits.maxPagesPerSession) {
          tracked.exhausted = true
          stopPaging(tracked, `stopped paging its history after ${limits.maxPagesPerSession} pages (the cap)`)
          break
        }
        if (Date.now() > deadline) {
          stopPaging(tracked, `stopped paging its history after ${seconds(limits.pullTimeoutMs)} (the cap)`)
          break
        }
        tracked.pages += 1
        const page = await historyPage(base, relay.id, before, aborter.signal, rpcLimits)
        let oldest = Infinity
        for (const event of page.events) {
          noteAdded(tracked, relay.add(event))
          const seq = isRecord(event) ? event['seq'] : undefined
          if (typeof seq === 'number' && seq < oldest) oldest = seq
        }
        publish(tracked)
        if (!page.hasMore || oldest === Infinity || oldest <= relay.published) break
        // Each page must reach further back, or paging would never end (a host ignoring beforeSeq).
        if (before !== undefined && oldest >= before) {
          stopPaging(
            tracked,
            `the host ignored beforeSeq (asked for events before seq ${before}, got seq ${oldest} and up); stopped paging`,
          )
          break
        }
        before = oldest
      }
      tracked.retryDelay = initialMs
    } catch (error) {
      failed = true
      if (!stopped) {
        log(
          `chunkscope attach: session ${relay.id}: ${(error as Error).message}; retrying in ${seconds(tracked.retryDelay)}`,
        )
        tracked.retry = setTimeout(() => void pull(tracked), tracked.retryDelay)
        tracked.retryDelay = Math.min(tracked.retryDelay * 2, maxMs)
      }
    } finally {
      tracked.pulling = false
    }
    if (stopped || failed) return
    if (relay.hasHole && tracked.again) return pull(tracked)
    if (relay.hasHole)
      log(
        `chunkscope attach: session ${relay.id}: seq ${relay.published} is missing from the host's history; ` +
          `events after it wait (they are published once it arrives)`,
      )
  }

  const onFrame = (text: string) => {
    let frame: unknown
    try {
      frame = JSON.parse(text)
    } catch {
      return
    }
    if (!isRecord(frame) || frame['type'] !== 'server-request' || !isRecord(frame['payload'])) return
    const payload = frame['payload']
    const sessionId = payload['sessionId']
    if (typeof sessionId !== 'string') return
    if (frame['method'] === 'session/subscribed') {
      void pull(track(sessionId))
    } else if (frame['method'] === 'session/event') {
      const fresh = !sessions.has(sessionId)
      const tracked = track(sessionId)
      const added = tracked.relay.add(payload['event'])
      noteAdded(tracked, added)
      if (added === 'gap' || fresh) void pull(tracked)
      if (added === 'added' || added === 'gap') publish(tracked)
    }
  }

  const say = (line: string) => {
    if (line === lastLogged) return
    lastLogged = line
    log(line)
  }

  const connect = () => {
    reconnect = null
    if (stopped) return
    const ws = new WebSocket(socketUrl, {
      handshakeTimeout: 10_000,
      followRedirects: false,
      maxPayload: limits.maxAnswerBytes,
    })
    socket = ws
    ws.on('open', () => {
      open = true
      delay = initialMs
      if (problem !== null || everOpen) say(`chunkscope attach: connected to ${socketUrl}`)
      everOpen = true
      problem = null
    })
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
      if (!isBinary) onFrame(rawText(data))
    })
    ws.on('error', (error: Error & { code?: string }) => {
      problem = describeSocketError(error)
    })
    ws.on('close', (code: number, reason: Buffer) => {
      const wasOpen = open
      open = false
      socket = null
      if (stopped) return
      const wait = delay
      delay = Math.min(delay * 2, maxMs)
      const kept = sessions.size === 1 ? '1 session so far stays' : `${sessions.size} sessions so far stay`
      if (wasOpen) {
        const why = reason.length > 0 ? ` ${reason.toString('utf8')}` : ''
        say(
          `chunkscope attach: the connection to ${socketUrl} closed (code ${code}${why}); reconnecting in ${seconds(wait)} (${kept})`,
        )
      } else {
        say(
          `chunkscope attach: cannot reach the harness at ${socketUrl}: ${problem ?? `closed (code ${code})`}; ` +
            `retrying with backoff (up to ${seconds(maxMs)})`,
        )
      }
      reconnect = setTimeout(connect, wait)
    })
  }
  connect()

  return {
    feedUrl: feedServer.url,
    port: feedServer.port,
    socketUrl,
    get connected() {
      return open
    },
    captures: () => [...sessions.values()].map((tracked) => tracked.relay.summary()),
    log: (sessionId) => sessions.get(sessionId)?.relay.log() ?? null,
    stats: (sessionId) => {
      const tracked = sessions.get(sessionId)
      return tracked === undefined
        ? null
        : { ...tracked.relay.stats(), pulls: tracked.pulls, pages: tracked.pages }
    },
    close: async () => {
      stopped = true
      if (reconnect !== null) clearTimeout(reconnect)
      for (const tracked of sessions.values()) if (tracked.retry !== null) clearTimeout(tracked.retry)
      aborter.abort()
      socket?.terminate()
      await feedServer.close()
    },
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8')
  return data.toString('utf8')
}

/** Why the socket failed, in plain words: `connection refused`, `the host answered HTTP 403 (…)`, … */
function describeSocketError(error: Error & { code?: string }): string {
  const status = /Unexpected server response: (\d+)/.exec(error.message)
  if (status !== null) {
    const code = Number(status[1])
    if (code === 403) return 'the host answered HTTP 403 (it refuses a foreign Origin)'
    if (code === 404) return 'the host answered HTTP 404 (no /api/events.mux: is this a harness web host?)'
    return `the host answered HTTP ${code}`
  }
  return describeNetError(error)
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`
}
