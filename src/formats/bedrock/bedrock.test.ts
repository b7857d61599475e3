import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../core/protocol'
import { loadBytes } from '../loadBytes'
import { loadSource } from '../load'

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/bedrock/${name}`, import.meta.url)))
const chunksOf = (source: Awaited<ReturnType<typeof loadBytes>>): StreamChunk[] =>
  source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk as StreamChunk)
/** What scripts/make-bedrock-fixtures.mjs sent as the tool's input. */
const SENT_INPUT = { city: 'Paris', units: 'celsius', days: [1, 2] }

describe('Bedrock ConverseStream event-stream bodies (docs/protocol.md §9.4)', () => {
  it('reasoning, text and a tool call become blocks; tool_use finishes tool-calls with the usage sent', async () => {
    const source = await loadBytes(fixture('reasoning-tool-call.eventstream'))
    expect(source.format).toBe('bedrock-eventstream')
    expect(source.diagnostics).toEqual([])
    const chunks = chunksOf(source)
    const ends = chunks.filter((c) => c.type === 'block-end')
    expect(ends.map((c) => c.block.type)).toEqual(['reasoning', 'text', 'tool-call'])
    expect(ends[0]!.block).toEqual({ type: 'reasoning', text: 'The user wants the weather.' })
    expect(ends[1]!.block).toEqual({ type: 'text', text: 'Let me check the forecast.' })
    const call = ends[2]!.block
    if (call.type !== 'tool-call') throw new Error('not a tool call')
    expect(call.id).toBe('tooluse_kZJMlvQmRJ6eAyJE5GIl7Q')
    expect(call.name).toBe('get_weather')
    expect(JSON.parse(call.arguments as string)).toEqual(SENT_INPUT)
    const deltas = chunks.filter((c) => c.type === 'tool-call-delta')
    expect(JSON.parse(deltas.map((c) => c.argumentsDelta).join(''))).toEqual(SENT_INPUT)
    expect(chunks.at(-2)).toEqual({
      type: 'usage',
      usage: { inputTokens: 412, outputTokens: 57, cacheReadTokens: 256, cacheWriteTokens: 64 },
    })
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: { kind: 'tool-calls' } })
  })

  it('a throttlingException frame fails the stream in-band, the open text block left open', async () => {
    const chunks = chunksOf(await loadBytes(fixture('throttling-exception.eventstream')))
    expect(chunks.filter((c) => c.type === 'block-end')).toEqual([])
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: {
          message: 'Throttling error: Too many requests, please wait before trying again.',
          // The route classifies by wording only (429 / "rate limit"): Bedrock's throttling wording is neither.
          code: 'PI_AI_ERROR',
        },
      },
    })
  })

  it('a bad CRC names the frame and byte offset; the frames before it are kept', async () => {
    const source = await loadBytes(fixture('bad-crc.eventstream'))
    expect(source.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringMatching(/^frame 5 at byte 663: CRC32 check failed: The message checksum/),
      }),
    ])
    const chunks = chunksOf(source)
    expect(chunks.filter((c) => c.type === 'reasoning-delta').map((c) => c.text)).toEqual([
      'The user wants ',
      'the weather.',
    ])
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: { kind: 'error' } })
  })

  it('a torn last frame is a diagnostic, not a crash; the whole frames are read', async () => {
    const source = await loadBytes(fixture('torn.eventstream'))
    expect(source.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringMatching(/^frame 15 at byte \d+: the body ends inside this frame/),
      }),
    ])
    const chunks = chunksOf(source)
    expect(chunks.filter((c) => c.type === 'block-end')).toHaveLength(3)
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: { message: 'Truncated event message received.', code: 'PI_AI_ERROR' },
      },
    })
  })

  it('the older event-stream fixture (messageStart, one text delta) reads as a text block', async () => {
    const bytes = new Uint8Array(
      readFileSync(new URL('../fixtures/bedrock-converse-stream.eventstream', import.meta.url)),
    )
    const chunks = chunksOf(await loadBytes(bytes))
    expect(chunks.filter((c) => c.type === 'block-end')).toEqual([
      { type: 'block-end', index: 0, block: { type: 'text', text: 'Hello' } },
    ])
  })

  it('every cut of a body reads without throwing', async () => {
    const whole = fixture('reasoning-tool-call.eventstream')
    for (let cut = 0; cut < whole.length; cut += 7) {
      const source = await loadBytes(whole.slice(0, cut))
      expect(source.diagnostics.length + source.sessions.length).toBeGreaterThan(0)
    }
  })

  it('the decoded form (one {"<event>": …} object a line) reads the same way', () => {
    const text = readFileSync(new URL('../fixtures/bedrock-converse-events.ndjson', import.meta.url), 'utf8')
    const source = loadSource(text)
    expect(source.format).toBe('bedrock-converse-events')
    const chunks = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk as StreamChunk)
    expect(chunks.filter((c) => c.type === 'block-end')).toEqual([
      { type: 'block-end', index: 0, block: { type: 'text', text: 'Hello' } },
    ])
    expect(chunks.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: 12, outputTokens: 3 } })
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: { kind: 'stop' } })
  })
})
