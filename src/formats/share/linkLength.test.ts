import { describe, expect, it } from 'vitest'
import { buildStreamSession } from '../../core/session'
import { readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { loadSource } from '../load'
import { describeLinkLength } from './linkLength'
import { measureShareOptions } from './shareOptions'

describe('link length against the limits people hit', () => {
  it('says which limits a length fits', () => {
    expect(describeLinkLength(1500).summary).toBe('1,500 characters: fits chat tools (~2,000)')
    expect(describeLinkLength(7412).summary).toBe(
      '7,412 characters: too long for chat tools (~2,000); fits many trackers and servers (~8,000)',
    )
    expect(describeLinkLength(300_000).summary).toBe(
      '300,000 characters: too long for many trackers and servers (~8,000); fits browsers (2 MiB)',
    )
    const over = describeLinkLength(3 * 1024 * 1024)
    expect(over.tooLong).toBe(true)
    expect(over.summary).toMatch(/over the browser maximum/)
    expect(over.limits.map((l) => l.fits)).toEqual([false, false, false])
  })
})

describe('measureShareOptions', () => {
  it('lists every way down for a session, largest first', async () => {
    const name = 'web-goal-multi-turn-actions-session.jsonl'
    const source = loadSource(readCorpus(name), name)
    const attempt = source.sessions[0]!.streams[1]!
    const { options, smallest } = await measureShareOptions(
      { source, attempt, streamKey: attempt.id, k: 30 },
      'http://localhost:5173/',
      20,
    )
    expect(options.map((o) => o.id).sort()).toEqual(
      ['session', 'session-redacted', 'stream', 'stream-redacted', 'window', 'window-redacted'].sort(),
    )
    const chars = options.map((o) => o.length.chars)
    expect(chars).toEqual([...chars].sort((a, b) => b - a))
    expect(options[0]!.id).toBe('session')
    // Redaction makes every option shorter; which scope is smallest depends on the stream.
    expect(smallest.id).toMatch(/redacted$/)
    expect(smallest.length.chars).toBe('http://localhost:5173/#'.length + smallest.fragment.length)
  })

  it('a bare stream shorter than the window has no window option', async () => {
    const chunks = generateStream(50)
    const source = { format: 'chunk-json' as const, diagnostics: [], sessions: [buildStreamSession(chunks)] }
    const attempt = source.sessions[0]!.streams[0]!
    const { options } = await measureShareOptions({ source, attempt, streamKey: 'stream', k: 10 }, 'x', 200)
    expect(options.map((o) => o.id).sort()).toEqual(['stream', 'stream-redacted'])
  })
})
