import { request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import {
  scriptTurn,
  startMockHarnessHost,
  textAnswer,
  waitFor,
  type HostEvent,
  type MockHarnessHost,
} from './mockHarnessHost'

let host: MockHarnessHost

beforeEach(async () => {
  host = await startMockHarnessHost({ pageSize: 4 })
})

afterEach(async () => {
  await host.close()
})

type Frame = { type: string; rpcId: string; method: string; payload: Record<string, unknown> }

/** Opens the mux socket; resolves with the socket and the frames it receives, or the refusal's HTTP status. */
function connect(
  headers: Record<string, string> = {},
): Promise<{ socket: WebSocket; frames: Frame[] } | { status: number }> {
  const socket = new WebSocket(`${host.url.replace('http:', 'ws:')}/api/events.mux`, { headers })
  const frames: Frame[] = []
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame))
  return new Promise((resolve, reject) => {
    socket.on('open', () => resolve({ socket, frames }))
    socket.on('unexpected-response', (_req, res) => {
      res.resume()
      socket.terminate()
      resolve({ status: res.statusCode ?? 0 })
    })
    socket.on('error', reject)
  })
}

function post(
  method: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { type?: string; rpcId?: unknown; result?: Record<string, unknown> } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${host.url}/api/${method}`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (part: Buffer) => parts.push(part))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8')) }),
        )
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ type: 'client-request', rpcId: 'r1', method, payload }))
  })
}

describe('mock harness host', () => {
  it('refuses the upgrade with 403 for a foreign Origin, accepts no Origin and a same-host one', async () => {
    expect(await connect({ origin: 'http://evil.example:5173' })).toEqual({ status: 403 })
    const sameHost = await connect({ origin: host.url })
    expect('socket' in sameHost).toBe(true)
    const none = await connect()
    expect('socket' in none).toBe(true)
    await waitFor('two sockets', () => host.sockets === 2)
    if ('socket' in sameHost) sameHost.socket.close()
    if ('socket' in none) none.socket.close()
    await waitFor('no sockets', () => host.sockets === 0)
  })

  it('applies the same Origin check to /api', async () => {
    host.addSession('s1')
    expect((await post('session.list', {}, { origin: 'http://127.0.0.1:1' })).status).toBe(403)
    const listed = await post('session.list', {})
    expect(listed.body.result).toEqual({
      ok: true,
      value: { sessions: [{ id: 's1', title: null, lastSeq: -1 }] },
    })
  })

  it('sends session/subscribed per session on connect and when one is added, then every event', async () => {
    host.addSession('s1')
    host.emit('s1', { type: 'turn/start', data: { turn: 1 } })
    const opened = await connect()
    if (!('socket' in opened)) throw new Error('refused')
    const { frames, socket } = opened
    await waitFor('subscribed', () => frames.length === 1)
    expect(frames[0]).toMatchObject({
      type: 'server-request',
      method: 'session/subscribed',
      payload: { sessionId: 's1', lastSeq: 0 },
    })
    host.addSession('s2', 'second')
    const turn = scriptTurn(host, 's2', 1, textAnswer('he', 'llo'), { title: 'Say hello' })
    host.resend('s2', 0)
    await waitFor('events', () => frames.length === 2 + turn.length + 1)
    expect(frames[1]).toMatchObject({
      method: 'session/subscribed',
      payload: { sessionId: 's2', lastSeq: -1 },
    })
    const events = frames.slice(2).map((frame) => {
      expect(frame.method).toBe('session/event')
      expect(frame.payload['type']).toBe('session/event')
      expect(frame.payload['sessionId']).toBe('s2')
      return frame.payload['event'] as HostEvent
    })
    expect(events.map((event) => event.seq)).toEqual([...turn.map((event) => event.seq), 0])
    expect(turn.map((event) => event.type)).toEqual([
      'turn/start',
      'user/message',
      'session/title',
      'step/start',
      ...textAnswer('he', 'llo').map(() => 'assistant/chunk'),
      'assistant/message',
      'step/end',
      'turn/end',
    ])
    const message = turn.find((event) => event.type === 'assistant/message')!
    expect(message.sourceEventSeqs).toEqual(
      turn.filter((event) => event.type === 'assistant/chunk').map((event) => event.seq),
    )
    expect((message.data as { message: { content: unknown } }).message.content).toEqual([
      { type: 'text', text: 'hello' },
    ])
    socket.close()
  })

  it('misses a silent event on the socket but keeps it in the history', async () => {
    host.addSession('s1')
    const opened = await connect()
    if (!('socket' in opened)) throw new Error('refused')
    host.emit('s1', { type: 'turn/start', data: { turn: 1 } })
    host.emitSilently('s1', { type: 'step/start', data: { turn: 1, step: 1 } })
    host.emit('s1', { type: 'step/end', data: { turn: 1, step: 1 } })
    await waitFor('events', () => opened.frames.length === 3)
    const seqs = opened.frames.slice(1).map((frame) => (frame.payload['event'] as HostEvent).seq)
    expect(seqs).toEqual([0, 2])
    expect(host.events('s1').map((event) => event.seq)).toEqual([0, 1, 2])
    opened.socket.close()
  })

  it('closes the socket with 1008 when the client sends anything', async () => {
    const opened = await connect()
    if (!('socket' in opened)) throw new Error('refused')
    const closed = new Promise<number>((resolve) => opened.socket.on('close', (code) => resolve(code)))
    opened.socket.send('{"type":"client-request"}')
    expect(await closed).toBe(1008)
  })

  it('pages session.history backwards from beforeSeq, newest page first', async () => {
    host.addSession('s1')
    for (let turn = 1; turn <= 10; turn++) host.emit('s1', { type: 'turn/start', data: { turn } })
    const seqsOf = (result: Record<string, unknown> | undefined) => {
      const value = (result as { value: { events: { event: HostEvent }[]; hasMore: boolean } }).value
      return { seqs: value.events.map((item) => item.event.seq), hasMore: value.hasMore }
    }
    const first = await post('session.history', { sessionId: 's1' })
    expect(first.body).toMatchObject({ type: 'server-response', rpcId: 'r1' })
    expect(seqsOf(first.body.result)).toEqual({ seqs: [6, 7, 8, 9], hasMore: true })
    const second = await post('session.history', { sessionId: 's1', beforeSeq: 6 })
    expect(seqsOf(second.body.result)).toEqual({ seqs: [2, 3, 4, 5], hasMore: true })
    const last = await post('session.history', { sessionId: 's1', beforeSeq: 2 })
    expect(seqsOf(last.body.result)).toEqual({ seqs: [0, 1], hasMore: false })
    const sized = await post('session.history', { sessionId: 's1', maxMessages: 2 })
    expect(seqsOf(sized.body.result)).toEqual({ seqs: [8, 9], hasMore: true })
    const unknown = await post('session.history', { sessionId: 'nope' })
    expect(unknown.body.result).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(host.historyRequests.map((request) => request.beforeSeq)).toEqual([
      undefined,
      6,
      2,
      undefined,
      undefined,
    ])
  })
})
