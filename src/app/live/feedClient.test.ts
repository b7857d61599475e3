import { describe, expect, it } from 'vitest'
import type { FeedCapture, FeedMessage, FeedRecord } from '../../formats/live/feedProtocol'
import { createChunkscopeStore } from '../store'
import { stepRecords } from '../../test/builders'
import { be, bs, finish, td, text } from '../../test/chunks'
import { FeedClient, normaliseFeedUrl, parseRecords, type EventSourceLike, type FeedDeps } from './feedClient'
import { LiveController } from './liveController'
import { LiveHub } from './liveHub'

class FakeEvents implements EventSourceLike {
  onopen: EventSourceLike['onopen'] = null
  onmessage: EventSourceLike['onmessage'] = null
  onerror: EventSourceLike['onerror'] = null
  readyState = 0
  closed = false
  constructor(readonly url: string) {}
  close() {
    this.closed = true
  }
  send(message: FeedMessage) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }))
  }
}

const capture: FeedCapture = {
  id: 'proxy-1-0001',
  kind: 'proxy',
  title: 'POST /v1/chat/completions · mock-text',
  state: 'streaming',
  startedAt: 1,
  endedAt: null,
  chunks: 2,
  finish: null,
}
const chunks = [bs(0, 'text'), td(0, 'Hi'), td(0, '!'), be(0, text('Hi!')), finish('stop')]
const log: FeedRecord[] = [
  { type: 'session', version: 0, id: capture.id, createdAt: 1, delegationDepth: 0 },
  ...stepRecords(chunks),
]

function fakeDeps(backfill: FeedRecord[]) {
  const opened: FakeEvents[] = []
  const fetched: string[] = []
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const deps: FeedDeps = {
    openEvents: (url) => {
      const events = new FakeEvents(url)
      opened.push(events)
      return events
    },
    fetchText: async (url) => {
      fetched.push(url)
      await gate
      return backfill.map((r) => JSON.stringify(r)).join('\n') + '\n{"type":"assistant/ch'
    },
  }
  return { deps, opened, fetched, release }
}

describe('normaliseFeedUrl', () => {
  it('accepts http(s) and drops trailing slashes; says why otherwise', () => {
    expect(normaliseFeedUrl(' http://127.0.0.1:8787/ ')).toEqual({ url: 'http://127.0.0.1:8787' })
    expect(normaliseFeedUrl('127.0.0.1:8787')).toHaveProperty('error')
    expect(normaliseFeedUrl('ftp://x')).toEqual({ error: expect.stringMatching(/http:\/\/ or https:\/\//) })
  })
})

describe('FeedClient', () => {
  it('backfills captures listed by hello and merges the live records without duplicates', async () => {
    const hub = new LiveHub()
    const statuses: string[] = []
    const { deps, opened, fetched, release } = fakeDeps(log.slice(0, 5))
    const client = new FeedClient('http://127.0.0.1:8787', hub, (s) => statuses.push(s.state), deps)
    client.open()
    expect(opened[0]!.url).toBe('http://127.0.0.1:8787/__chunkscope/events')
    opened[0]!.onopen?.(new Event('open'))
    opened[0]!.send({ type: 'hello', captures: [capture] })
    expect(fetched).toEqual(['http://127.0.0.1:8787/__chunkscope/captures/proxy-1-0001'])
    // Live records arrive while the backfill is in flight; they overlap it by one.
    for (const record of log.slice(4)) opened[0]!.send({ type: 'record', captureId: capture.id, record })
    release()
    await new Promise((resolve) => setTimeout(resolve, 0))
    const attempt = hub.source().sessions[0]!.streams[0]!
    expect(attempt.chunks.map((c) => c.chunk)).toEqual(chunks)
    expect(hub.captures()[0]!.origin).toEqual({ via: 'feed', url: 'http://127.0.0.1:8787' })
    expect(statuses).toEqual(['connecting', 'open'])
  })

  it('reports a feed it cannot reach in plain words, and ignores a message that is not JSON', () => {
    const hub = new LiveHub()
    const seen: (string | null)[] = []
    const { deps, opened } = fakeDeps([])
    const client = new FeedClient('http://127.0.0.1:9', hub, (s) => seen.push(s.problem), deps)
    client.open()
    opened[0]!.onerror?.(new Event('error'))
    expect(seen.at(-1)).toMatch(/no live feed at http:\/\/127\.0\.0\.1:9 \(retrying\).*chunkscope proxy/)
    opened[0]!.onmessage?.(new MessageEvent('message', { data: '<html>' }))
    expect(seen.at(-1)).toMatch(/not JSON/)
    client.close()
    expect(opened[0]!.closed).toBe(true)
  })

  it('parses a JSONL body and leaves out a torn last line', () => {
    expect(parseRecords('{"a":1}\n\n{"b"')).toEqual([{ a: 1 }])
  })
})

describe('LiveController', () => {
  it('shows a connected feed in the workbench, following the stream as it grows', async () => {
    const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
    const runs: (() => void)[] = []
    const { deps, opened, release } = fakeDeps([])
    release()
    const live = new LiveController(store, { feedDeps: deps, schedule: (run) => runs.push(run) })
    expect(live.connect('nonsense')).toMatch(/not a URL/)
    expect(live.connect('http://127.0.0.1:8787/')).toBeNull()
    await Promise.resolve()
    expect(store.getState().origin?.kind).toBe('live')
    expect(live.view.getState().feeds).toEqual([
      { url: 'http://127.0.0.1:8787', state: 'connecting', problem: null },
    ])
    opened[0]!.send({ type: 'capture', capture })
    for (const record of log.slice(0, 5)) opened[0]!.send({ type: 'record', captureId: capture.id, record })
    expect(runs).toHaveLength(1) // one update scheduled for the whole burst
    await live.flush(false)
    expect(store.getState().k).toBe(2)
    expect(live.view.getState().captures.map((c) => c.capture.id)).toEqual([capture.id])
    for (const record of log.slice(5)) opened[0]!.send({ type: 'record', captureId: capture.id, record })
    await live.flush(false)
    expect(store.getState().k).toBe(5)
    expect(store.getState().frame?.blocks).toEqual([text('Hi!')])
    live.disconnect('http://127.0.0.1:8787')
    expect(live.view.getState().feeds).toEqual([])
  })

  it('remembers the connected feeds so a reload reconnects them', () => {
    const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
    let kept: readonly string[] = []
    const feedMemory = { recall: () => [...kept], keep: (urls: readonly string[]) => (kept = urls) }
    const first = new LiveController(store, { feedDeps: fakeDeps([]).deps, feedMemory, schedule: () => {} })
    first.connect('http://127.0.0.1:8787')
    first.connect('http://127.0.0.1:8788')
    first.disconnect('http://127.0.0.1:8787')
    expect(kept).toEqual(['http://127.0.0.1:8788'])
    const { deps, opened } = fakeDeps([])
    const second = new LiveController(store, { feedDeps: deps, feedMemory, schedule: () => {} })
    second.reconnect()
    expect(opened.map((events) => events.url)).toEqual(['http://127.0.0.1:8788/__chunkscope/events'])
  })
})
