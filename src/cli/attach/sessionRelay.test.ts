import { describe, expect, it } from 'vitest'
import { readSessionJsonl } from '../../formats/sessionJsonl'
import { finish, td } from '../../test/chunks'
import { attachHeader, SessionRelay } from './sessionRelay'

const ev = (seq: number, type = 'turn/start', data: unknown = { turn: 1 }) => ({
  type,
  seq,
  time: 100 + seq,
  data,
})

describe('SessionRelay', () => {
  it('publishes only the contiguous prefix, in seq order, and drops duplicates', () => {
    const relay = new SessionRelay('s1', attachHeader('s1', 'http://127.0.0.1:3080'))
    expect(relay.add(ev(0))).toBe('added')
    expect(relay.add(ev(2))).toBe('gap')
    expect(relay.drain().map((record) => record['seq'])).toEqual([0])
    expect(relay.hasHole).toBe(true)
    expect(relay.add(ev(3))).toBe('added')
    expect(relay.drain()).toEqual([])
    expect(relay.add(ev(2))).toBe('duplicate')
    expect(relay.add(ev(0))).toBe('duplicate')
    expect(relay.add(ev(1))).toBe('added')
    expect(relay.drain().map((record) => record['seq'])).toEqual([1, 2, 3])
    expect(relay.hasHole).toBe(false)
    expect(relay.stats()).toEqual({ published: 4, held: 0, duplicates: 2, dropped: 0, maxSeq: 3 })
  })

  it('skips what is not an event', () => {
    const relay = new SessionRelay('s1', attachHeader('s1', 'u'))
    for (const bad of [
      null,
      'x',
      [],
      { seq: 0 },
      { type: 't', seq: -1 },
      { type: 't', seq: 1.5 },
      { type: 't' },
    ])
      expect(relay.add(bad)).toBe('invalid')
    expect(relay.stats()).toEqual({ published: 0, held: 0, duplicates: 0, dropped: 0, maxSeq: -1 })
  })

  it('summarises the capture: title, chunk count, last finish, first time', () => {
    const relay = new SessionRelay('s1', attachHeader('s1', 'u'))
    expect(relay.summary()).toEqual({
      id: 's1',
      kind: 'harness',
      title: 's1',
      state: 'streaming',
      startedAt: null,
      endedAt: null,
      chunks: 0,
      finish: null,
    })
    relay.add(ev(0))
    relay.add(ev(1, 'session/title', { title: 'Named' }))
    relay.add(ev(2, 'assistant/chunk', { turn: 1, step: 1, chunk: td(0, 'x') }))
    relay.add(ev(3, 'assistant/chunk', { turn: 1, step: 1, chunk: finish('stop') }))
    relay.drain()
    expect(relay.summary()).toMatchObject({
      title: 'Named',
      startedAt: 100,
      chunks: 2,
      finish: { kind: 'stop' },
    })
  })

  it('keeps the published log as JSONL whose header readSessionJsonl reads', () => {
    const relay = new SessionRelay('s1', attachHeader('s1', 'http://h'))
    relay.add(ev(0))
    relay.add(ev(1, 'turn/end', { turn: 1, reason: { kind: 'completed' } }))
    relay.drain()
    const text = relay.log()
    expect(text.endsWith('\n')).toBe(true)
    const read = readSessionJsonl(text)
    expect(read.header).toMatchObject({ id: 's1', version: 0, createdAt: null, delegationDepth: 0 })
    expect(read.header?.raw['chunkscopeAttach']).toEqual({ url: 'http://h' })
    expect(read.events.map((event) => event.seq)).toEqual([0, 1])
    // createdAt is unknown to the relay (null): the reader takes that as it is.
    expect(read.diagnostics).toEqual([])
  })
})

describe('SessionRelay behind a hole that never fills', () => {
  it('holds at most maxHeld events, always takes the one that fills the hole, then drains', () => {
    const relay = new SessionRelay('s', attachHeader('s', 'http://127.0.0.1:3080'), 1000)
    for (let seq = 1; seq <= 300_000; seq++) relay.add({ type: 'x', seq, time: 0, data: {} })
    expect(relay.stats()).toMatchObject({ published: 0, held: 1000, dropped: 299_000 })
    expect(relay.add({ type: 'x', seq: 0, time: 0, data: {} })).toBe('added')
    expect(relay.drain()).toHaveLength(1001)
    expect(relay.stats()).toMatchObject({ published: 1001, held: 0 })
  })
})
