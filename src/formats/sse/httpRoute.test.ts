import { describe, expect, it } from 'vitest'
import { piAiApiChunks, piAiChunks } from '../../test/piAiOracle'
import { loadSource } from '../load'
import { detectFormat } from '../registry'
import { httpErrorRoute } from './httpRoute'
import { readSseStream } from './readSse'
import { readHttpHead } from './sseEvents'

const STATUSES = [400, 401, 402, 403, 404, 408, 413, 422, 429, 500, 502, 503, 504, 529]
const BODIES = {
  empty: '',
  html: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>\n',
  text: 'upstream connect error or disconnect/reset before headers\n',
  flatError: '{"error":"Insufficient credits"}',
  flatMessage: '{"message":"Internal server error"}',
  openai: '{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}',
  anthropic:
    '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}',
}
const head = (status: number, extra = '') =>
  `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\nretry-after: 3\r\nx-request-id: rid1\r\n${extra}\r\n`

const chunksOf = (text: string, dialect: 'anthropic-sse' | 'openai-sse') =>
  JSON.parse(JSON.stringify(readSseStream(text, dialect).attempt!.chunks.map((c) => c.chunk))) as unknown

describe('httpErrorRoute (docs/protocol.md §9, "HTTP errors")', () => {
  it('takes the route from the request URL when the capture has one', () => {
    expect(httpErrorRoute({}, '', 'https://api.anthropic.com/v1/messages').dialect).toBe('anthropic-sse')
    expect(httpErrorRoute({}, '', 'https://api.openai.com/v1/responses?x=1').dialect).toBe(
      'openai-responses-sse',
    )
    expect(httpErrorRoute({}, BODIES.anthropic, 'https://api.deepseek.com/chat/completions')).toEqual({
      dialect: 'openai-sse',
      evidence: 'the request went to https://api.deepseek.com/chat/completions',
    })
  })

  it('takes Anthropic from its error body or an anthropic-* header, and assumes nothing else', () => {
    expect(httpErrorRoute({}, BODIES.anthropic).dialect).toBe('anthropic-sse')
    expect(httpErrorRoute({ 'anthropic-ratelimit-requests-limit': '50' }, '')).toEqual({
      dialect: 'anthropic-sse',
      evidence: 'the response has an anthropic-ratelimit-requests-limit header',
    })
    for (const body of [BODIES.empty, BODIES.html, BODIES.text, BODIES.flatError, BODIES.openai])
      expect(httpErrorRoute({ 'x-request-id': 'r' }, body)).toEqual({ dialect: 'openai-sse', evidence: null })
  })
})

describe('a curl -i capture of a failed response', () => {
  it.each(STATUSES)(
    "HTTP %i with an anthropic-* header: pi-ai's Anthropic route, as pi-ai itself reads it",
    async (status) => {
      for (const body of Object.values(BODIES)) {
        const text = `${head(status, 'anthropic-organization-id: org\r\n')}${body}`
        expect(detectFormat(text)).toBe('anthropic-sse')
        const parsed = readHttpHead(text)!
        const oracle = await piAiChunks(body, status, { ...parsed.headers })
        expect([body, chunksOf(text, 'anthropic-sse')]).toEqual([
          body,
          JSON.parse(JSON.stringify(oracle.chunks)),
        ])
      }
    },
  )

  it("names the route it assumed, and what pi-ai's Anthropic route would have made of the response", async () => {
    for (const status of STATUSES)
      for (const [name, body] of Object.entries(BODIES)) {
        if (name === 'anthropic') continue
        const text = `${head(status)}${body}`
        const source = loadSource(text)
        expect(source.format).toBe('openai-sse')
        const [info] = source.diagnostics
        expect(info!.message).toContain('nothing in the capture names the provider')
        expect(info!.message).toContain('read as the DeepSeek adapter (OpenAI-compatible Chat Completions)')
        const oracle = await piAiChunks(body, status, { 'content-type': 'application/json' })
        const finish = oracle.chunks.at(-1) as { reason: { failure: { code: string } } }
        expect(info!.message).toContain(`the same response ends as ${finish.reason.failure.code} (`)
      }
  })

  it('names the evidence when the body is Anthropic-shaped', () => {
    const [info] = loadSource(`${head(529)}${BODIES.anthropic}`).diagnostics
    expect(info!.message).toBe(
      "line 1: HTTP 529 response, on pi-ai's Anthropic Messages route (the body is Anthropic's error shape): the harness raises SERVER, shown as the stream's finish",
    )
  })
})

describe("a curl -i capture of a failed Gemini response (pi-ai's Gemini route)", () => {
  const GOOGLE = '{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}'

  it('is told by its Google error body or its URL', () => {
    expect(httpErrorRoute({}, GOOGLE)).toEqual({
      dialect: 'gemini-sse',
      evidence: "the body is Google's error shape (status RESOURCE_EXHAUSTED)",
    })
    expect(
      httpErrorRoute(
        {},
        '',
        'https://generativelanguage.googleapis.com/v1beta/models/g:streamGenerateContent?alt=sse',
      ).dialect,
    ).toBe('gemini-sse')
    expect(detectFormat(`HTTP/2 429\r\ncontent-type: application/json\r\n\r\n${GOOGLE}`)).toBe('gemini-sse')
  })

  it.each(STATUSES)(
    'HTTP %i reads as pi-ai itself reads it, whatever the body and content type',
    async (status) => {
      for (const body of [GOOGLE, ...Object.values(BODIES)])
        for (const type of ['application/json; charset=UTF-8', 'text/html']) {
          const text = `HTTP/2 ${status}\r\ncontent-type: ${type}\r\n\r\n${body}`
          const oracle = await piAiApiChunks('google-generative-ai', 'gemini-2.5-flash', body, status, {
            'content-type': type,
          })
          const chunks = readSseStream(text, 'gemini-sse').attempt!.chunks.map((c) => c.chunk)
          expect([type, body, JSON.parse(JSON.stringify(chunks))]).toEqual([
            type,
            body,
            JSON.parse(JSON.stringify(oracle.chunks)),
          ])
        }
    },
  )

  it("words a non-JSON body with the status line's reason phrase, as @google/genai's throwErrorIfNotOK does", () => {
    const text = 'HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n\r\nupstream down'
    expect(readSseStream(text, 'gemini-sse').attempt!.chunks.at(-1)!.chunk).toEqual({
      type: 'finish',
      reason: {
        kind: 'error',
        failure: {
          message: '{"error":{"message":"upstream down","code":503,"status":"Service Unavailable"}}',
          code: 'SERVER',
        },
      },
    })
  })
})

describe('the note on an assumed route', () => {
  it("quotes pi-ai's reading on one line, whatever the body's line breaks", () => {
    const [info] = loadSource(`${head(502)}<html>\n<title>502</title>\n</html>\n`).diagnostics
    expect(info!.message).toMatch(
      /the same response ends as SERVER \("502 <html> <title>502<\/title> <\/html> "\)$/,
    )
  })
})
