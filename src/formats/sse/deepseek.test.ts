import { describe, expect, it } from 'vitest'
import { wireEvent } from '../wire'
import { httpFailure } from './httpFailure'
import { readSseStream } from './readSse'

// Every expectation below is what the harness's own DeepSeek adapter (translate.ts, sse.ts, adapter.ts at the
// commit docs/protocol.md §9 names) produced for the same body, run unmodified on it; none was copied from our output.

const BASE = 'https://api.example.test/v1'
const request = { url: `${BASE}/chat/completions` }
const body = (...payloads: string[]) => payloads.map((p) => `data: ${p}\n\n`).join('')
const read = (text: string) => readSseStream(text, 'openai-sse', { request })
const chunksOf = (text: string) => read(text).attempt!.chunks.map((c) => c.chunk)
const messagesOf = (text: string) => read(text).diagnostics.map((d) => d.message)
const toolDelta = (calls: string) => `{"choices":[{"delta":{"tool_calls":${calls}}}]}`
const content = (text: string) => `{"choices":[{"delta":{"content":"${text}"}}]}`

const bs = (index: number, blockType: string) => ({ type: 'block-start', index, blockType })
const td = (text: string) => ({ type: 'text-delta', index: 0, text })
const textEnd = (text: string) => ({ type: 'block-end', index: 0, block: { type: 'text', text } })
const stop = { type: 'finish', reason: { kind: 'stop' } }
const failed = (code: string, message: string) => ({
  type: 'finish',
  reason: { kind: 'error', failure: { message, code } },
})
const transport = failed('TRANSPORT', `DeepSeek API stream from ${BASE} failed`)
const tcd = (id: unknown, name: unknown, argumentsDelta: unknown) => ({
  type: 'tool-call-delta',
  index: 0,
  id,
  ...(name !== undefined ? { name } : {}),
  argumentsDelta,
})
const toolEnd = (id: unknown, name: unknown, args: string) => ({
  type: 'block-end',
  index: 0,
  block: { type: 'tool-call', id, name, arguments: args },
})

