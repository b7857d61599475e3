import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { listStreams } from '../streamRefs'
import { loadSource } from '../load'
import type { LoadedSource } from '../types'
import { buildSharePayload, openSharePayload } from './payload'
import { FULL_REDACTION } from './redact'
import { decodeShareLink, encodeShareLink } from './shareLink'

const lessonSource = (id: string) =>
  loadSource(readFileSync(new URL(`../../examples/lessons/${id}.json`, import.meta.url), 'utf8'))

async function roundTrip(
  source: LoadedSource,
  key: string,
  options: Parameters<typeof buildSharePayload>[1] = {},
) {
  const entry = listStreams(source).find((candidate) => candidate.key === key)!
  const payload = buildSharePayload({ source, attempt: entry.attempt, streamKey: key, k: 3 }, options)
  const opened = await decodeShareLink(await encodeShareLink(payload))
  if ('error' in opened) throw new Error(opened.error)
  return opened
}

describe('a share link carries the lesson (payload field "lesson")', () => {
  it('narration and questions in every language, for a bare stream and for one attempt of a log', async () => {
    const seed = lessonSource('seed')
    const opened = await roundTrip(seed, 'stream')
    expect(opened.source.lesson).toEqual(seed.lesson)
    expect(opened.k).toBe(3)
    const log = lessonSource('error-retry')
    for (const scope of ['session', 'stream'] as const) {
      const shared = await roundTrip(log, 't1.s1.a2', { scope })
      expect(shared.source.lesson).toEqual(log.lesson)
      expect(shared.streamKey).toBe('t1.s1.a2')
      // The narration still names the same chunks: seqs travel with them.
      const chunks = listStreams(shared.source).find((e) => e.key === shared.streamKey)!.attempt.chunks
      expect(chunks.map((c) => c.seq)).toContain(17)
    }
  })

  it('a redacted share leaves the lesson out; a source without one carries none', async () => {
    expect(
      (await roundTrip(lessonSource('seed'), 'stream', { redact: FULL_REDACTION })).source.lesson,
    ).toBeUndefined()
    const bare = loadSource('{"type":"text-delta","index":0,"text":"x"}\n')
    expect(
      buildSharePayload({ source: bare, attempt: bare.sessions[0]!.streams[0]!, streamKey: 'stream', k: 0 }),
    ).not.toHaveProperty('lesson')
  })

  it('a damaged lesson in a link is reported and what is sound is kept', () => {
    const source = lessonSource('seed')
    const payload = buildSharePayload({
      source,
      attempt: source.sessions[0]!.streams[0]!,
      streamKey: 'stream',
      k: 0,
    })
    const opened = openSharePayload({
      ...payload,
      lesson: { ...payload.lesson, narration: { '1': 5, '2': 'kept' } },
    })
    if ('error' in opened) throw new Error(opened.error)
    expect(opened.source.lesson?.narration).toEqual({ '2': 'kept' })
    expect(opened.source.diagnostics.map((d) => d.message)).toContain(
      'link lesson: narration["1"]: expected a string or { en, zh, ja }, got number',
    )
    const broken = openSharePayload({ ...payload, lesson: 'nope' })
    if ('error' in broken) throw new Error(broken.error)
    expect(broken.source.lesson).toBeUndefined()
    expect(broken.source.diagnostics.at(-1)?.message).toMatch(/not a version 1 lesson/)
  })
})
