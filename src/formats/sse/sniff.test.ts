import { describe, expect, it } from 'vitest'
import { piAiChunks } from '../../test/piAiOracle'
import { loadSource } from '../load'
import { detectFormat } from '../registry'

const CHUNK = 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n'
const MESSAGE_START =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":1,"output_tokens":0}}}\n\n'

/** The last chunk of the only stream `text` opens as. */
function lastChunk(text: string) {
  return loadSource(text).sessions[0]?.streams[0]?.chunks.at(-1)?.chunk
}

describe('sniffSseDialect: oddly framed bodies (docs/protocol.md §9, "Framing")', () => {
  it('reads a bare `data` line (no colon) as the data field with an empty value, as eventsource-parser does', () => {
    // eventsource-parser's processField('data', ''): an event whose data is '', which the harness's translate.ts
    // JSON.parses and fails on → MALFORMED_RESPONSE `malformed SSE payload: ` (its first 120 characters: none).
    const text = `data\n\n${CHUNK}`
    expect(detectFormat(text)).toBe('openai-sse')
    expect(lastChunk(text)).toEqual({
      type: 'finish',
      reason: { kind: 'error', failure: { message: 'malformed SSE payload: ', code: 'MALFORMED_RESPONSE' } },
    })
  })

  it('keeps the dialect of the events after a bare field line', () => {
    expect(detectFormat(`data\n\n${MESSAGE_START}`)).toBe('anthropic-sse')
    expect(detectFormat(`event\nid\nretry\n\n${CHUNK}`)).toBe('openai-sse')
  })

  it('still refuses text whose first line is no field of any kind', () => {
    expect(detectFormat(`datum\n\n${CHUNK}`)).toBeNull()
    expect(detectFormat(`hello\n${CHUNK}`)).toBeNull()
  })

  it('reads a 200 head with no content type whose body opens with blank lines or keep-alives', () => {
    expect(detectFormat(`HTTP/1.1 200 OK\r\n\r\n: ping\n\n${CHUNK}`)).toBe('openai-sse')
    expect(detectFormat(`HTTP/1.1 200 OK\r\n\r\n\r\n${CHUNK}`)).toBe('openai-sse')
    expect(detectFormat(`HTTP/1.1 200 OK\r\n\r\ndata\n\n${CHUNK}`)).toBe('openai-sse')
    expect(detectFormat('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"id":"x"}')).toBeNull()
  })

  it('finds each dialect after a BOM, CRLF or CR line ends, leading blank lines and keep-alive comments', () => {
    const bodies = {
      'openai-sse': CHUNK,
      'anthropic-sse': MESSAGE_START,
      'openai-responses-sse':
        'event: response.created\ndata: {"type":"response.created","response":{"id":"r"}}\n\n',
      'gemini-sse':
        'data: {"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"}}],"modelVersion":"gemini-2.5-flash"}\n\n',
    }
    for (const [dialect, body] of Object.entries(bodies)) {
      for (const variant of [
        `\uFEFF${body}`,
        body.replaceAll('\n', '\r\n'),
        body.replaceAll('\n', '\r'),
        `\n\n\n${body}`,
        `: ping\n\n: keep-alive\n\n${body}`,
        `\uFEFF: ping\r\n\r\n${body.replaceAll('\n', '\r\n')}`,
      ])
        expect([JSON.stringify(variant.slice(0, 30)), detectFormat(variant)]).toEqual([
          JSON.stringify(variant.slice(0, 30)),
          dialect,
        ])
    }
  })

  it('names a body of keep-alive comments only, and what each route makes of it, instead of "unrecognised"', async () => {
    const body = ': ping\n\n: keep-alive\n\n'
    // pi-ai's Anthropic reader sees no event: a completed response with no content, which the route calls EMPTY_RESPONSE.
    const oracle = await piAiChunks(body)
    expect(oracle.chunks.at(-1)).toMatchObject({ reason: { failure: { code: 'EMPTY_RESPONSE' } } })
    for (const [text, line] of [
      [body, 1],
      [`\uFEFF\n${body}`, 2],
      [`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n${body.replaceAll('\n', '\r\n')}`, 4],
    ] as const) {
      expect(loadSource(text).diagnostics).toEqual([
        {
          line,
          severity: 'error',
          message: `line ${line}: an SSE body holding only 2 comment lines (": ping") and no event, so nothing names its provider and there is nothing to show: the harness's DeepSeek adapter ends such a body STREAM_CLOSED (no [DONE]), pi-ai's Anthropic route EMPTY_RESPONSE (no content)`,
        },
      ])
    }
  })

  it('says when a body is read as Chat Completions only because no other dialect shows', () => {
    const note =
      'no event shows which wire this is (no "choices", "chat.completion.chunk" or [DONE]): read as the DeepSeek adapter (OpenAI-compatible Chat Completions) reads it, a route assumed because no other dialect\'s events appear'
    const messages = (text: string) => loadSource(text).diagnostics.map((d) => d.message)
    expect(detectFormat('data: {}\n\n')).toBe('openai-sse')
    expect(messages('data: {}\n\n')).toContain(note)
    expect(messages(CHUNK)).not.toContain(note)
    expect(messages('data: {"id":"x","object":"chat.completion.chunk"}\n\n')).not.toContain(note)
  })
})