describe('DeepSeek translation: the harness on each odd input (docs/protocol.md §9 "Exact details")', () => {
  it('data:  [DONE] (two spaces) is data " [DONE]", parsed as JSON: MALFORMED_RESPONSE', () => {
    const text = 'data:  [DONE]\n\n'
    expect(chunksOf(text)).toEqual([failed('MALFORMED_RESPONSE', 'malformed SSE payload:  [DONE]')])
    expect(messagesOf(text)).toContain(
      'line 1: the data is " [DONE]", not exactly [DONE]: the harness parses it as JSON',
    )
  })

  it('two choices in one chunk are both read, in order, into the same text block', () => {
    const text = body('{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}', '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'text'), td('a'), td('b'), textEnd('ab'), stop])
  })

  it('a later "id":"" empties the id', () => {
    const text = body(
      toolDelta('[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{"}}]'),
      toolDelta('[{"index":0,"id":"","function":{"arguments":"}"}}]'),
      '[DONE]',
    )
    expect(chunksOf(text)).toEqual([
      bs(0, 'tool-call'),
      tcd('call_1', 'f', '{'),
      tcd('', 'f', '}'),
      toolEnd('', 'f', '{}'),
      stop,
    ])
  })

  it('"name":null gives the delta name null and the block name ""', () => {
    const text = body(
      toolDelta('[{"index":0,"id":"c","function":{"name":"f"}}]'),
      toolDelta('[{"index":0,"function":{"name":null,"arguments":"{}"}}]'),
      '[DONE]',
    )
    expect(chunksOf(text)).toEqual([
      bs(0, 'tool-call'),
      tcd('c', 'f', ''),
      tcd('c', null, '{}'),
      toolEnd('c', '', '{}'),
      stop,
    ])
  })

  it('numeric id and name stay numbers', () => {
    const text = body(toolDelta('[{"index":0,"id":7,"function":{"name":8,"arguments":"{}"}}]'), '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'tool-call'), tcd(7, 8, '{}'), toolEnd(7, 8, '{}'), stop])
  })

  it('"arguments":5 passes on as 5 and joins the block arguments as "5"', () => {
    const text = body(toolDelta('[{"index":0,"id":"c","function":{"name":"f","arguments":5}}]'), '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'tool-call'), tcd('c', 'f', 5), toolEnd('c', 'f', '5'), stop])
  })

  it('tool_calls entries without index share one block: {}{}', () => {
    const text = body(
      toolDelta('[{"function":{"arguments":"{}"}},{"function":{"arguments":"{}"}}]'),
      '[DONE]',
    )
    expect(chunksOf(text)).toEqual([
      bs(0, 'tool-call'),
      tcd('', undefined, '{}'),
      tcd('', undefined, '{}'),
      toolEnd('', '', '{}{}'),
      stop,
    ])
  })

  it('payloads 42, "x" and [] are ignored', () => {
    const text = body('42', '"x"', '[]', content('a'), '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'text'), td('a'), textEnd('a'), stop])
    expect(messagesOf(text)).toContainEqual(expect.stringContaining('is ignored by the harness'))
  })

  it('payload null ends as TRANSPORT, after what came before; blocks stay open', () => {
    const text = body(content('a'), 'null', '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'text'), td('a'), transport])
    expect(messagesOf(text)).toContain(
      'line 3: cannot read "choices" of null: the harness\'s translator throws a TypeError here, which its adapter reports as TRANSPORT',
    )
  })

  it("tool_calls that is not an array ends as TRANSPORT, after the same chunk's content", () => {
    const text = body('{"choices":[{"delta":{"content":"a","tool_calls":{}}}]}', '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'text'), td('a'), transport])
  })

  it('choices that is not an array ends as TRANSPORT', () => {
    expect(chunksOf(body('{"choices":{"0":{"delta":{"content":"a"}}}}', '[DONE]'))).toEqual([transport])
  })

  it('a null entry in tool_calls ends as TRANSPORT, after the entries before it', () => {
    const text = body(toolDelta('[{"index":0,"function":{"arguments":"{"}},null]'), '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'tool-call'), tcd('', undefined, '{'), transport])
  })

  it('a value that cannot become a number or string (own toString key) ends as TRANSPORT where the harness throws', () => {
    // `usage.prompt_tokens - cached` and `block.text += fragment` raise V8's TypeError for such an object; the
    // adapter reports it as TRANSPORT, after the chunks the payload yielded before (docs/protocol.md §9).
    const usage = body(
      '{"choices":[{"delta":{"content":"a"}}],"usage":{"prompt_tokens":{"toString":1}}}',
      '[DONE]',
    )
    expect(chunksOf(usage)).toEqual([bs(0, 'text'), td('a'), transport])
    expect(messagesOf(usage)).toContainEqual(expect.stringContaining('reports as TRANSPORT'))
    const cached = '{"prompt_tokens":5,"prompt_cache_hit_tokens":{"toString":1}}'
    expect(chunksOf(body(`{"choices":[],"usage":${cached}}`, '[DONE]'))).toEqual([transport])
    // The block opens before the append throws; the delta is never yielded.
    const args = body(toolDelta('[{"index":0,"id":"c","function":{"arguments":{"toString":1}}}]'), '[DONE]')
    expect(chunksOf(args)).toEqual([bs(0, 'tool-call'), transport])
  })

  it('usage: prompt_tokens "10" → 10; no completion_tokens → no outputTokens; usage 5 → inputTokens NaN', () => {
    const usageOf = (usage: string) =>
      chunksOf(body(`{"choices":[{"delta":{"content":"a"}}],"usage":${usage}}`, '[DONE]')).find(
        (c) => c.type === 'usage',
      )
    expect(usageOf('{"prompt_tokens":"10","completion_tokens":2}')).toEqual({
      type: 'usage',
      usage: { inputTokens: 10, outputTokens: 2 },
    })
    expect(usageOf('{"prompt_tokens":10}')).toEqual({ type: 'usage', usage: { inputTokens: 10 } })
    expect(usageOf('5')).toEqual({ type: 'usage', usage: { inputTokens: NaN } })
  })

  it('finish_reason "" is an unknown reason: error with code ""', () => {
    const text = body('{"choices":[{"delta":{"content":"a"},"finish_reason":""}]}', '[DONE]')
    expect(chunksOf(text)).toEqual([bs(0, 'text'), td('a'), textEnd('a'), failed('', 'model stopped: ')])
  })
})

describe('DeepSeek framing: eventsource-parser, as the harness frames', () => {
  it('a last event without its blank line is dropped: STREAM_CLOSED, and a diagnostic says why', () => {
    const text = `data: ${content('a')}\n\ndata: [DONE]\n`
    expect(chunksOf(text)).toEqual([
      bs(0, 'text'),
      td('a'),
      failed('STREAM_CLOSED', 'SSE stream ended without [DONE]'),
    ])
    expect(messagesOf(text)).toContainEqual(
      expect.stringContaining(
        "line 3: the body's last event has no blank line after it; the harness drops it",
      ),
    )
  })

  it('the dropped event stays visible in the wire trace as an event that became nothing, beside its note', () => {
    const text = `data: ${content('a')}\n\ndata: [DONE]\n`
    const { attempt, diagnostics } = read(text)
    const dropped = wireEvent(attempt!.wire!, attempt!.wire!.count - 1)!
    expect(dropped).toEqual({ index: 1, line: 3, raw: 'data: [DONE]', chunkPositions: [] })
    expect(diagnostics.find((d) => d.message.includes('harness drops it'))!.line).toBe(3)
  })

  it('reads CR-only line endings', () => {
    const text = `data: ${content('a')}\r\rdata: [DONE]\r\r\r`
    expect(chunksOf(text)).toEqual([bs(0, 'text'), td('a'), textEnd('a'), stop])
  })

  it('a lone CR as the very last character is held back by the parser: that blank line never comes', () => {
    const text = `data: ${content('a')}\r\rdata: [DONE]\r\r`
    expect(chunksOf(text)).toEqual([
      bs(0, 'text'),
      td('a'),
      failed('STREAM_CLOSED', 'SSE stream ended without [DONE]'),
    ])
    expect(messagesOf(text)).toContainEqual(expect.stringContaining('the body ends with a lone CR'))
  })
})

describe("HTTP failures: the adapter's mapping", () => {
  const now = Date.parse('2026-06-01T00:00:00Z')
  const fail = (status: number, headers: Record<string, string>, text = '') =>
    httpFailure(status, headers, text, now, BASE)

  it('request id: x-request-id, else x-deepseek-request-id; an empty x-request-id gives none', () => {
    expect(fail(500, { 'x-deepseek-request-id': 'ds_1' })).toEqual({
      message: 'DeepSeek API error (HTTP 500)',
      code: 'SERVER',
      status: 500,
      requestId: 'ds_1',
    })
    expect(fail(500, { 'x-request-id': '', 'x-deepseek-request-id': 'ds_1' })).toEqual({
      message: 'DeepSeek API error (HTTP 500)',
      code: 'SERVER',
      status: 500,
    })
  })

  it("a repeated header reads as fetch's Headers.get gives it: the values joined with ', '", () => {
    // The harness reads headers through fetch's Headers, which combines a repeated name (docs/protocol.md §9):
    // two x-request-id lines are one id `a, b`, not the last line's.
    const text = (head: string) => `HTTP/1.1 500 Internal Server Error\r\n${head}\r\n{}`
    const failureOf = (head: string) => chunksOf(text(head)).at(-1)
    expect(failureOf('x-request-id: a\r\nX-Request-Id:  b \r\nretry-after: 3\r\n')).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: {
          message: 'DeepSeek API error (HTTP 500)',
          code: 'SERVER',
          status: 500,
          providerRetryAfterMs: 3000,
          requestId: 'a, b',
        },
      },
    })
    // Two Retry-After lines are `3, 3`: no number of seconds, and no date V8 reads as a future one.
    expect(failureOf('retry-after: 3\r\nretry-after: 3\r\n')).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: { message: 'DeepSeek API error (HTTP 500)', code: 'SERVER', status: 500 },
      },
    })
  })

  it('Retry-After: only positive seconds or a future date; 0, past dates, fractions and retry-after-ms are dropped', () => {
    const retry = (headers: Record<string, string>) => fail(429, headers).providerRetryAfterMs
    expect(retry({ 'retry-after': 'Mon, 01 Jun 2026 00:00:30 GMT' })).toBe(30000)
    expect(retry({ 'retry-after': '0' })).toBeUndefined()
    expect(retry({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })).toBeUndefined()
    expect(retry({ 'retry-after': '1.5' })).toBeUndefined()
    expect(retry({ 'retry-after-ms': '1500' })).toBeUndefined()
  })

  it('quota wording is QUOTA on any status', () => {
    expect(
      fail(
        429,
        {},
        '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}',
      ),
    ).toEqual({
      message: 'You exceeded your current quota, please check your plan and billing details.',
      code: 'QUOTA',
      status: 429,
    })
    expect(fail(402, {}, '{"error":{"message":"Insufficient Balance","type":"unknown_error"}}')).toEqual({
      message: 'Insufficient Balance',
      code: 'QUOTA',
      status: 402,
    })
  })

  it("context-window wording counts only in the error's code, type or message, never the raw body", () => {
    expect(fail(400, {}, '{"detail":"This model\'s maximum context length is 65536 tokens"}')).toEqual({
      message: 'DeepSeek API error (HTTP 400)',
      code: 'INVALID_REQUEST',
      status: 400,
    })
    expect(fail(400, {}, '{"error":{"message":"bad","code":"context_length_exceeded"}}')).toEqual({
      message: 'bad',
      code: 'CONTEXT_WINDOW_EXCEEDED',
      status: 400,
    })
  })

  it('an error.message that is no string makes the harness report TRANSPORT; a text body keeps the default message', () => {
    expect(fail(400, {}, '{"error":{"message":5}}')).toEqual({
      message: `DeepSeek API stream from ${BASE} failed`,
      code: 'TRANSPORT',
    })
    expect(fail(502, {}, '<html>Bad Gateway</html>')).toEqual({
      message: 'DeepSeek API error (HTTP 502)',
      code: 'SERVER',
      status: 502,
    })
  })

  it("an error code, type or message that cannot become a string makes the harness's httpErrorCode throw: TRANSPORT", () => {
    // Its `[code, type, message].filter(Boolean).join(' ')` raises a TypeError for an object whose own `toString`
    // is no function; the adapter reports that as TRANSPORT (docs/protocol.md §9 "Exact details").
    const transportFailure = { message: `DeepSeek API stream from ${BASE} failed`, code: 'TRANSPORT' }
    expect(fail(429, {}, '{"error":{"message":"slow","code":{"toString":1}}}')).toEqual(transportFailure)
    expect(fail(500, {}, '{"error":{"type":{"toString":"x"}}}')).toEqual(transportFailure)
    // 401 and 403 are decided before the join, so nothing throws there.
    expect(fail(401, {}, '{"error":{"message":"no","code":{"toString":1}}}')).toEqual({
      message: 'no',
      code: 'AUTH',
      status: 401,
    })
  })
})
