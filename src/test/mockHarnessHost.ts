// A scripted DeepSeek Harness web host (`dsh web`, docs/protocol.md §10) for tests: loopback only.
// WebSocket `GET /api/events.mux` (downlink only), `POST /api/session.history`, `POST /api/session.list`, and the real
// host's Origin check. Tests script what the sessions log; the host numbers the events and broadcasts them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { BlockAssembler } from '../core/BlockAssembler'
import type { ContentBlock, StreamChunk } from '../core/protocol'
import { be, bs, finish, td, text, usage } from './chunks'

/** An event as a test scripts it: the host adds `seq` (and `time` when missing). */
export type ScriptedEvent = {
  readonly type: string
  readonly data: unknown
  readonly time?: number
  readonly sourceEventSeqs?: readonly number[]
}

/** An event as the host logged it (what `session/event` frames and `session.history` carry). */
export type HostEvent = ScriptedEvent & { readonly seq: number; readonly time: number }

export type HistoryRequest = {
  readonly sessionId: unknown
  readonly maxMessages?: unknown
  readonly beforeSeq?: unknown
}

export type MockHarnessHost = {
  /** `http://127.0.0.1:<port>`: what `chunkscope attach --url` takes. */
  readonly url: string
  /** Adds a session (no events yet) and sends `session/subscribed` on every open socket. */
  addSession(id: string, title?: string): void
  /** Appends an event with the session's next seq and broadcasts it as a `session/event` frame. */
  emit(sessionId: string, event: ScriptedEvent): HostEvent
  /** Appends an event to the history only: sockets miss it, so the next `emit` shows them a seq gap. */
  emitSilently(sessionId: string, event: ScriptedEvent): HostEvent
  /** Broadcasts an already-sent event again (a duplicate). */
  resend(sessionId: string, seq: number): void
  /** The session's logged events, in seq order. */
  events(sessionId: string): readonly HostEvent[]
  /** Closes every open socket from the server side (default 1012, service restart): clients must reconnect. */
  dropSockets(code?: number, reason?: string): void
  /**
   * Holds every `session.history` answer until the returned function is called; each answer is computed then, so
   * events emitted meanwhile are in it as well as on the socket (a backfill overlapping the live feed).
   */
  pauseHistory(): () => void
  /** Open WebSocket connections. */
  readonly sockets: number
  /** Every `session.history` payload received, in order. */
  readonly historyRequests: readonly HistoryRequest[]
  /** What an honest host answers to `request` now. */
  history(request: HistoryRequest): HistoryResult
  close(): Promise<void>
}

export type MockHarnessHostOptions = {
  /** Events per `session.history` page when the request names no `maxMessages` (default 50). */
  readonly pageSize?: number
  /**
   * A hostile or broken host: given the request and the honest `result`, returns the `result` to send instead, or
   * a function that writes the whole HTTP answer itself (a huge or endless body). See {@link hostileHistory}.
   */
  readonly answerHistory?: (request: HistoryRequest, honest: HistoryResult) => unknown
}

/** What `session.history` answers: `{ok:true, value:{events:[{event}], hasMore}}` or `{ok:false, error}`. */
export type HistoryResult =
  | { ok: true; value: { events: { event: HostEvent }[]; hasMore: boolean } }
  | { ok: false; error: { code: string; message: string } }

