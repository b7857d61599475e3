// `chunkscope attach` against hostile harness hosts: endless or stuck history paging, huge answers, a hole that
// never fills, terminal escapes in what the host says; and its feed against forged Host/Origin headers.
import { request, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import {
  hostileHistory,
  startMockHarnessHost,
  waitFor,
  type HistoryRequest,
  type HistoryResult,
  type MockHarnessHost,
  type MockHarnessHostOptions,
} from '../../test/mockHarnessHost'
import { startAttach, type AttachLimits, type AttachRelay } from './attach'

let host: MockHarnessHost | null = null
let relay: AttachRelay | null = null
let lines: string[] = []

afterEach(async () => {
  await relay?.close()
  await host?.close()
  relay = null
  host = null
  lines = []
})

async function attach(options: MockHarnessHostOptions, limits: Partial<AttachLimits> = {}) {
  host = await startMockHarnessHost({ pageSize: 5, ...options })
  relay = await startAttach({
    url: host.url,
    port: 0,
    log: (line) => lines.push(line),
    backoff: { initialMs: 10, maxMs: 20 },
    limits,
  })
  await waitFor('the socket', () => relay!.connected)
  return { host, relay }
}

const said = (part: string) =>
  waitFor(`a line saying ${part}`, () => lines.find((line) => line.includes(part)))

describe('chunkscope attach: hostile hosts', () => {
  it('stops paging at the page cap when the host claims hasMore forever (with ever older seqs)', async () => {
    // Each page brings one event just before the one asked for, from seq 10^9 down: always progress, never an end.
    const endless = (request: HistoryRequest): unknown => {
      const before = typeof request.beforeSeq === 'number' ? request.beforeSeq : 1e9
      return {
        ok: true,
        value: { events: [{ event: { type: 'x', seq: before - 1, time: 0, data: {} } }], hasMore: true },
      }
    }
    const { host, relay } = await attach({ answerHistory: endless }, { maxPagesPerSession: 40 })
    host.addSession('s1')
    await said('stopped paging its history after 40 pages (the cap)')
    expect(host.historyRequests).toHaveLength(40)
    expect(relay.stats('s1')).toMatchObject({ pages: 40, published: 0, held: 40 })
    expect(relay.stats('s1')!.pulls).toBe(1)
  })

  it('a host claiming hasMore forever over a real history: paging ends at seq 0, one request per page', async () => {
    const { host, relay } = await attach({ answerHistory: hostileHistory.hasMoreForever })
    const release = host.pauseHistory()
    host.addSession('s1')
    for (let i = 0; i < 12; i++) host.emitSilently('s1', { type: 'x', data: { i } })
    release()
    await waitFor('the backfill', () => relay.stats('s1')?.published === 12)
    expect(host.historyRequests.map((request) => request.beforeSeq)).toEqual([undefined, 7, 2])
  })

  it('stops a pull that outlasts its time cap', async () => {
    const slow = (request: HistoryRequest) => (res: ServerResponse) => {
      const before = typeof request.beforeSeq === 'number' ? request.beforeSeq : 1e9
      const result = {
        ok: true,
        value: { events: [{ event: { type: 'x', seq: before - 1, time: 0, data: {} } }], hasMore: true },
      }
      setTimeout(
        () => res.writeHead(200).end(JSON.stringify({ type: 'server-response', rpcId: 'x', result })),
        10,
      )
    }
    const { host } = await attach({ answerHistory: slow }, { pullTimeoutMs: 5 })
    host.addSession('s1')
    await said('stopped paging its history after 5 ms (the cap); events after seq 0 wait')
    expect(host.historyRequests).toHaveLength(1)
  })

  it('stops when the host ignores beforeSeq (the same page again), after two requests', async () => {
    let newest: () => HistoryResult = () => ({ ok: false, error: { code: 'X', message: 'not yet' } })
    const { host, relay } = await attach({ answerHistory: () => hostileHistory.ignoreBeforeSeq(newest)() })
    newest = () => host.history({ sessionId: 's1' })
    const release = host.pauseHistory()
    host.addSession('s1')
    for (let i = 0; i < 12; i++) host.emitSilently('s1', { type: 'x', data: { i } })
    release()
    await said(
      'the host ignored beforeSeq (asked for events before seq 7, got seq 7 and up); stopped paging; events after seq 0 wait',
    )
    expect(host.historyRequests).toHaveLength(2)
    expect(relay.stats('s1')).toMatchObject({ published: 0, held: 5 })
  })

  it('stops reading a huge history answer at the size limit (the host never gets to write it all)', async () => {
    let written = 0
    const huge = () => (res: ServerResponse) => {
      const original = res.write.bind(res)
      res.write = ((piece: Buffer | string, ...rest: never[]) => {
        written += Buffer.byteLength(piece)
        return original(piece, ...rest)
      }) as typeof res.write
      hostileHistory.huge(300 * 1024 * 1024)()(res)
    }
    const { host } = await attach({ answerHistory: huge }, { maxAnswerBytes: 1024 * 1024 })
    host.addSession('s1')
    await said('session.history: the answer is larger than 1 MiB')
    expect(written).toBeLessThan(32 * 1024 * 1024)
  })

  it('gives up on a history call that never answers (time limit), and retries', async () => {
    const { host } = await attach({ answerHistory: hostileHistory.hang }, { rpcTimeoutMs: 40 })
    host.addSession('s1')
    await said('session.history: no whole answer within 0.04 s; retrying in')
    await waitFor('a retry', () => host.historyRequests.length >= 2)
    expect(host.historyRequests.length).toBeGreaterThanOrEqual(2)
  })

  it('holds at most maxHeld events behind a seq the host never sends, and says so once', async () => {
    const { host, relay } = await attach({ answerHistory: hostileHistory.withoutSeqs(0) }, { maxHeld: 50 })
    host.addSession('s1')
    host.emitSilently('s1', { type: 'turn/start', data: {} }) // seq 0: neither on the socket nor in the history
    for (let i = 1; i <= 400; i++) host.emit('s1', { type: 'x', data: { i } })
    await waitFor('every event seen', () => {
      const stats = relay.stats('s1')
      return stats !== null && stats.dropped >= 350 // history re-pulls may drop the same seqs again
    })
    expect(relay.stats('s1')).toMatchObject({ published: 0, held: 50 })
    const overflow = lines.filter((line) => line.includes('events wait behind it'))
    expect(overflow).toEqual([
      'chunkscope attach: session s1: seq 0 is missing and 50 events wait behind it (the cap); later ones are dropped until it arrives',
    ])
  })

  it('escapes control characters in a close reason and a session id before they reach the terminal', async () => {
    const { host } = await attach({})
    host.addSession('evil\u001b[2J')
    await waitFor('the session', () => relay!.captures().length === 1)
    host.dropSockets(4000, '\u001b]0;PWNED\u0007\u001b[2J')
    const closed = await said('closed (code 4000')
    expect(closed).toContain('\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J')
    // oxlint-disable-next-line no-control-regex -- the point is that no control character reaches the terminal
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
  })
})

describe('chunkscope attach: who may read its feed', () => {
  function get(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
    return new Promise((resolve, reject) => {
      const req = request(
        `${relay!.feedUrl}${path}`,
        { headers, agent: false, setHost: !('host' in headers) },
        (res) => {
          let text = ''
          res.on('data', (part: Buffer) => {
            text += part.toString('utf8')
            if (path.endsWith('/events')) res.destroy()
          })
          res.on('close', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }))
        },
      )
      req.on('error', reject)
      req.end()
    })
  }

  it.each(['/__chunkscope/captures', '/__chunkscope/captures/s1', '/__chunkscope/events', '/elsewhere'])(
    '%s: 403 with the reason for a foreign Host or Origin; loopback pages are served',
    async (path) => {
      const { host } = await attach({})
      host.addSession('s1')
      await waitFor('the session', () => relay!.captures().length === 1)
      const port = relay!.port
      for (const headers of [
        { host: `attacker.example:${port}` },
        { origin: 'https://attacker.example' },
        { origin: 'null' },
      ]) {
        const answer = await get(path, headers)
        expect(answer.status).toBe(403)
        expect(JSON.parse(answer.text).error.message).toMatch(/^chunkscope: forbidden: (Host|Origin) "/)
      }
      const page = await get(path, { origin: 'http://localhost:5173', host: `localhost:${port}` })
      expect(page.status).toBe(path === '/elsewhere' ? 404 : 200)
      expect(page.headers['access-control-allow-origin']).toBe('http://localhost:5173')
    },
  )
})
