import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildSharePayload } from '../../formats/share/payload'
import { encodeShareLink } from '../../formats/share/shareLink'
import { loadSource } from '../../formats/load'
import { findExample } from '../../examples'
import { readCorpus } from '../../test/corpus'
import { createChunkscopeStore } from '../store'
import { createOpener, type OpenDeps } from './openSource'
import { createRouter, REPLACE_MAX_MS, REPLACE_MS, requestFor } from './router'
import { parsePlace } from './urlState'

/** A page's address bar and history, as the router sees them; `back()` is the browser's Back button. */
function fakePage(hash: string, search = '') {
  const entries = [hash]
  let index = 0
  const timers: { run: () => void; ms: number }[] = []
  const location = { hash, search }
  return {
    location,
    entries,
    history: {
      push(next: string) {
        entries.splice(index + 1, Infinity, next)
        index += 1
        location.hash = next
      },
      replace(next: string) {
        entries[index] = next
        location.hash = next
      },
    },
    setTimer(run: () => void, ms: number) {
      const timer = { run, ms }
      timers.push(timer)
      return () => {
        const at = timers.indexOf(timer)
        if (at >= 0) timers.splice(at, 1)
      }
    },
    /** The delays of the timers pending now. */
    pendingTimers: () => timers.map((timer) => timer.ms),
    /** Runs the pending URL replacements. */
    flushTimers() {
      for (const timer of timers.splice(0)) timer.run()
    },
    back() {
      index -= 1
      location.hash = entries[index]!
    },
    get index() {
      return index
    },
  }
}

function setup(hash: string, search = '', deps: Partial<OpenDeps> = {}) {
  const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
  const page = fakePage(hash, search)
  const open = createOpener({ store, files: noFiles, ...deps })
  const router = createRouter({ store, open, ...page })
  return { store, page, router, open }
}

const noFiles = { remember: async () => {}, recall: async () => null }

