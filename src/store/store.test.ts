import { describe, expect, it } from 'vitest'
import { loadSource } from '../formats/load'
import { be, bs, finish, td, text, usage } from '../test/chunks'
import { createChunkscopeStore, findBoundary } from './store'

const ndjson = [bs(0, 'text'), td(0, 'a'), td(0, 'b'), be(0, text('ab')), usage(1, 1), finish('stop')]
  .map((c) => JSON.stringify(c))
  .join('\n')

async function loaded() {
  const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
  await store
    .getState()
    .actions.showSource(loadSource(ndjson, 'x.ndjson'), { kind: 'paste', name: 'x.ndjson' })
  return store
}

describe('store', () => {
  it('opens a source at its end on the first stream', async () => {
    const store = await loaded()
    expect(store.getState().streamKey).toBe('stream')
    expect(store.getState().k).toBe(6)
    expect(store.getState().frame?.blocks).toEqual([text('ab')])
  })

  it('steps, clamps and jumps to block boundaries', async () => {
    const store = await loaded()
    const { seekTo, stepBy, stepToBoundary } = store.getState().actions
    seekTo(0)
    stepBy(-1)
    expect(store.getState().k).toBe(0)
    stepToBoundary(1)
    expect(store.getState().k).toBe(1) // after block-start
    stepToBoundary(1)
    expect(store.getState().k).toBe(4) // after block-end
    stepToBoundary(-1)
    expect(store.getState().k).toBe(1)
    stepBy(2)
    expect(store.getState().frame?.partials[0]?.text).toBe('ab')
    expect(findBoundary(store.getState().engine!, 6, 1)).toBeNull()
  })

  it('opens at the requested stream and cursor', async () => {
    const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
    await store
      .getState()
      .actions.showSource(loadSource(ndjson), { kind: 'paste', name: 'p' }, { stream: 'stream', k: 2 })
    expect(store.getState().frame?.partials[0]?.text).toBe('a')
  })

  it('keeps a message and no stream for unreadable input', async () => {
    const store = createChunkscopeStore()
    await store.getState().actions.showSource(loadSource('hello'), { kind: 'paste', name: 'p' })
    expect(store.getState().engine).toBeNull()
    expect(store.getState().error).toMatch(/unrecognised format/)
  })
})
