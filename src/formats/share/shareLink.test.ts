import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SourcedChunk } from '../../core/protocol'
import { buildStreamSession } from '../../core/session'
import { anyStream } from '../../test/arbitraries'
import { sourced } from '../../test/chunks'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { loadSource } from '../load'
import type { LoadedSource } from '../types'
import { buildSharePayload, type SharePayload, type ShareScope } from './payload'
import {
  decodeShareLink,
  encodeShareLink,
  inspectShareLink,
  isShareFragment,
  MIN_ITERATIONS,
  type DecodedLink,
  type LinkError,
} from './shareLink'

/** Plain data of a stream, for toEqual. */
const plain = (chunks: readonly SourcedChunk[]) =>
  chunks.map(({ seq, time, chunk }) => ({ seq, time, chunk }))

async function share(
  source: LoadedSource,
  streamIndex: number,
  k: number,
  options: ShareScope = {},
): Promise<DecodedLink> {
  const attempt = source.sessions[0]!.streams[streamIndex]!
  const fragment = await encodeShareLink(
    buildSharePayload({ source, attempt, streamKey: attempt.id, k }, options),
  )
  expect(fragment).toMatch(/^v5\.[A-Za-z0-9_-]+$/)
  const decoded = await decodeShareLink(`#${fragment}`)
  if ('error' in decoded) throw new Error(decoded.error)
  return decoded
}

function openedStream(decoded: DecodedLink): SourcedChunk[] {
  const stream = decoded.source.sessions[0]!.streams.find((attempt) => attempt.id === decoded.streamKey)
  expect(stream).toBeDefined()
  return stream!.chunks
}

function bareSource(chunks: SourcedChunk[]): LoadedSource {
  return { format: 'chunk-ndjson', diagnostics: [], sessions: [buildStreamSession(chunks)] }
}

describe('share links round-trip the corpus', () => {
  it.each(corpusFiles())('%s: the whole log, every stream at its middle', async (name) => {
    const source = loadSource(readCorpus(name), name)
    const streams = source.sessions[0]!.streams
    for (let i = 0; i < streams.length; i++) {
      const k = streams[i]!.chunks.length >> 1
      const decoded = await share(source, i, k)
      expect(decoded.streamKey).toBe(streams[i]!.id)
      expect(decoded.k).toBe(k)
      expect(decoded.redacted).toBeNull()
      expect(decoded.source.name).toBe(name)
      // Every stream of the log, not only the selected one.
      const opened = decoded.source.sessions[0]!.streams
      expect(opened.map((attempt) => attempt.id)).toEqual(streams.map((attempt) => attempt.id))
      opened.forEach((attempt, j) => expect(plain(attempt.chunks)).toEqual(plain(streams[j]!.chunks)))
      expect(opened.map((a) => a.recorded?.seq ?? null)).toEqual(streams.map((a) => a.recorded?.seq ?? null))
    }
  })

  it.each(corpusFiles())('%s: each attempt alone, cursor at the end', async (name) => {
    const source = loadSource(readCorpus(name), name)
    const streams = source.sessions[0]!.streams
    for (let i = 0; i < streams.length; i++) {
      const total = streams[i]!.chunks.length
      const decoded = await share(source, i, total, { scope: 'stream' })
      expect(decoded.streamKey).toBe(streams[i]!.id)
      expect(decoded.sharedStream).toBe(streams[i]!.id)
      expect(decoded.k).toBe(total)
      expect(plain(openedStream(decoded))).toEqual(plain(streams[i]!.chunks))
    }
  })

  it('the session link also gives the same events (seq, time, data, citations)', async () => {
    const name = 'web-goal-multi-turn-actions-session.jsonl'
    const source = loadSource(readCorpus(name), name)
    const decoded = await share(source, 0, 3)
    const strip = (events: LoadedSource['sessions'][0]['events']) =>
      events.map(({ line: _line, packed: _packed, ...rest }) => rest)
    expect(strip(decoded.source.sessions[0]!.events)).toEqual(strip(source.sessions[0]!.events))
  })
})

