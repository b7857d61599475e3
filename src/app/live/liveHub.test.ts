import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../core/protocol'
import type { FeedCapture, FeedRecord } from '../../formats/live/feedProtocol'
import { createChunkscopeStore } from '../store'
import { stepRecords } from '../../test/builders'
import { be, bs, finish, td, text } from '../../test/chunks'
import { LiveHub } from './liveHub'

const capture = (id: string, state: FeedCapture['state'] = 'streaming'): FeedCapture => ({
  id,
  kind: 'proxy',
  title: `POST /v1/chat/completions · ${id}`,
  state,
  startedAt: 1,
  endedAt: null,
  chunks: 0,
  finish: null,
})

const header = (id: string): FeedRecord => ({
  type: 'session',
  version: 0,
  id,
  createdAt: 1,
  delegationDepth: 0,
})

/** The records a capture writes: turn/step start, then one assistant/chunk per chunk from seq 2. */
const records = (chunks: readonly StreamChunk[]): FeedRecord[] => stepRecords(chunks)

const stream = [bs(0, 'text'), td(0, 'Hel'), td(0, 'lo'), be(0, text('Hello')), finish('stop')]

describe('LiveHub', () => {
  it('builds one session per capture, in the order captures were first seen', () => {
    const hub = new LiveHub()
    hub.upsertCapture(capture('b'), { via: 'page' })
    hub.upsertCapture(capture('a'), { via: 'page' })
    hub.addRecords('a', [header('a'), ...records(stream)])
    hub.addRecords('b', [header('b'), ...records(stream.slice(0, 2))])
    const source = hub.source()
    expect(source.format).toBe('chunkscope-live')
    expect(source.sessions.map((s) => s.header?.id)).toEqual(['b', 'a'])
    expect(source.sessions[1]!.streams[0]!.chunks).toHaveLength(5)
    expect(hub.captures().map((c) => [c.capture.id, c.sessionIndex])).toEqual([
      ['b', 0],
      ['a', 1],
    ])
  })

  it('drops duplicates by seq, whatever the order of backfill and feed', () => {
    const hub = new LiveHub()
    hub.upsertCapture(capture('a'), { via: 'feed', url: 'http://127.0.0.1:8787' })
    const all = [header('a'), ...records(stream)]
    hub.addRecords('a', all.slice(4)) // the feed's newest records first
    hub.addRecords('a', all.slice(0, 6)) // then a backfill overlapping them
    hub.addRecords('a', all.slice(5))
    const attempt = hub.source().sessions[0]!.streams[0]!
    expect(attempt.chunks.map((c) => c.seq)).toEqual([2, 3, 4, 5, 6])
    expect(hub.source().diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
  })

  it('shows only the records before a hole until it fills', () => {
    const hub = new LiveHub()
    hub.upsertCapture(capture('a'), { via: 'feed', url: 'http://127.0.0.1:8788' })
    const all = [header('a'), ...records(stream)]
    hub.addRecords('a', [...all.slice(0, 4), ...all.slice(5)]) // seq 3 missing
    expect(hub.source().sessions[0]!.streams[0]!.chunks.map((c) => c.seq)).toEqual([2])
    expect(hub.source().diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
    hub.addRecords('a', [all[4]!])
    expect(hub.source().sessions[0]!.streams[0]!.chunks.map((c) => c.seq)).toEqual([2, 3, 4, 5, 6])
    expect(
      hub
        .jsonl('a')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(all)
  })

  it('rebuilds only the sessions whose records changed, and tells listeners', () => {
    const hub = new LiveHub()
    let calls = 0
    hub.subscribe(() => (calls += 1))
    hub.upsertCapture(capture('a'), { via: 'page' })
    hub.upsertCapture(capture('b'), { via: 'page' })
    hub.addRecords('a', [header('a'), ...records(stream)])
    hub.addRecords('b', [header('b'), ...records(stream.slice(0, 2))])
    const before = hub.source()
    hub.addRecords('b', records(stream).slice(4, 5))
    const after = hub.source()
    expect(after.sessions[0]).toBe(before.sessions[0])
    expect(after.sessions[1]).not.toBe(before.sessions[1])
    hub.addRecords('b', records(stream).slice(4, 5)) // a duplicate changes nothing
    expect(hub.source()).toBe(after)
    expect(calls).toBe(5)
  })
})

describe('store: live', () => {
  const setup = () => {
    const hub = new LiveHub()
    const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
    hub.upsertCapture(capture('a'), { via: 'page' })
    hub.addRecords('a', [header('a')])
    const push = async (from: number, to: number) => {
      hub.addRecords('a', records(stream).slice(from, to))
      await store.getState().actions.showLive(hub.source())
    }
    return { hub, store, push }
  }

  it('follows the tail as chunks arrive, stays put after a step back, and follows again at the tail', async () => {
    const { store, push } = setup()
    await push(0, 4) // two chunks
    expect(store.getState().origin).toEqual({ kind: 'live', name: 'live captures' })
    expect(store.getState().follow).toBe(true)
    expect(store.getState().k).toBe(2)
    await push(4, 5)
    expect(store.getState().k).toBe(3)
    expect(store.getState().frame?.partials[0]?.text).toBe('Hello')
    store.getState().actions.stepBy(-1)
    expect(store.getState().follow).toBe(false)
    await push(5, 7)
    expect(store.getState().k).toBe(2)
    expect(store.getState().engine?.total).toBe(5)
    store.getState().actions.seekTo(5)
    expect(store.getState().follow).toBe(true)
  })

  it('holds the end-of-stream checks back while a capture is still arriving', async () => {
    const { hub, store } = setup()
    hub.addRecords('a', records(stream).slice(0, 4))
    const ruleIds = () => store.getState().engine!.findings.map((f) => f.rule)
    await store.getState().actions.showLive(hub.source(), new Set([0]))
    expect(ruleIds()).toEqual([])
    expect(store.getState().engine!.streaming).toBe(true)
    await store.getState().actions.showLive(hub.source(), new Set())
    expect(store.getState().engine!.streaming).toBe(false)
    expect(ruleIds()).toContain('finish-missing')
  })

  it('moves to a new capture while following, and not after the user picked another stream', async () => {
    const { hub, store, push } = setup()
    await push(0, 7)
    hub.upsertCapture(capture('b'), { via: 'page' })
    hub.addRecords('b', [header('b'), ...records(stream.slice(0, 1))])
    await store.getState().actions.showLive(hub.source())
    expect(store.getState().streamKey).toBe('1/t1.s1.a1')
    await store.getState().actions.selectStream('t1.s1.a1', 2)
    expect(store.getState().follow).toBe(false)
    hub.addRecords('b', records(stream).slice(3, 5))
    await store.getState().actions.showLive(hub.source())
    expect(store.getState().streamKey).toBe('t1.s1.a1')
    expect(store.getState().k).toBe(2)
    await store.getState().actions.setFollow(true)
    expect(store.getState().streamKey).toBe('1/t1.s1.a1')
    expect(store.getState().k).toBe(3)
  })
})