/** Hostile `session.history` behaviours for `answerHistory`. */
export const hostileHistory = {
  /** Always `hasMore: true`, whatever the page holds. */
  hasMoreForever: (_: HistoryRequest, honest: HistoryResult): unknown =>
    honest.ok ? { ok: true, value: { ...honest.value, hasMore: true } } : honest,
  /** The newest page every time, as if `beforeSeq` were absent, and `hasMore: true`. */
  ignoreBeforeSeq: (newest: () => HistoryResult) => (): unknown => {
    const page = newest()
    return page.ok ? { ok: true, value: { ...page.value, hasMore: true } } : page
  },
  /** A 200 answer of `bytes` bytes (a JSON prefix, then padding), written as fast as the client reads. */
  huge: (bytes: number) => (): ((res: ServerResponse) => void) => (res) => {
    const piece = Buffer.alloc(1024 * 1024, 0x20)
    let left = bytes
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"type":"server-response","rpcId":"x","result":{"ok":true,"value":{"events":[')
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left -= piece.length
        if (!res.write(piece)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end('],"hasMore":false}}}')
    }
    pump()
  },
  /** The honest answer without the events of these seqs (a hole the history never fills). */
  withoutSeqs:
    (...seqs: number[]) =>
    (_: HistoryRequest, honest: HistoryResult): unknown =>
      honest.ok
        ? {
            ok: true,
            value: {
              ...honest.value,
              events: honest.value.events.filter(({ event }) => !seqs.includes(event.seq)),
            },
          }
        : honest,
  /** Never answers. */
  hang: (): ((res: ServerResponse) => void) => () => {},
}

type HostSession = { readonly id: string; title: string | null; readonly events: HostEvent[] }

/** The real host's rule: an `Origin` whose host:port differs from the `Host` header is refused. */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  try {
    return new URL(origin).host === req.headers.host
  } catch {
    return false
  }
}

/**
 * Starts the mock host on 127.0.0.1, port 0.
 *
 * @example
 * const host = await startMockHarnessHost()
 * host.addSession('s1')
 * scriptTurn(host, 's1', 1, [bs(0, 'text'), td(0, 'hi'), be(0, text('hi')), finish('stop')])
 */
export async function startMockHarnessHost(options: MockHarnessHostOptions = {}): Promise<MockHarnessHost> {
  const pageSize = options.pageSize ?? 50
  const sessions = new Map<string, HostSession>()
  const historyRequests: HistoryRequest[] = []
  const wss = new WebSocketServer({ noServer: true })
  let rpc = 0
  let paused: Promise<void> | null = null

  const frame = (method: string, payload: unknown) =>
    JSON.stringify({ type: 'server-request', rpcId: `host-${++rpc}`, method, payload })
  const broadcast = (text: string) => {
    for (const socket of wss.clients) if (socket.readyState === socket.OPEN) socket.send(text)
  }
  const subscribed = (session: HostSession) =>
    frame('session/subscribed', {
      sessionId: session.id,
      lastSeq: session.events.length - 1,
    })
  const eventFrame = (session: HostSession, event: HostEvent) =>
    frame('session/event', { type: 'session/event', sessionId: session.id, event })
  const sessionOf = (id: string) => {
    const session = sessions.get(id)
    if (session === undefined) throw new Error(`mock harness host: no session ${id}`)
    return session
  }
  const append = (sessionId: string, scripted: ScriptedEvent): [HostSession, HostEvent] => {
    const session = sessionOf(sessionId)
    const event: HostEvent = { ...scripted, seq: session.events.length, time: scripted.time ?? Date.now() }
    session.events.push(event)
    if (event.type === 'session/title') {
      const title = (event.data as { title?: unknown } | null)?.title
      if (typeof title === 'string') session.title = title
    }
    return [session, event]
  }

  wss.on('connection', (socket: WebSocket) => {
    for (const session of sessions.values()) socket.send(subscribed(session))
    // Downlink only: any message from the client closes the socket (policy violation).
    socket.on('message', () => socket.close(1008, 'downlink only'))
    socket.on('error', () => {})
  })

  const refuse = (res: ServerResponse, status: number, message: string): void =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: message }))

  const respond = (res: ServerResponse, rpcId: unknown, result: unknown): void =>
    void res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ type: 'server-response', rpcId, result }))

  const history = (payload: HistoryRequest): HistoryResult => {
    const session = typeof payload.sessionId === 'string' ? sessions.get(payload.sessionId) : undefined
    if (session === undefined)
      return {
        ok: false,
        error: { code: 'NOT_FOUND', message: `unknown session ${String(payload.sessionId)}` },
      }
    const size =
      typeof payload.maxMessages === 'number' && payload.maxMessages > 0 ? payload.maxMessages : pageSize
    const before =
      typeof payload.beforeSeq === 'number'
        ? Math.min(payload.beforeSeq, session.events.length)
        : session.events.length
    const start = Math.max(0, before - size)
    const events = session.events.slice(start, before).map((event) => ({ event }))
    return { ok: true, value: { events, hasMore: start > 0 } }
  }

  const server = createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]
      if (!path?.startsWith('/api/')) return refuse(res, 404, 'not found')
      if (!originAllowed(req)) return refuse(res, 403, 'origin not allowed')
      if (req.method !== 'POST') return refuse(res, 405, 'POST only')
      let body: { rpcId?: unknown; method?: unknown; payload?: unknown }
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body
      } catch {
        return refuse(res, 400, 'malformed JSON')
      }
      const payload = (
        typeof body.payload === 'object' && body.payload !== null ? body.payload : {}
      ) as HistoryRequest
      if (path === '/api/session.history') {
        historyRequests.push(payload)
        const answer = () => {
          const honest = history(payload)
          const result = options.answerHistory?.(payload, honest) ?? honest
          if (typeof result === 'function') return void (result as (res: ServerResponse) => void)(res)
          respond(res, body.rpcId, result)
        }
        return paused === null ? answer() : void paused.then(answer)
      }
      if (path === '/api/session.list') {
        const list = [...sessions.values()].map((session) => ({
          id: session.id,
          title: session.title,
          lastSeq: session.events.length - 1,
        }))
        return respond(res, body.rpcId, { ok: true, value: { sessions: list } })
      }
      refuse(res, 404, 'unknown method')
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {})
    const reject = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`)
    }
    if ((req.url ?? '').split('?')[0] !== '/api/events.mux') return reject('404 Not Found')
    if (!originAllowed(req)) return reject('403 Forbidden')
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    addSession(id, title) {
      if (sessions.has(id)) throw new Error(`mock harness host: session ${id} exists`)
      const session: HostSession = { id, title: title ?? null, events: [] }
      sessions.set(id, session)
      broadcast(subscribed(session))
    },
    emit(sessionId, scripted) {
      const [session, event] = append(sessionId, scripted)
      broadcast(eventFrame(session, event))
      return event
    },
    emitSilently: (sessionId, scripted) => append(sessionId, scripted)[1],
    resend(sessionId, seq) {
      const session = sessionOf(sessionId)
      const event = session.events[seq]
      if (event === undefined) throw new Error(`mock harness host: ${sessionId} has no seq ${seq}`)
      broadcast(eventFrame(session, event))
    },
    events: (sessionId) => sessionOf(sessionId).events,
    pauseHistory() {
      let release = () => {}
      paused = new Promise<void>((resolve) => (release = resolve))
      return () => {
        paused = null
        release()
      }
    },
    dropSockets(code = 1012, reason = 'service restart') {
      for (const socket of wss.clients) socket.close(code, reason)
    },
    get sockets() {
      return wss.clients.size
    },
    historyRequests,
    history,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of wss.clients) socket.terminate()
        wss.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type TurnOptions = {
  readonly step?: number
  /** A user prompt logged as `user/message` after `turn/start` (default `turn <n>`). */
  readonly prompt?: string
  /** Logs `session/title` after the user message (as the harness does on a session's first turn). */
  readonly title?: string
  /** Events for which this returns true are only logged (`emitSilently`): the socket misses them. */
  readonly silent?: (event: HostEvent) => boolean
}

/**
 * Scripts one whole turn of one step as the harness logs it (§6): `turn/start`, `user/message`, [`session/title`],
 * `step/start`, one `assistant/chunk` per chunk, then — when the chunks end with a stop / tool-calls / max-tokens
 * finish — `assistant/message` with the assembled blocks and `sourceEventSeqs` = every chunk seq, `step/end`, and
 * `turn/end` (`completed`, `max-tokens`, or `error` for an error finish). Returns the logged events.
 */
export function scriptTurn(
  host: MockHarnessHost,
  sessionId: string,
  turn: number,
  chunks: readonly StreamChunk[],
  options: TurnOptions = {},
): HostEvent[] {
  const step = options.step ?? 1
  const logged: HostEvent[] = []
  const log = (event: ScriptedEvent) => {
    const next = host.events(sessionId).length
    const probe: HostEvent = { ...event, seq: next, time: event.time ?? Date.now() }
    const written = options.silent?.(probe)
      ? host.emitSilently(sessionId, event)
      : host.emit(sessionId, event)
    logged.push(written)
    return written
  }
  log({ type: 'turn/start', data: { turn } })
  log({
    type: 'user/message',
    data: {
      role: 'user',
      content: [{ type: 'text', text: options.prompt ?? `turn ${turn}` }],
      source: { kind: 'user' },
      id: `${sessionId}-user-${turn}`,
    },
  })
  if (options.title !== undefined)
    log({ type: 'session/title', data: { title: options.title, source: { kind: 'fallback' } } })
  log({ type: 'step/start', data: { turn, step } })
  const assembler = new BlockAssembler()
  const seqs: number[] = []
  let finish: StreamChunk | null = null
  for (const chunk of chunks) {
    seqs.push(log({ type: 'assistant/chunk', data: { turn, step, chunk } }).seq)
    assembler.push(chunk)
    if (chunk.type === 'finish') finish = chunk
  }
  const kind = finish?.type === 'finish' ? finish.reason.kind : null
  if (kind === 'stop' || kind === 'tool-calls' || kind === 'max-tokens') {
    const content: ContentBlock[] = assembler.blocks()
    log({
      type: 'assistant/message',
      data: {
        turn,
        step,
        message: {
          role: 'assistant',
          content,
          source: { kind: 'model', provider: 'mock', model: 'mock-model' },
          id: `${sessionId}-message-${turn}-${step}`,
        },
      },
      sourceEventSeqs: seqs,
    })
  }
  log({ type: 'step/end', data: { turn, step } })
  const reason =
    finish?.type === 'finish' && finish.reason.kind === 'error'
      ? { kind: 'error', error: finish.reason.failure }
      : kind === 'max-tokens'
        ? { kind: 'max-tokens' }
        : { kind: 'completed' }
  log({ type: 'turn/end', data: { turn, reason } })
  return logged
}

/** A well-formed text answer streamed in `pieces`: block-start, one text-delta per piece, block-end, usage, stop. */
export function textAnswer(...pieces: readonly string[]): StreamChunk[] {
  return [
    bs(0, 'text'),
    ...pieces.map((piece) => td(0, piece)),
    be(0, text(pieces.join(''))),
    usage(12, pieces.length),
    finish('stop'),
  ]
}

/**
 * Polls `check` (sync or async) until it gives a value other than undefined/false, or rejects after `timeoutMs`
 * naming `what`.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
