import { createServer, request, type ClientRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compareRecorded } from '../../core/session'
import type { FeedCapture, FeedMessage, FeedRecord } from '../../formats/live/feedProtocol'
import { loadSource } from '../../formats/load'
import { readSessionJsonl } from '../../formats/sessionJsonl'
import { be, bs, finish, rd, reasoning, tcd, td, text, toolCall, usage } from '../../test/chunks'
import {
  scriptTurn,
  startMockHarnessHost,
  textAnswer,
  waitFor,
  type MockHarnessHost,
} from '../../test/mockHarnessHost'
import { getText } from '../proxy/testClient'
import { startAttach, type AttachRelay } from './attach'

let host: MockHarnessHost
let relay: AttachRelay | null = null
let lines: string[]

beforeEach(async () => {
  host = await startMockHarnessHost({ pageSize: 5 })
  lines = []
})

afterEach(async () => {
  await relay?.close()
  relay = null
  await host.close()
})

async function attach(): Promise<AttachRelay> {
  relay = await startAttach({
    url: host.url,
    port: 0,
    log: (line) => lines.push(line),
    backoff: { initialMs: 10, maxMs: 50 },
  })
  return relay
}

/** Everything the host logged for a session, as the JSONL lines attach must publish after its header. */
function hostLines(sessionId: string): string[] {
  return host.events(sessionId).map((event) => JSON.stringify(event))
}

function published(r: AttachRelay, sessionId: string): string[] {
  return (r.log(sessionId) ?? '').trimEnd().split('\n').slice(1)
}

async function caughtUp(r: AttachRelay, sessionId: string): Promise<void> {
  await waitFor(`${sessionId} relayed`, () => r.stats(sessionId)?.published === host.events(sessionId).length)
}

/** Subscribes to the feed's Server-Sent Events and collects every message. */
function subscribe(feedUrl: string): { messages: FeedMessage[]; close: () => void } {
  const messages: FeedMessage[] = []
  let buffer = ''
  const req: ClientRequest = request(`${feedUrl}/__chunkscope/events`, { agent: false }, (res) => {
    res.setEncoding('utf8')
    res.on('data', (piece: string) => {
      buffer += piece
      for (let cut = buffer.indexOf('\n\n'); cut !== -1; cut = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, cut)
        buffer = buffer.slice(cut + 2)
        if (frame.startsWith('data: ')) messages.push(JSON.parse(frame.slice(6)) as FeedMessage)
      }
    })
    res.on('error', () => {})
  })
  req.on('error', () => {})
  req.end()
  return { messages, close: () => req.destroy() }
}

const toolTurn = [
  bs(0, 'reasoning'),
  rd(0, 'Look '),
  rd(0, 'it up.'),
  be(0, reasoning('Look it up.')),
  bs(1, 'tool-call'),
  tcd(1, 'call-1', 'search', '{"q":'),
  tcd(1, 'call-1', undefined, '"ws"}'),
  be(1, toolCall('call-1', 'search', '{"q":"ws"}')),
  usage(20, 9),
  finish('tool-calls'),
]

