import { describe, expect, it, vi } from 'vitest'
import { loadSource } from '../formats/load'
import { be, bs, finish, td, text, usage } from '../test/chunks'
import { readCorpus } from '../test/corpus'
import { generateStream } from '../test/generate'
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

describe('store: a windowed share link', () => {
  it('replays the window from the carried state, and never reuses that engine unseeded', async () => {
    const { buildSharePayload, openSharePayload } = await import('../formats/share/payload')
    const full = loadSource(ndjson, 'x.ndjson')
    const attempt = full.sessions[0]!.streams[0]!
    const payload = buildSharePayload(
      { source: full, attempt, streamKey: 'stream', k: 3 },
      { window: { from: 2, to: 4 } },
    )
    const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.window).toEqual({ from: 2, to: 4, total: 6 })
    const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
    const link = {
      kind: 'link',
      name: 'link',
      window: opened.window,
      redacted: false,
      encrypted: false,
    } as const
    await store.getState().actions.showSource(opened.source, link, {
      stream: opened.streamKey,
      k: opened.k,
      initialState: opened.initialState!,
    })
    expect(store.getState().k).toBe(1)
    expect(store.getState().frame?.partials[0]?.text).toBe('ab') // position 3 of the full stream
    store.getState().actions.seekTo(2)
    expect(store.getState().frame?.blocks).toEqual([text('ab')])
    // The same chunks shown without the state replay from nothing: a different engine.
    const seeded = store.getState().engine
    await store.getState().actions.showSource(opened.source, { kind: 'paste', name: 'x' }, { k: 1 })
    expect(store.getState().engine).not.toBe(seeded)
    expect(store.getState().frame?.partials[0]?.text).toBe('b')
  })
})

describe('store: slices seen together', () => {
  it('a new source is never on screen with the old source’s stream (the URL would record that place)', async () => {
    const store = await loaded()
    const seen: string[] = []
    store.subscribe((state) => seen.push(`${state.origin?.kind}:${state.streamKey}`))
    await store.getState().actions.showSource(loadSource(readCorpus('acp-agent-text-turn-session.jsonl')), {
      kind: 'file',
      name: 'a',
    })
    expect(seen.filter((place) => place.startsWith('file:'))).toEqual(['file:null', 'file:t1.s1.a1'])
  })

  it('each new source gets a new sourceId; a live update keeps it', async () => {
    const store = await loaded()
    const first = store.getState().sourceId
    await store.getState().actions.showLive(loadSource(ndjson, 'live'))
    const live = store.getState().sourceId
    await store.getState().actions.showLive(loadSource(ndjson, 'live'))
    expect([live > first, store.getState().sourceId]).toEqual([true, live])
  })
})

describe('store: a long stream’s first show', () => {
  // Over the slices' threshold: the engine is built in slices and the panels come in tasks of their own.
  const long = generateStream(60_000)
    .map((c) => JSON.stringify(c.chunk))
    .join('\n')

  /** A store whose yields are logged, with every change of what the panels show between them. */
  function logged(hold?: (log: string[]) => Promise<void> | undefined) {
    const log: string[] = []
    const store = createChunkscopeStore({
      yieldToHost: () => {
        log.push('yield')
        return hold?.(log) ?? Promise.resolve()
      },
    })
    store.subscribe((state, before) => {
      if (state.showing !== before.showing || state.engine !== before.engine)
        log.push(`${state.showing}${state.engine === null ? '' : ` k=${state.k}`}`)
    })
    return { store, log }
  }

  it('shows the stream, then the blocks and findings, then the final message, each after a yield', async () => {
    const { store, log } = logged()
    await store.getState().actions.showSource(loadSource(long, 'long.ndjson'), { kind: 'file', name: 'long' })
    expect(log.slice(log.indexOf('stream k=60000') - 1)).toEqual([
      'yield',
      'stream k=60000',
      'yield',
      'blocks k=60000',
      'yield',
      'all k=60000',
    ])
  })

  it('a short stream shows whole at once', async () => {
    const { store, log } = logged()
    await store.getState().actions.showSource(loadSource(ndjson, 'x.ndjson'), { kind: 'paste', name: 'x' })
    expect(log).toEqual(['all k=6'])
  })

  it('a load begun before the panels show leaves them shown, and the old show sets nothing later', async () => {
    let release = () => {}
    const { store, log } = logged((log) =>
      log.at(-2) === 'stream k=60000' ? new Promise<void>((resolve) => (release = resolve)) : undefined,
    )
    const shown = store
      .getState()
      .actions.showSource(loadSource(long, 'long.ndjson'), { kind: 'file', name: 'long' })
    await vi.waitFor(() => expect(store.getState().showing).toBe('stream'))
    store.getState().actions.startLoading()
    expect(store.getState().showing).toBe('all')
    release()
    await shown
    expect([store.getState().showing, log.slice(log.indexOf('stream k=60000'))]).toEqual([
      'all',
      ['stream k=60000', 'yield', 'all k=60000'],
    ])
  })
})
