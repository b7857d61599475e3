import { IDBFactory } from 'fake-indexeddb'
import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import type { FeedCapture } from '../../formats/live/feedProtocol'
import { loadSource } from '../../formats/load'
import { mockScript } from '../../test/mockUpstream'
import { SessionRecorder } from '../../formats/capture/sessionRecorder'
import { captureSink, openCaptureStore } from './captureStore'

const summary = (id: string, startedAt: number, state: FeedCapture['state'] = 'completed'): FeedCapture => ({
  id,
  kind: 'browser',
  title: id,
  state,
  startedAt,
  endedAt: state === 'streaming' ? null : startedAt + 5,
  chunks: 3,
  finish: null,
})

describe('captureStore (IndexedDB)', () => {
  it('round-trips records in append order and summaries newest first', async () => {
    const store = await openCaptureStore(new IDBFactory())
    await store.append('a', { type: 'session', id: 'a' })
    await store.appendMany('a', [
      { type: 'turn/start', seq: 0 },
      { type: 'step/start', seq: 1 },
    ])
    await store.append('b', { type: 'session', id: 'b' })
    await store.append('a', { type: 'step/end', seq: 2 })
    await store.putSummary(summary('a', 100))
    await store.putSummary(summary('b', 200))
    await store.putSummary({ ...summary('a', 100), chunks: 9 })
    expect((await store.records('a')).map((record) => record['type'])).toEqual([
      'session',
      'turn/start',
      'step/start',
      'step/end',
    ])
    expect(await store.records('b')).toEqual([{ type: 'session', id: 'b' }])
    expect(await store.records('none')).toEqual([])
    const list = await store.list()
    expect(list.map((capture) => capture.id)).toEqual(['b', 'a'])
    expect(list[1]!.chunks).toBe(9)
    await store.remove('a')
    expect(await store.records('a')).toEqual([])
    expect((await store.list()).map((capture) => capture.id)).toEqual(['b'])
    await store.clear()
    expect(await store.list()).toEqual([])
    expect(await store.records('b')).toEqual([])
    store.close()
  })

  it('a capture cut off mid-stream (a reload) lists as streaming and loads as far as it got', async () => {
    const factory = new IDBFactory()
    const store = await openCaptureStore(factory)
    const recorder = new SessionRecorder({
      id: 'cut',
      kind: 'browser',
      title: 'cut',
      model: 'm',
      sink: captureSink(store, 'cut'),
      onSummary: (s) => void store.putSummary(s),
    })
    recorder.pushText(mockScript('drip').pieces.slice(0, 4).join(''))
    await recorder.written
    store.close()
    // The page reloads: a new connection to the same database; the recorder is gone.
    const reopened = await openCaptureStore(factory)
    const [listed] = await reopened.list()
    expect(listed).toMatchObject({ id: 'cut', state: 'streaming', endedAt: null })
    const records = await reopened.records('cut')
    const text = records.map((record) => JSON.stringify(record) + '\n').join('')
    const source = loadSource(text, 'cut.jsonl')
    expect(source.format).toBe('dsh-session-jsonl')
    const session = source.sessions[0]!
    expect(session.turns[0]!.end).toBeUndefined()
    expect(session.streams[0]!.chunks.map((c) => c.chunk.type)).toEqual([
      'block-start',
      'text-delta',
      'text-delta',
      'text-delta',
    ])
    reopened.close()
  })

  it('uses the global indexedDB by default', async () => {
    const store = await openCaptureStore()
    await store.putSummary(summary('g', 1))
    expect((await store.list()).map((capture) => capture.id)).toEqual(['g'])
    await store.clear()
    store.close()
  })
})