describe('chunkscope attach', () => {
  it('backfills what the session logged before it connected (every page), then relays live events', async () => {
    host.addSession('s1')
    scriptTurn(host, 's1', 1, textAnswer('Hel', 'lo', ' there'), { title: 'Greet the user' })
    scriptTurn(host, 's1', 2, toolTurn)
    const r = await attach()
    await caughtUp(r, 's1')
    const pages = host.historyRequests.length
    expect(pages).toBe(Math.ceil(host.events('s1').length / 5))
    expect(host.historyRequests.map((request) => request.sessionId)).toEqual(Array(pages).fill('s1'))
    scriptTurn(host, 's1', 3, textAnswer('Done', '.'))
    await caughtUp(r, 's1')
    expect(host.historyRequests).toHaveLength(pages)
    expect(published(r, 's1')).toEqual(hostLines('s1'))
    const header = JSON.parse(r.log('s1')!.split('\n')[0]!) as FeedRecord
    expect(header).toEqual({
      type: 'session',
      version: 0,
      id: 's1',
      createdAt: null,
      delegationDepth: 0,
      chunkscopeAttach: { url: host.url },
    })
    const [capture] = r.captures()
    expect(capture).toMatchObject({
      id: 's1',
      kind: 'harness',
      title: 'Greet the user',
      state: 'streaming',
      chunks: textAnswer('Hel', 'lo', ' there').length + toolTurn.length + textAnswer('Done', '.').length,
      finish: { kind: 'stop' },
      endedAt: null,
    })
    expect(r.connected).toBe(true)
    expect(lines).toEqual([])
  })

  it('titles a session by its id until a session/title event arrives; sessions added later are relayed too', async () => {
    const r = await attach()
    await waitFor('connected', () => host.sockets === 1)
    host.addSession('late')
    await waitFor('late session', () => r.captures().length === 1)
    expect(r.captures()[0]).toMatchObject({ id: 'late', title: 'late', chunks: 0, finish: null })
    scriptTurn(host, 'late', 1, textAnswer('x'), { title: 'Named now' })
    await caughtUp(r, 'late')
    expect(r.captures()[0]!.title).toBe('Named now')
  })

  it('drops duplicates: a backfill overlapping live events, and an event sent twice', async () => {
    host.addSession('s1')
    scriptTurn(host, 's1', 1, textAnswer('a', 'b'))
    const release = host.pauseHistory()
    const r = await attach()
    await waitFor('first history request', () => host.historyRequests.length === 1)
    // Live while the backfill is held: these arrive on the socket and again in the history answer.
    scriptTurn(host, 's1', 2, textAnswer('c'))
    await waitFor('live events held', () => (r.stats('s1')?.held ?? 0) > 0)
    expect(r.stats('s1')!.published).toBe(0)
    release()
    await caughtUp(r, 's1')
    const overlap = r.stats('s1')!.duplicates
    expect(overlap).toBeGreaterThan(0)
    host.resend('s1', 3)
    host.resend('s1', host.events('s1').length - 1)
    host.emit('s1', { type: 'session/usage', data: {} })
    await caughtUp(r, 's1')
    expect(r.stats('s1')!.duplicates).toBe(overlap + 2)
    expect(published(r, 's1')).toEqual(hostLines('s1'))
  })

  it('re-pulls the history on a seq gap and publishes past it only once it is filled', async () => {
    host.addSession('s1')
    const r = await attach()
    await waitFor(
      'subscribed and pulled',
      () => r.stats('s1')?.pulls === 1 && host.historyRequests.length === 1,
    )
    host.emit('s1', { type: 'turn/start', data: { turn: 1 } })
    await caughtUp(r, 's1')
    const release = host.pauseHistory()
    host.emitSilently('s1', { type: 'user/message', data: { content: [text('hi')] } })
    host.emitSilently('s1', { type: 'step/start', data: { turn: 1, step: 1 } })
    host.emit('s1', { type: 'assistant/chunk', data: { turn: 1, step: 1, chunk: bs(0, 'text') } })
    await waitFor('the re-pull', () => host.historyRequests.length === 2)
    // Seq 3 waits behind the hole at 1–2: the published log stops at seq 0.
    expect(r.stats('s1')).toMatchObject({ published: 1, held: 1, pulls: 2 })
    expect(published(r, 's1')).toEqual(hostLines('s1').slice(0, 1))
    release()
    await caughtUp(r, 's1')
    // The re-pulled page holds seqs 0–3: 0 and 3 were already there.
    expect(r.stats('s1')).toMatchObject({ pulls: 2, held: 0, duplicates: 2 })
    expect(published(r, 's1')).toEqual(hostLines('s1'))
    // A whole turn with every third event missed by the socket still arrives whole and in order.
    scriptTurn(host, 's1', 2, textAnswer('g', 'a', 'p', 's'), { silent: (event) => event.seq % 3 === 0 })
    await caughtUp(r, 's1')
    expect(published(r, 's1')).toEqual(hostLines('s1'))
    expect(r.stats('s1')!.held).toBe(0)
  })

  it('reconnects with backoff when the host drops the socket; the sessions so far stay', async () => {
    host.addSession('s1')
    scriptTurn(host, 's1', 1, textAnswer('before'))
    const r = await attach()
    await caughtUp(r, 's1')
    host.dropSockets()
    await waitFor('disconnect noticed', () => lines.some((line) => line.includes('closed (code 1012')))
    expect(lines.join('\n')).toContain('reconnecting in')
    expect(lines.join('\n')).toContain('1 session so far stays')
    expect(r.captures()).toHaveLength(1)
    await waitFor('reconnected', () => r.connected && host.sockets === 1)
    // Missed while disconnected: the re-subscription's history pull brings it back.
    host.emitSilently('s1', { type: 'session/title', data: { title: 'while away' } })
    host.dropSockets()
    await waitFor(
      'reconnected again',
      () => lines.filter((line) => line.includes('connected to')).length === 2,
    )
    scriptTurn(host, 's1', 2, textAnswer('after'))
    await caughtUp(r, 's1')
    expect(published(r, 's1')).toEqual(hostLines('s1'))
    expect(r.captures()[0]!.title).toBe('while away')
  })

  it('says in plain words that the host is unreachable and keeps retrying', async () => {
    const spare = createServer()
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve))
    const port = (spare.address() as AddressInfo).port
    await new Promise<void>((resolve) => spare.close(() => resolve()))
    relay = await startAttach({
      url: `http://127.0.0.1:${port}`,
      log: (line) => lines.push(line),
      backoff: { initialMs: 5, maxMs: 20 },
    })
    await waitFor('a report', () => lines.length > 0)
    expect(lines[0]).toBe(
      `chunkscope attach: cannot reach the harness at ws://127.0.0.1:${port}/api/events.mux: connection refused ` +
        '(is `dsh web` running?); retrying with backoff (up to 20 ms)',
    )
    expect(lines.join('\n')).not.toMatch(/\n\s+at /)
    expect(relay.connected).toBe(false)
    // The feed server is up meanwhile, with nothing to show.
    expect(JSON.parse((await getText(`${relay.feedUrl}/__chunkscope/captures`)).text)).toEqual([])
  })

  it('reports a refused upgrade (HTTP 403) in plain words', async () => {
    const refusing = createServer((_req, res) => res.writeHead(404).end())
    refusing.on('upgrade', (_req, socket) =>
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n'),
    )
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
    try {
      relay = await startAttach({
        url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`,
        log: (line) => lines.push(line),
        backoff: { initialMs: 5, maxMs: 20 },
      })
      await waitFor('a report', () => lines.length > 0)
      expect(lines[0]).toContain(
        ': the host answered HTTP 403 (it refuses a foreign Origin); retrying with backoff',
      )
    } finally {
      await relay?.close()
      relay = null
      refusing.closeAllConnections()
      await new Promise<void>((resolve) => refusing.close(() => resolve()))
    }
  })

  it('relays every record on the feed once, in seq order, and the joined log loads as the session', async () => {
    const r = await attach()
    const feed = subscribe(r.feedUrl)
    await waitFor('hello', () => feed.messages.length > 0)
    expect(feed.messages[0]).toEqual({ type: 'hello', captures: [] })
    await waitFor('connected', () => host.sockets === 1)
    host.addSession('s1')
    scriptTurn(host, 's1', 1, textAnswer('one ', 'two'), { title: 'Feed test' })
    scriptTurn(host, 's1', 2, toolTurn, { silent: (event) => event.seq % 4 === 1 })
    host.resend('s1', 2)
    host.dropSockets()
    await waitFor('reconnected', () => r.connected && host.sockets === 1)
    const third = [
      bs(0, 'text'),
      td(0, 'cut '),
      td(0, 'short'),
      be(0, text('cut short')),
      usage(5, 2),
      finish('max-tokens'),
    ]
    scriptTurn(host, 's1', 3, third)
    await caughtUp(r, 's1')
    await waitFor('feed caught up', () => {
      const last = feed.messages.at(-1)
      return last?.type === 'record' && last.record['seq'] === host.events('s1').length - 1
    })
    feed.close()
    const records = feed.messages.flatMap((m) =>
      m.type === 'record' && m.captureId === 's1' ? [m.record] : [],
    )
    expect(records[0]!['type']).toBe('session')
    expect(records.slice(1).map((record) => record['seq'])).toEqual(
      host.events('s1').map((event) => event.seq),
    )
    expect(records.slice(1).map((record) => JSON.stringify(record))).toEqual(hostLines('s1'))
    const captures = feed.messages.flatMap((m) => (m.type === 'capture' ? [m.capture] : []))
    expect(captures[0]).toMatchObject({ id: 's1', kind: 'harness', title: 's1' })
    expect(captures.at(-1)).toMatchObject({ title: 'Feed test', finish: { kind: 'max-tokens' } })
    // A capture message comes before the capture's first record.
    const firstCapture = feed.messages.findIndex((m) => m.type === 'capture')
    const firstRecord = feed.messages.findIndex((m) => m.type === 'record')
    expect(firstCapture).toBeLessThan(firstRecord)

    const backfill = await getText(`${r.feedUrl}/__chunkscope/captures/s1`)
    expect(backfill.status).toBe(200)
    expect(backfill.headers['content-type']).toContain('application/jsonl')
    const joined = records.map((record) => JSON.stringify(record)).join('\n') + '\n'
    expect(backfill.text).toBe(joined)
    const list = JSON.parse((await getText(`${r.feedUrl}/__chunkscope/captures`)).text) as FeedCapture[]
    expect(list).toEqual(r.captures())

    const read = readSessionJsonl(joined)
    expect(read.header).toMatchObject({ id: 's1', version: 0 })
    expect(read.committed.damage).toBe('none')
    const source = loadSource(joined, 's1.jsonl')
    expect(source.format).toBe('dsh-session-jsonl')
    expect(source.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    const session = source.sessions[0]!
    expect(session.turns.map((turn) => turn.turn)).toEqual([1, 2, 3])
    expect(session.streams.map((attempt) => attempt.id)).toEqual(['t1.s1.a1', 't2.s1.a1', 't3.s1.a1'])
    expect(session.messages).toHaveLength(3)
    for (const attempt of session.streams) {
      expect(attempt.recorded).not.toBeNull()
      expect(compareRecorded(attempt)?.match).toBe(true)
    }
    expect(session.streams[1]!.chunks.map((sourced) => sourced.chunk)).toEqual(toolTurn)
  })

  it('answers 404 for an unknown capture and for paths outside the feed', async () => {
    const r = await attach()
    expect((await getText(`${r.feedUrl}/__chunkscope/captures/nope`)).status).toBe(404)
    expect((await getText(`${r.feedUrl}/`)).status).toBe(404)
  })
})
