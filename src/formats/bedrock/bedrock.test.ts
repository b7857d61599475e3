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

  // pi-ai finds a block by `index === contentBlockIndex` and deletes a stopped block's index (docs/protocol.md §9.4).
  it('events with no contentBlockIndex find the first stopped block: a straggler delta, a second end', async () => {
    const chunks = chunksOf(await loadBytes(fixture('stop-without-index.eventstream')))
    const call = { id: 'tooluse_1', name: 'get_weather' }
    expect(chunks.slice(0, -2)).toEqual([
      { type: 'block-start', index: 0, blockType: 'text' },
      { type: 'text-delta', index: 0, text: 'A' },
      { type: 'block-end', index: 0, block: { type: 'text', text: 'A' } },
      { type: 'text-delta', index: 0, text: 'B' },
      { type: 'block-start', index: 1, blockType: 'tool-call' },
      { type: 'tool-call-delta', index: 1, ...call, argumentsDelta: '{"city":"Paris"}' },
      { type: 'block-end', index: 1, block: { type: 'tool-call', ...call, arguments: '{"city":"Paris"}' } },
      { type: 'block-end', index: 0, block: { type: 'text', text: 'AB' } },
    ])
  })

  it("a tool call's input starts afresh after its stop (pi-ai deletes the scratch text)", () => {
    const text = [
      { messageStart: { role: 'assistant' } },
      { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't1', name: 'f' } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":1}' } } } },
      { contentBlockStop: { contentBlockIndex: 0 } },
      { contentBlockDelta: { delta: { toolUse: { input: '{"b":2}' } } } },
      { contentBlockStop: {} },
      { messageStop: { stopReason: 'tool_use' } },
    ]
      .map((event) => JSON.stringify(event))
      .join('\n')
    const chunks = loadSource(text).sessions[0]!.streams[0]!.chunks.map((c) => c.chunk as StreamChunk)
    expect(chunks.filter((c) => c.type === 'block-end').map((c) => c.block)).toEqual([
      { type: 'tool-call', id: 't1', name: 'f', arguments: '{"a":1}' },
      { type: 'tool-call', id: 't1', name: 'f', arguments: '{"b":2}' },
    ])
  })
})