describe('router: URL in → what opens', () => {
  it('opens the example, stream and cursor the fragment names, and keeps the fragment', async () => {
    const { store, page, router } = setup('#ex=error-retry&s=t1.s1.a2&k=3')
    await router.start()
    expect(store.getState()).toMatchObject({
      origin: { kind: 'example', id: 'error-retry' },
      streamKey: 't1.s1.a2',
      k: 3,
    })
    expect(page.location.hash).toBe('#ex=error-retry&s=t1.s1.a2&k=3')
  })

  it('an empty fragment opens the default example and writes its place into the URL', async () => {
    const { store, page, router } = setup('')
    await router.start()
    const { origin, streamKey, k } = store.getState()
    expect(origin).toEqual({ kind: 'example', id: 'seed' })
    expect(page.location.hash).toBe(`#ex=seed&s=${streamKey}&k=${k}`)
    expect(page.entries).toHaveLength(1)
  })

  it('a file this browser does not have: the example, and a banner asking for that file by name and place', async () => {
    const { store, page, router } = setup('#f=gone.jsonl&s=t1.s1.a1&k=2')
    await router.start()
    expect(store.getState().origin).toEqual({ kind: 'example', id: 'seed' })
    expect(store.getState().error).toBe(
      'gone.jsonl is not open in this browser (a link names a file, it does not carry it): ' +
        'drop it here to open stream t1.s1.a1 at position 2',
    )
    expect(parsePlace(page.location.hash).example).toBe('seed')
  })

  it('dropping the file a `#f=` link named opens it at the link’s stream and cursor', async () => {
    const name = 'web-cordis-tool-round-legacy-session.jsonl'
    const { store, page, router, open } = setup(`#f=${name}&s=t1.s2.a1&k=3`)
    await router.start()
    expect(store.getState().error).toContain(`${name} is not open in this browser`)
    await open({ kind: 'file', file: new File([readCorpus(name)], name) })
    expect(store.getState()).toMatchObject({ origin: { kind: 'file', name }, streamKey: 't1.s2.a1', k: 3 })
    expect(page.location.hash).toBe(`#f=${name}&s=t1.s2.a1&k=3`)
  })

  it('a file of another name opens as usual and leaves the awaited place for the named one', async () => {
    const name = 'web-cordis-tool-round-legacy-session.jsonl'
    const { store, router, open } = setup(`#f=${name}&s=t1.s2.a1&k=3`)
    await router.start()
    await open({ kind: 'file', file: new File([readCorpus(name)], 'renamed.jsonl') })
    const first = store.getState()
    expect(first.streamKey).toBe('t1.s1.a1')
    expect(first.k).toBe(first.engine?.total)
  })

  it('a reload after a paste: the example, and a banner asking for the paste; pasting again lands on the place', async () => {
    const { store, page, router, open } = setup('#paste&s=t1.s2.a1&k=3')
    await router.start()
    expect(store.getState().origin).toEqual({ kind: 'example', id: 'seed' })
    expect(store.getState().error).toBe(
      'the pasted text is gone (a reload does not keep pastes): paste it again to open stream t1.s2.a1 at position 3',
    )
    await open({ kind: 'text', text: readCorpus('web-cordis-tool-round-legacy-session.jsonl') })
    expect(store.getState()).toMatchObject({ origin: { kind: 'paste' }, streamKey: 't1.s2.a1', k: 3 })
    expect(page.location.hash).toBe('#paste&s=t1.s2.a1&k=3')
  })

  it('a remembered zstd log reopens through the same bytes reader as the worker, at the named place', async () => {
    const bytes = readFileSync(
      new URL(
        '../../formats/fixtures/binary/web-goal-multi-turn-actions-session.jsonl.zstd',
        import.meta.url,
      ),
    )
    const file = new File([bytes], 'log.session.jsonl.zstd')
    const recall = async (name: string) => (name === file.name ? file : null)
    const { store, router } = setup(`#f=${file.name}&s=t1.s2.a1&k=4`, '', {
      files: { remember: async () => {}, recall },
    })
    await router.start()
    const state = store.getState()
    expect(state.source?.format).toBe('dsh-session-zstd')
    expect(state).toMatchObject({ origin: { kind: 'file', name: file.name }, streamKey: 't1.s2.a1', k: 4 })
  })

  it('a `#v1.` link opens on its stream and cursor; the URL keeps the link', async () => {
    const source = loadSource(readCorpus('web-goal-multi-turn-actions-session.jsonl'), 'goal.jsonl')
    const attempt = source.sessions[0]!.streams[1]!
    const fragment = `#${await encodeShareLink(buildSharePayload({ source, attempt, streamKey: attempt.id, k: 5 }))}`
    const { store, page, router } = setup(fragment)
    await router.start()
    expect(store.getState()).toMatchObject({ origin: { kind: 'link' }, streamKey: attempt.id, k: 5 })
    store.getState().actions.seekTo(2)
    page.flushTimers()
    expect(page.location.hash).toBe(fragment)
  })

  it('a damaged link: the default example, and the link’s problem in the banner', async () => {
    const { store, page, router } = setup('#v1.AAAA')
    await router.start()
    expect(store.getState().origin).toEqual({ kind: 'example', id: 'seed' })
    expect(store.getState().error).toMatch(/link/)
    expect(parsePlace(page.location.hash).example).toBe('seed')
  })

  it('`?src=` is fetched and read like a dropped file; a failed fetch leaves the example and the reason', async () => {
    const text = readCorpus('acp-agent-text-turn-session.jsonl')
    const fetch = async (url: string | URL | Request) =>
      String(url).endsWith('/ok.jsonl') ? new Response(text) : new Response('no', { status: 404 })
    const ok = setup('', '?src=https://example.com/logs/ok.jsonl', {
      fetch: fetch as typeof globalThis.fetch,
    })
    await ok.router.start()
    expect(ok.store.getState().origin).toEqual({ kind: 'file', name: 'ok.jsonl' })
    expect(ok.page.location.hash).toMatch(/^#f=ok\.jsonl&s=/)

    const gone = setup('', '?src=https://example.com/gone.jsonl', { fetch: fetch as typeof globalThis.fetch })
    await gone.router.start()
    expect(gone.store.getState().origin).toEqual({ kind: 'example', id: 'seed' })
    expect(gone.store.getState().error).toBe('example.com not found (404): the file was moved or deleted')
  })

  it('`#live` and `?feed=` ask for the live captures (reconnecting this tab’s feeds)', () => {
    expect(requestFor(parsePlace('#live&s=1/t1.s1.a2&k=12'), '')).toEqual({
      open: { kind: 'live', reconnect: true, at: { stream: '1/t1.s1.a2', k: 12 } },
    })
    expect(requestFor({}, '?feed=http://127.0.0.1:8787').open).toEqual({
      kind: 'live',
      reconnect: true,
      feed: 'http://127.0.0.1:8787',
      at: {},
    })
    // An example in the fragment wins over `?src=`: the page was moved off the fetched file.
    expect(requestFor(parsePlace('#ex=straggler'), '?src=https://x.test/a.jsonl').open).toEqual({
      kind: 'example',
      id: 'straggler',
      at: {},
    })
  })
})

describe('router: state change → URL', () => {
  it('a run of cursor moves replaces the entry once, when the cursor rests (or a second into a longer run)', async () => {
    const { store, page, router } = setup('#ex=error-retry&s=t1.s1.a1&k=1')
    await router.start()
    for (let k = 2; k <= 5; k++) store.getState().actions.seekTo(k)
    // Each move put the rest timer off again: one of it and one bounding a long run, not one per move.
    expect(page.pendingTimers().sort((a, b) => a - b)).toEqual([REPLACE_MS, REPLACE_MAX_MS])
    expect(page.location.hash).toBe('#ex=error-retry&s=t1.s1.a1&k=1')
    page.flushTimers()
    expect(page.entries).toEqual(['#ex=error-retry&s=t1.s1.a1&k=5'])
    expect(page.pendingTimers()).toEqual([])
  })

  it('a new stream is a history entry; cursor moves replace it, throttled; Back returns to the stream', async () => {
    const { store, page, router } = setup('#ex=error-retry&s=t1.s1.a1&k=1')
    await router.start()
    await store.getState().actions.selectStream('t1.s1.a2', 0)
    expect(page.entries).toEqual(['#ex=error-retry&s=t1.s1.a1&k=1', '#ex=error-retry&s=t1.s1.a2&k=0'])
    store.getState().actions.seekTo(2)
    store.getState().actions.seekTo(3)
    expect(page.location.hash).toBe('#ex=error-retry&s=t1.s1.a2&k=0')
    page.flushTimers()
    expect(page.entries).toEqual(['#ex=error-retry&s=t1.s1.a1&k=1', '#ex=error-retry&s=t1.s1.a2&k=3'])

    page.back()
    await router.navigated()
    expect(store.getState()).toMatchObject({ streamKey: 't1.s1.a1', k: 1 })
    // Going back moved the page to where the URL already is: no new entry.
    expect(page.entries).toHaveLength(2)
    expect(page.index).toBe(0)
  })

  it('opening another source pushes its place; Back to the link re-opens the link', async () => {
    const source = loadSource(readCorpus('acp-agent-text-turn-session.jsonl'), 'text.jsonl')
    const attempt = source.sessions[0]!.streams[0]!
    const fragment = `#${await encodeShareLink(buildSharePayload({ source, attempt, streamKey: attempt.id, k: 2 }))}`
    const { store, page, router } = setup(fragment)
    await router.start()
    await store.getState().actions.showSource(loadSource(findExample('straggler')!.source()), {
      kind: 'example',
      id: 'straggler',
    })
    expect(page.entries).toEqual([fragment, expect.stringMatching(/^#ex=straggler&s=/)])
    page.back()
    await router.navigated()
    expect(store.getState()).toMatchObject({ origin: { kind: 'link' }, k: 2 })
  })

  it('writes nothing after dispose', async () => {
    const { store, page, router } = setup('#ex=seed')
    await router.start()
    const hash = page.location.hash
    router.dispose()
    await store.getState().actions.showSource(loadSource(findExample('straggler')!.source()), {
      kind: 'example',
      id: 'straggler',
    })
    expect(page.location.hash).toBe(hash)
  })
})
