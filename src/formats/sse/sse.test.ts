import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../registry'
import { loadSource } from '../load'
import { wireEvent, wireEventOfChunk } from '../wire'
import { httpFailure, httpFailureCode } from './httpFailure'
import { createDeepSeekTranslator } from './openai'
import { createTranslator, readSseStream } from './readSse'
import { scanSse, SseParser, type SseEvent } from './sseEvents'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
const sse = (...payloads: unknown[]) =>
  payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`).join('')
const chunksOf = (text: string, dialect: 'openai-sse' | 'anthropic-sse' = 'openai-sse') =>
  readSseStream(text, dialect).attempt!.chunks.map((c) => c.chunk)

describe('scanSse', () => {
  it('joins data lines, keeps event names, skips comments and dispatches at blank lines', () => {
    const events: { data: string; event: string; line: number }[] = []
    const scan = scanSse(': hi\r\nevent: a\r\ndata: one\r\ndata:two\r\nid: 7\r\n\r\n\r\ndata: x\n', (e) =>
      events.push({ data: e.data, event: e.event, line: e.line }),
    )
    expect(events).toEqual([{ data: 'one\ntwo', event: 'a', line: 2 }])
    // The last event has no blank line after it: eventsource-parser never dispatches it (docs/protocol.md §9).
    expect(scan).toMatchObject({ comments: 1, tornTail: null, unterminatedLast: { line: 8 } })
  })

  it('does not read a torn last line', () => {
    const events: string[] = []
    const scan = scanSse('data: 1\n\ndata: {"cut', (e) => events.push(e.data))
    expect(events).toEqual(['1'])
    expect(scan.tornTail).toEqual({ line: 3, text: 'data: {"cut', loneCr: false })
  })
})

describe('SseParser (incremental, for live capture)', () => {
  it('gives the same events as scanSse however the body is cut into pieces, and the same chunks', () => {
    for (const name of [
      'deepseek-reasoner-tool-calls.sse',
      'anthropic-thinking-tool-use.sse',
      'deepseek-reasoner-truncated.sse',
    ]) {
      const text = fixture(name).replaceAll('\n', '\r\n')
      const whole: SseEvent[] = []
      scanSse(text, (e) => whole.push(e))
      for (const size of [1, 7, 64, 1000]) {
        const parser = new SseParser()
        const pieces: SseEvent[] = []
        for (let at = 0; at < text.length; at += size) pieces.push(...parser.feed(text.slice(at, at + size)))
        pieces.push(...parser.end())
        expect(pieces).toEqual(whole)
      }
      const dialect = name.startsWith('anthropic') ? 'anthropic-sse' : 'openai-sse'
      const live = createTranslator(dialect)
      const parser = new SseParser()
      const chunks = []
      for (let at = 0; at < text.length; at += 13) {
        for (const event of parser.feed(text.slice(at, at + 13)))
          chunks.push(...live.push(event.data, event.event))
      }
      for (const event of parser.end()) chunks.push(...live.push(event.data, event.event))
      if (!live.finished) chunks.push(...live.end('eof'))
      expect(chunks).toEqual(chunksOf(text, dialect))
    }
  })
  it('holds a lone CR that ends a piece until a later piece brings a line break, as eventsource-parser does', () => {
    // docs/protocol.md §9 "Framing": the library keeps a CR ending a piece (it may start a CRLF) and re-reads it only
    // when a later piece holds a line break; a piece without one just joins it. So when the body ends on such a piece
    // the blank line that CR made never dispatches the event, and the harness's body ends before [DONE].
    const read = (pieces: string[]) => {
      const parser = new SseParser()
      const translator = createTranslator('openai-sse')
      const events: string[] = []
      const chunks = []
      for (const piece of pieces)
        for (const event of parser.feed(piece)) {
          events.push(event.data)
          chunks.push(...translator.push(event.data, event.event))
        }
      parser.end()
      if (!translator.finished) chunks.push(...translator.end('eof'))
      return { events, chunks }
    }
    expect(read(['data: [done]\r\r', ': tail'])).toEqual({
      events: [],
      chunks: [
        {
          type: 'finish',
          reason: {
            kind: 'error',
            failure: { message: 'SSE stream ended without [DONE]', code: 'STREAM_CLOSED' },
          },
        },
      ],
    })
    // A later piece with a line break reads the held CR: the blank line dispatches, and [done] is bad JSON.
    expect(read(['data: [done]\r\r', ': tail', '\n']).chunks).toEqual([
      {
        type: 'finish',
        reason: {
          kind: 'error',
          failure: { message: 'malformed SSE payload: [done]', code: 'MALFORMED_RESPONSE' },
        },
      },
    ])
    // In one piece the CR is followed by a character, so it is read at once.
    expect(read(['data: x\r\r: tail']).events).toEqual(['x'])
  })
})

describe('DeepSeek / OpenAI-compatible translation (docs/protocol.md §9)', () => {
  it('reproduces the §9 worked example exactly', () => {
    const tc = (call: Record<string, unknown>) => ({ choices: [{ index: 0, delta: { tool_calls: [call] } }] })
    const text = sse(
      { choices: [{ index: 0, delta: { reasoning_content: '' } }] },
      tc({ index: 0, id: 'call_00_x', function: { name: 'get_weather', arguments: '' } }),
      tc({ index: 0, function: { arguments: '{"city"' } }),
      tc({ index: 0, function: { arguments: ': "Paris"}' } }),
      {
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 28, completion_tokens: 6 },
      },
      '[DONE]',
    )
    const tcd = (argumentsDelta: string) => ({
      type: 'tool-call-delta',
      index: 0,
      id: 'call_00_x',
      name: 'get_weather',
      argumentsDelta,
    })
    expect(chunksOf(text)).toEqual([
      { type: 'block-start', index: 0, blockType: 'tool-call' },
      tcd(''),
      tcd('{"city"'),
      tcd(': "Paris"}'),
      {
        type: 'block-end',
        index: 0,
        block: { type: 'tool-call', id: 'call_00_x', name: 'get_weather', arguments: '{"city": "Paris"}' },
      },
      { type: 'usage', usage: { inputTokens: 28, outputTokens: 6 } },
      { type: 'finish', reason: { kind: 'tool-calls' } },
    ])
  })

  it('opens one reasoning and one text block lazily; later text appends to the earlier text block', () => {
    const t = createDeepSeekTranslator()
    const d = (delta: unknown) => JSON.stringify({ choices: [{ index: 0, delta }] })
    expect(t.push(d({ reasoning_content: 'a' }))).toEqual([
      { type: 'block-start', index: 0, blockType: 'reasoning' },
      { type: 'reasoning-delta', index: 0, text: 'a' },
    ])
    expect(t.push(d({ content: 'x', reasoning_content: 'b' }))).toEqual([
      { type: 'reasoning-delta', index: 0, text: 'b' },
      { type: 'block-start', index: 1, blockType: 'text' },
      { type: 'text-delta', index: 1, text: 'x' },
    ])
    expect(t.push(d({ tool_calls: [{ index: 3, function: { arguments: '{' } }] }))).toEqual([
      { type: 'block-start', index: 2, blockType: 'tool-call' },
      { type: 'tool-call-delta', index: 2, id: '', argumentsDelta: '{' },
    ])
    // id known late is sticky; name repeated once known; arguments ?? ''
    expect(t.push(d({ tool_calls: [{ index: 3, id: 'c9', function: { name: 'f' } }] }))).toEqual([
      { type: 'tool-call-delta', index: 2, id: 'c9', name: 'f', argumentsDelta: '' },
    ])
    expect(t.push(d({ tool_calls: [{ index: 3, function: { arguments: '}' } }], content: 'y' }))).toEqual([
      { type: 'text-delta', index: 1, text: 'y' },
      { type: 'tool-call-delta', index: 2, id: 'c9', name: 'f', argumentsDelta: '}' },
    ])
    expect(t.end('done')).toEqual([
      { type: 'block-end', index: 0, block: { type: 'reasoning', text: 'ab' } },
      { type: 'block-end', index: 1, block: { type: 'text', text: 'xy' } },
      { type: 'block-end', index: 2, block: { type: 'tool-call', id: 'c9', name: 'f', arguments: '{}' } },
      { type: 'finish', reason: { kind: 'stop' } },
    ])
    expect(t.finished).toBe(true)
    expect(t.push(d({ content: 'late' }))).toEqual([])
  })

  it('maps finish reasons, including unknown ones to an error with the upper-cased code', () => {
    const finishOf = (reason: string) =>
      chunksOf(sse({ choices: [{ delta: { content: 'a' }, finish_reason: reason }] }, '[DONE]')).at(-1)
    expect(finishOf('stop')).toEqual({ type: 'finish', reason: { kind: 'stop' } })
    expect(finishOf('length')).toEqual({ type: 'finish', reason: { kind: 'max-tokens' } })
    expect(finishOf('content_filter')).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: { message: 'model stopped: content_filter', code: 'CONTENT_FILTER' },
      },
    })
  })

  it('maps usage with cached tokens (either field) and reasoning tokens, last wins', () => {
    const usageOf = (usage: unknown) =>
      chunksOf(sse({ choices: [{ delta: { content: 'a' } }] }, { choices: [], usage }, '[DONE]')).find(
        (c) => c.type === 'usage',
      )
    expect(
      usageOf({
        prompt_tokens: 100,
        completion_tokens: 9,
        prompt_tokens_details: { cached_tokens: 60 },
        completion_tokens_details: { reasoning_tokens: 4 },
      }),
    ).toEqual({
      type: 'usage',
      usage: { inputTokens: 40, outputTokens: 9, cacheReadTokens: 60, reasoningTokens: 4 },
    })
    expect(usageOf({ prompt_tokens: 100, completion_tokens: 9, prompt_cache_hit_tokens: 30 })).toEqual({
      type: 'usage',
      usage: { inputTokens: 70, outputTokens: 9, cacheReadTokens: 30 },
    })
  })

  it('turns a stop with no block into EMPTY_RESPONSE, after usage', () => {
    const chunks = chunksOf(
      sse(
        { choices: [{ delta: { content: '' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5 } },
        '[DONE]',
      ),
    )
    expect(chunks).toEqual([
      // No completion_tokens: the harness leaves outputTokens out (its translate.ts copies the field as is).
      { type: 'usage', usage: { inputTokens: 5 } },
      {
        type: 'finish',
        reason: {
          kind: 'error',
          failure: { message: 'model returned a completed response with no content', code: 'EMPTY_RESPONSE' },
        },
      },
    ])
  })

  it('ends with MALFORMED_RESPONSE at bad JSON and STREAM_CLOSED at end of body, blocks left open', () => {
    const malformed = chunksOf(sse({ choices: [{ delta: { content: 'a' } }] }, '{"choices": [', '[DONE]'))
    expect(malformed.map((c) => c.type)).toEqual(['block-start', 'text-delta', 'finish'])
    expect(malformed.at(-1)).toMatchObject({
      reason: { kind: 'error', failure: { code: 'MALFORMED_RESPONSE' } },
    })
    const closed = chunksOf(sse({ choices: [{ delta: { content: 'a' } }] }))
    expect(closed.at(-1)).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: { message: 'SSE stream ended without [DONE]', code: 'STREAM_CLOSED' },
      },
    })
  })
})

describe('HTTP failures (§9)', () => {
  it('maps statuses to codes', () => {
    expect([401, 403, 429, 413, 404, 500, 503].map((s) => httpFailureCode(s))).toEqual([
      'AUTH',
      'AUTH',
      'RATE_LIMIT',
      'INVALID_REQUEST',
      'HTTP_404',
      'SERVER',
      'SERVER',
    ])
    expect(
      httpFailureCode(400, '{"error":{"message":"This model\'s maximum context length is 65536 tokens"}}'),
    ).toBe('CONTEXT_WINDOW_EXCEEDED')
    expect(httpFailureCode(400, '{"error":{"message":"bad tool schema"}}')).toBe('INVALID_REQUEST')
  })

  it('reads Retry-After (seconds or date) and x-request-id', () => {
    expect(
      httpFailure(429, { 'retry-after': '2', 'x-request-id': 'req_1' }, '{"error":{"message":"slow down"}}'),
    ).toEqual({
      message: 'slow down',
      code: 'RATE_LIMIT',
      status: 429,
      providerRetryAfterMs: 2000,
      requestId: 'req_1',
    })
    const now = Date.parse('2026-11-29T10:00:00Z')
    expect(httpFailure(503, { 'Retry-After': 'Sun, 29 Nov 2026 10:00:05 GMT' }, '', now)).toEqual({
      message: 'DeepSeek API error (HTTP 503)',
      code: 'SERVER',
      status: 503,
      providerRetryAfterMs: 5000,
    })
    expect(httpFailure(500, new Headers({ 'x-request-id': 'abc' })).requestId).toBe('abc')
  })

  it('reads a captured error response with its HTTP head as a one-chunk failed stream', () => {
    const source = loadSource(fixture('deepseek-rate-limited.http'))
    expect(source.format).toBe('openai-sse')
    expect(source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)).toEqual([
      {
        type: 'finish',
        reason: {
          kind: 'error',
          failure: {
            message: 'Rate limit reached for requests',
            code: 'RATE_LIMIT',
            status: 429,
            providerRetryAfterMs: 7000,
            requestId: '01JDX3Q9R8M2K7ZP',
          },
        },
      },
    ])
  })
})

// The Anthropic route's cases live in anthropic.test.ts and anthropic.oracle.test.ts.

describe('SSE files', () => {
  it('reads the DeepSeek fixture: blocks in opening order, closed at [DONE], usage with cache', () => {
    const source = loadSource(fixture('deepseek-reasoner-tool-calls.sse'), 'x.sse')
    expect(source.format).toBe('openai-sse')
    const stream = source.sessions[0]!.streams[0]!
    const chunks = stream.chunks.map((c) => c.chunk)
    expect(chunks.filter((c) => c.type === 'block-end')).toEqual([
      {
        type: 'block-end',
        index: 0,
        block: {
          type: 'reasoning',
          text: 'The user wants the weather in Paris and Tokyo. I should call get_weather once per city.',
        },
      },
      { type: 'block-end', index: 1, block: { type: 'text', text: "I'll check both cities for you." } },
      {
        type: 'block-end',
        index: 2,
        block: {
          type: 'tool-call',
          id: 'call_00_x7Kq2mW9',
          name: 'get_weather',
          arguments: '{"city": "Paris", "unit": "c"}',
        },
      },
      {
        type: 'block-end',
        index: 3,
        block: {
          type: 'tool-call',
          id: 'call_01_b3Vn8pLs',
          name: 'get_weather',
          arguments: '{"city": "Tokyo", "unit": "c"}',
        },
      },
    ])
    expect(chunks.slice(-2)).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 28, outputTokens: 96, cacheReadTokens: 384, reasoningTokens: 41 },
      },
      { type: 'finish', reason: { kind: 'tool-calls' } },
    ])
    expect(stream.chunks.map((c) => c.seq)).toEqual(chunks.map((_, k) => k))
    expect(stream.chunks.every((c) => c.time === null)).toBe(true)
  })

  it('pairs every raw event with the chunks it became', () => {
    const text = fixture('deepseek-reasoner-tool-calls.sse')
    const stream = loadSource(text).sessions[0]!.streams[0]!
    const wire = stream.wire!
    expect(wire.format).toBe('openai-sse')
    expect(wire.count).toBe(18)
    expect(wireEvent(wire, 0)).toMatchObject({ index: 0, line: 1, chunkPositions: [] })
    expect(wireEvent(wire, 1)).toMatchObject({ line: 3, chunkPositions: [0, 1] })
    expect(wireEvent(wire, 1)!.raw.startsWith('data: {"id"')).toBe(true)
    const done = wireEvent(wire, 17)!
    expect(done.raw).toBe('data: [DONE]')
    expect(done.chunkPositions).toEqual([19, 20, 21, 22, 23, 24])
    // every chunk is produced by exactly one event
    const owners = stream.chunks.map((_, k) => wireEventOfChunk(wire, k))
    expect(owners.every((i) => i >= 0)).toBe(true)
    expect(owners[0]).toBe(1)
    expect(wireEventOfChunk(wire, 24)).toBe(17)
    expect(wireEventOfChunk(wire, 25)).toBe(-1)
  })

  it('reads the truncated variant to STREAM_CLOSED with open blocks and unpaired finish', () => {
    const source = loadSource(fixture('deepseek-reasoner-truncated.sse'))
    const stream = source.sessions[0]!.streams[0]!
    const chunks = stream.chunks.map((c) => c.chunk)
    expect(chunks.some((c) => c.type === 'block-end')).toBe(false)
    expect(chunks.at(-1)).toMatchObject({ reason: { kind: 'error', failure: { code: 'STREAM_CLOSED' } } })
    expect(wireEventOfChunk(stream.wire!, chunks.length - 1)).toBe(-1)
    expect(source.diagnostics.map((d) => d.severity)).toContain('warning')
  })

  it('reads the malformed variant to MALFORMED_RESPONSE with a line-numbered error, later events ignored', () => {
    const source = loadSource(fixture('deepseek-malformed-json.sse'))
    const chunks = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
    expect(chunks.at(-1)).toMatchObject({
      reason: { kind: 'error', failure: { code: 'MALFORMED_RESPONSE' } },
    })
    expect(source.diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 17, severity: 'error' }),
        expect.objectContaining({ severity: 'warning', message: expect.stringContaining('(11 events)') }),
      ]),
    )
  })

  it('is detected from content, Anthropic by its event names or payload types', () => {
    expect(detectFormat(fixture('deepseek-reasoner-tool-calls.sse'))).toBe('openai-sse')
    expect(detectFormat(': keep-alive\n\ndata: {"choices":[]}\n\n')).toBe('openai-sse')
    expect(detectFormat(fixture('anthropic-thinking-tool-use.sse'))).toBe('anthropic-sse')
    expect(detectFormat('data: {"type":"message_start","message":{}}\n\n')).toBe('anthropic-sse')
    expect(detectFormat('event: foo\n\n')).toBeNull()
    expect(
      detectFormat(
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      ),
    ).toBe('anthropic-sse')
    expect(detectFormat('HTTP/1.1 200 OK\ncontent-type: text/event-stream\n\ndata: {"choices":[]}\n\n')).toBe(
      'openai-sse',
    )
  })

  it('reads a body after an HTTP 200 head (curl -i), with body line numbers and comments counted', () => {
    const body = fixture('deepseek-reasoner-tool-calls.sse')
    const text = `HTTP/2 200\r\ncontent-type: text/event-stream; charset=utf-8\r\nx-request-id: r1\r\n\r\n${body}`
    const source = loadSource(text)
    expect(source.format).toBe('openai-sse')
    const stream = source.sessions[0]!.streams[0]!
    expect(stream.chunks.at(-1)!.chunk).toEqual({ type: 'finish', reason: { kind: 'tool-calls' } })
    expect(wireEvent(stream.wire!, 0)!.line).toBe(5)
    expect(source.diagnostics.map((d) => d.message)).toEqual([
      '1 SSE comment line (keep-alives) carried nothing',
    ])
  })

  it('reads a 100 MB body in linear time', () => {
    const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(60) } }] })}\n\n`
    const text = event.repeat(Math.ceil(100e6 / event.length)) + 'data: [DONE]\n\n'
    const started = performance.now()
    const read = readSseStream(text, 'openai-sse')
    const elapsed = performance.now() - started
    expect(read.attempt!.chunks.at(-1)!.chunk).toEqual({ type: 'finish', reason: { kind: 'stop' } })
    expect(elapsed).toBeLessThan(40000) // ~2 s on an idle machine; CI boxes are shared
  }, 120000)
})