describe('a source with several sessions (a zip, live captures)', () => {
  it('shares the log of the session holding the stream, opened as the only session', async () => {
    const first = loadSource(readCorpus('web-goal-multi-turn-actions-session.jsonl'), 'a')
    const second = loadSource(readCorpus('acp-agent-empty-response-retry-session.jsonl'), 'b')
    const source: LoadedSource = { ...first, sessions: [first.sessions[0]!, second.sessions[0]!] }
    const attempt = second.sessions[0]!.streams.at(-1)!
    const payload = buildSharePayload({
      source,
      sessionIndex: 1,
      attempt,
      streamKey: `1/${attempt.id}`,
      k: 2,
    })
    const decoded = await decodeShareLink(`#${await encodeShareLink(payload)}`)
    if ('error' in decoded) throw new Error(decoded.error)
    expect(decoded.source.sessions).toHaveLength(1)
    expect(decoded.source.sessions[0]!.header?.id).toBe(second.sessions[0]!.header?.id)
    expect(decoded.streamKey).toBe(attempt.id)
    expect(decoded.k).toBe(2)
    expect(plain(openedStream(decoded))).toEqual(plain(attempt.chunks))
  })
})

describe('encoding a big stream', () => {
  it('pauses between slices of its chunks and between sections, and still round-trips', async () => {
    const chunks = generateStream(50_000)
    const payload = buildSharePayload({
      source: bareSource(chunks),
      attempt: buildStreamSession(chunks).streams[0]!,
      streamKey: 'stream',
      k: 7,
    })
    let pauses = 0
    const fragment = await encodeShareLink(payload, { pause: async () => void (pauses += 1) })
    // Chunks read in slices of 20,000, each section, and the chunk numbers coded in slices of 5,000.
    expect(pauses).toBeGreaterThanOrEqual(2 + 2 + 9)
    const decoded = await decodeShareLink(fragment)
    if ('error' in decoded) throw new Error(decoded.error)
    expect(plain(openedStream(decoded))).toEqual(plain(chunks))
  })
})

