import { readFileSync } from 'node:fs'
import initSqlJs, { type SqlJsStatic } from 'sql.js'
import { describe, expect, it } from 'vitest'
import { buildSharePayload } from '../../formats/share/payload'
import { encodeShareLink, MIN_ITERATIONS } from '../../formats/share/shareLink'
import { loadBytes } from '../../formats/loadBytes'
import { loadSource } from '../../formats/load'
import { readCorpus } from '../../test/corpus'
import { createChunkscopeStore } from '../store'
import type { LoadProgress } from '../workers/loadMessages'
import { createOpener, type LiveEntrance, type OpenDeps } from './openSource'

let started: Promise<SqlJsStatic> | null = null
const sqlJs = () => (started ??= initSqlJs())
const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../formats/fixtures/binary/${name}`, import.meta.url)))

function setup(deps: Partial<OpenDeps> = {}) {
  const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
  const remembered: string[] = []
  const open = createOpener({
    store,
    sqlJs,
    files: { remember: async (file) => void remembered.push(file.name), recall: async () => null },
    ...deps,
  })
  const phases: LoadProgress['phase'][] = []
  store.subscribe((state, previous) => {
    if (state.progress !== null && state.progress !== previous.progress) phases.push(state.progress.phase)
  })
  return { store, open, remembered, phases }
}

describe('open(): files read the same way on every thread', () => {
  it.each([
    ['web-goal-multi-turn-actions-session.jsonl.zstd', 'dsh-session-zstd'],
    ['dsh-session-11111111-1111-4111-8111-111111111111.zip', 'dsh-session-zip'],
    ['dsh-sessions.sqlite', 'dsh-sqlite'],
  ])('%s opens as loadBytes reads it (the worker’s reader), with progress', async (name, format) => {
    const { store, open, remembered, phases } = setup()
    const bytes = fixture(name)
    expect(await open({ kind: 'file', file: new File([bytes], name) })).toEqual({ kind: 'opened' })
    const { source, origin, status, error } = store.getState()
    expect(source?.format).toBe(format)
    expect(source).toEqual(await loadBytes(bytes, name, { sqlJs }))
    expect({ origin, status, error }).toEqual({ origin: { kind: 'file', name }, status: 'idle', error: null })
    expect(phases).toEqual(expect.arrayContaining(['reading', 'parsing']))
    expect(remembered).toEqual([name])
  })

  it('pasted text opens as loadSource reads it, named "pasted text"', async () => {
    const { store, open } = setup()
    const text = readCorpus('acp-agent-cancel-session.jsonl')
    await open({ kind: 'text', text })
    expect(store.getState().origin).toEqual({ kind: 'paste', name: 'pasted text' })
    expect(store.getState().source).toEqual(loadSource(text, 'pasted text'))
  })

  it('an unreadable file: what could be read stays, the reason is in the banner', async () => {
    const { store, open } = setup()
    await open({
      kind: 'file',
      file: new File([fixture('sqlite-not-a-session-store.sqlite')], 'notes.sqlite'),
    })
    expect(store.getState()).toMatchObject({
      origin: { kind: 'file', name: 'notes.sqlite' },
      status: 'idle',
      engine: null,
      error: expect.stringMatching(
        /^sqlite: not a DeepSeek Harness session store: application_id 0x00000000/,
      ),
    })
  })
})

describe('open(): one way to report, one request at a time', () => {
  it('an unknown example fails in words, and `orElse` keeps the page usable under the message', async () => {
    const { store, open } = setup()
    const outcome = await open({ kind: 'example', id: 'nope' }, { orElse: { kind: 'example', id: 'seed' } })
    expect(outcome).toEqual({ kind: 'failed', error: 'there is no built-in example "nope"' })
    expect(store.getState()).toMatchObject({
      origin: { kind: 'example', id: 'seed' },
      error: 'there is no built-in example "nope"',
    })
  })

  it('only the newest request lands: a file still reading when an example opens is dropped', async () => {
    const { store, open } = setup()
    const slow = open({ kind: 'file', file: new File([fixture('dsh-sessions.sqlite')], 'slow.sqlite') })
    const fast = open({ kind: 'example', id: 'straggler' })
    expect(await fast).toEqual({ kind: 'opened' })
    expect(await slow).toEqual({ kind: 'superseded' })
    expect(store.getState().origin).toEqual({ kind: 'example', id: 'straggler' })
  })

  it('an encrypted link asks for the passphrase, again after a wrong one; cancelling is a failure in words', async () => {
    const source = loadSource(readCorpus('acp-agent-text-turn-session.jsonl'), 'text.jsonl')
    const attempt = source.sessions[0]!.streams[0]!
    const fragment = `#${await encodeShareLink(buildSharePayload({ source, attempt, streamKey: attempt.id, k: 3 }), { passphrase: 'tulip', iterations: MIN_ITERATIONS })}`
    const asked: (string | null)[] = []
    const answers = ['rose', 'tulip']
    const { store, open } = setup({
      askPassphrase: async (problem) => {
        asked.push(problem)
        return answers.shift() ?? null
      },
    })
    expect(await open({ kind: 'link', fragment })).toEqual({ kind: 'opened' })
    expect(asked).toEqual([null, expect.stringMatching(/Try again\.$/)])
    expect(store.getState()).toMatchObject({ origin: { kind: 'link', encrypted: true }, k: 3 })

    const outcome = await open({ kind: 'link', fragment })
    expect(outcome).toEqual({
      kind: 'failed',
      error: 'the shared link was not opened: it is encrypted and no passphrase was given',
    })
  })

  it('live: restores, reconnects, connects the feed, shows; a bad feed URL is reported over the live view', async () => {
    const calls: string[] = []
    const live: LiveEntrance = {
      restore: async () => (calls.push('restore'), 0),
      reconnect: () => void calls.push('reconnect'),
      connect: (url) => (calls.push(`connect ${url}`), 'the feed address is not a URL'),
      show: async () => void calls.push('show'),
    }
    const { store, open } = setup({ live })
    const outcome = await open({ kind: 'live', feed: 'nonsense', reconnect: true })
    expect(calls).toEqual(['restore', 'reconnect', 'connect nonsense', 'show'])
    expect(outcome).toEqual({ kind: 'failed', error: 'the feed address is not a URL' })
    expect(store.getState().error).toBe('the feed address is not a URL')
  })
})