describe('share links round-trip generated streams', () => {
  it.each([1, 10, 1000, 20_000])('%i generated chunks (seq, time, chunk, cursor)', async (n) => {
    const chunks = generateStream(n)
    for (const k of [0, n >> 1, chunks.length]) {
      const decoded = await share(bareSource(chunks), 0, k)
      expect(decoded.k).toBe(k)
      expect(plain(openedStream(decoded))).toEqual(plain(chunks))
    }
  })

  it('random streams of any chunks, with gaps in seq and null or negative times', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyStream(40),
        fc.array(fc.oneof(fc.constant(null), fc.integer({ min: -1e12, max: 2e12 })), { minLength: 40 }),
        fc.nat(),
        async (stream, times, cursor) => {
          let seq = 0
          const chunks = sourced(stream).map((item, i) => {
            seq += 1 + (i % 3)
            return { ...item, seq, time: times[i] ?? null }
          })
          const k = cursor % (chunks.length + 1)
          const decoded = await share(bareSource(chunks), 0, k)
          expect(decoded.k).toBe(k)
          expect(plain(openedStream(decoded))).toEqual(plain(chunks))
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('encrypted links', () => {
  const source = bareSource(generateStream(300))
  const attempt = source.sessions[0]!.streams[0]!
  const payload = buildSharePayload({ source, attempt, streamKey: 'stream', k: 120 })

  it('ask for the passphrase, refuse a wrong one, open with the right one', async () => {
    const fragment = await encodeShareLink(payload, {
      passphrase: 'correct horse',
      iterations: MIN_ITERATIONS,
    })
    expect(inspectShareLink(fragment)).toEqual({ version: 5, encrypted: true })
    expect(await decodeShareLink(fragment)).toMatchObject({ needsPassphrase: true })
    expect(await decodeShareLink(fragment, { passphrase: 'wrong horse' })).toMatchObject({
      wrongPassphrase: true,
    })
    const opened = await decodeShareLink(fragment, { passphrase: 'correct horse' })
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.encrypted).toBe(true)
    expect(opened.k).toBe(120)
    expect(plain(openedStream(opened))).toEqual(plain(attempt.chunks))
  })

  it('never repeat a ciphertext (fresh salt and iv)', async () => {
    const a = await encodeShareLink(payload, { passphrase: 'x', iterations: MIN_ITERATIONS })
    const b = await encodeShareLink(payload, { passphrase: 'x', iterations: MIN_ITERATIONS })
    expect(a).not.toBe(b)
  })

  it('plain links say they are not encrypted', async () => {
    expect(inspectShareLink(await encodeShareLink(payload))).toEqual({ version: 5, encrypted: false })
  })
})

describe('damaged links give a clear error, never a throw', () => {
  const source = bareSource(generateStream(200))
  const attempt = source.sessions[0]!.streams[0]!
  const payload = buildSharePayload({ source, attempt, streamKey: 'stream', k: 7 })
  const flip = (text: string, at: number) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const c = text[at]!
    return text.slice(0, at) + alphabet[(alphabet.indexOf(c) + 17) % 64] + text.slice(at + 1)
  }

  it('every flipped character of a plain link is caught', async () => {
    const fragment = await encodeShareLink(payload)
    for (let at = 3; at < fragment.length; at++) {
      const result = await decodeShareLink(flip(fragment, at))
      expect('error' in result, `flip at ${at}`).toBe(true)
      expect((result as LinkError).error).toMatch(/damaged|changed|cut short/)
    }
  })

  it('every flipped character of an encrypted link is caught as damage, not as a wrong passphrase', async () => {
    const fragment = await encodeShareLink(payload, { passphrase: 'p', iterations: MIN_ITERATIONS })
    for (let at = 3; at < fragment.length; at += 7) {
      const result = await decodeShareLink(flip(fragment, at), { passphrase: 'p' })
      expect('error' in result).toBe(true)
      expect(result).not.toHaveProperty('wrongPassphrase')
    }
  })

  it('a cut link is caught at every length', async () => {
    const fragment = await encodeShareLink(payload)
    for (let length = 0; length < fragment.length; length += 3) {
      const result = await decodeShareLink(fragment.slice(0, length))
      expect('error' in result, `cut at ${length}`).toBe(true)
    }
  })

  it('explains foreign characters, unknown versions and non-links', async () => {
    const fragment = await encodeShareLink(payload)
    expect(await decodeShareLink(fragment.slice(0, 20) + ' ' + fragment.slice(20))).toMatchObject({
      error: expect.stringMatching(/contains " "/),
    })
    expect(await decodeShareLink('v6.AAAA')).toMatchObject({ error: expect.stringMatching(/v6.*newer/) })
    expect(await decodeShareLink('#ex=seed')).toMatchObject({
      error: expect.stringMatching(/not a Chunkscope/),
    })
    expect(isShareFragment('#v1.abc')).toBe(true)
    expect(isShareFragment('#ex=seed&k=3')).toBe(false)
  })

  it('refuses a payload that decompresses past the cap (a zip bomb)', async () => {
    const huge = { ...payload, name: 'a'.repeat(4_000_000) }
    const fragment = await encodeShareLink(huge)
    expect(fragment.length).toBeLessThan(20_000)
    expect(await decodeShareLink(fragment, { maxBytes: 1024 * 1024 })).toMatchObject({
      error: expect.stringMatching(/larger than 1 MiB/),
    })
  })

  it('rejects well-formed frames whose payload is not a share', async () => {
    const cases: [unknown, RegExp][] = [
      [[1, 2], /array/],
      [{ v: 1, source: { kind: 'chunks', chunks: [], seq: [], time: [] } }, /cursor/],
      [{ v: 1, k: 0, source: { kind: 'mystery' } }, /unknown/],
      [{ v: 1, k: 0, source: { kind: 'chunks', chunks: [{}], seq: [], time: [] } }, /counts differ/],
      [
        { v: 1, k: 0, source: { kind: 'chunks', chunks: [], seq: [], time: [] }, window: { from: 0 } },
        /window/,
      ],
      [{ v: 1, k: 0, source: { kind: 'session', records: [{ type: 'session', version: 0 }] } }, /no stream/],
      [{ v: 3, k: 0 }, /version 3/],
      // Nesting no reader lets through: refused before anything walks it.
      [{ v: 1, k: 0, x: JSON.parse('['.repeat(1000) + ']'.repeat(1000)) as unknown }, /nested deeper than/],
    ]
    for (const [value, message] of cases) {
      const result = await decodeShareLink(await encodeShareLink(value as SharePayload))
      expect(result).toMatchObject({ error: expect.stringMatching(message) })
    }
  })

  it('keeps only the data of odd chunks (no code runs, unknown types stay unknown chunks)', async () => {
    const chunks = sourced([
      { type: 'text-delta', index: 0, text: '<img src=x onerror=alert(1)>' },
      { type: 'constructor', __proto__: { polluted: true } } as never,
      42 as never,
    ])
    const payload = buildSharePayload({
      source: bareSource(chunks),
      attempt: buildStreamSession(chunks).streams[0]!,
      streamKey: 'stream',
      k: 1,
    })
    const decoded = await decodeShareLink(await encodeShareLink(payload))
    if ('error' in decoded) throw new Error(decoded.error)
    const opened = openedStream(decoded)
    expect(opened.map((s) => s.chunk.type)).toEqual(['text-delta', 'constructor'])
    expect(decoded.source.diagnostics.some((d) => d.message.includes('not a StreamChunk'))).toBe(true)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})
