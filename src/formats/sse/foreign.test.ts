import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../registry'
import { loadSource } from '../load'

const path = (name: string) => new URL(`../fixtures/${name}`, import.meta.url)
const fixture = (name: string) => readFileSync(path(name), 'utf8')

describe('formats Chunkscope does not read are refused by name, never misread', () => {
  it("a Responses body that starts with event: error is not taken for Anthropic's error event", () => {
    const anthropic =
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    expect(detectFormat(anthropic)).toBe('anthropic-sse')
    expect(detectFormat(fixture('openai-responses-error.sse'))).toBe('openai-responses-sse')
    expect(detectFormat(fixture('openai-responses.sse'))).toBe('openai-responses-sse')
  })

  it("an MCP server's Streamable HTTP answer (SSE of JSON-RPC) is named, not read as Chat Completions", () => {
    // The shape pydantic-ai's cassettes record from an MCP server (event: message, one JSON-RPC result a data line).
    const mcp =
      'event: message\ndata: {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}\n\n'
    expect(detectFormat(mcp)).toBeNull()
    const source = loadSource(mcp)
    expect(source.sessions).toEqual([])
    expect(source.diagnostics[0]!.message).toMatch(
      /^a JSON-RPC stream \(an MCP server's Streamable HTTP response\)/,
    )
  })
})

describe('keep-alive comments', () => {
  it('a body that opens with 32 OpenRouter keep-alives is still recognised and read', () => {
    const text = fixture('openrouter-keepalive.sse')
    expect(detectFormat(text)).toBe('openai-sse')
    const source = loadSource(text)
    expect(source.sessions[0]!.streams[0]!.chunks.at(-1)!.chunk).toEqual({
      type: 'finish',
      reason: { kind: 'stop' },
    })
    expect(source.diagnostics.map((d) => d.message)).toContain(
      '32 SSE comment lines (keep-alives) carried nothing',
    )
  })

  it('also 5,000 of them', () => {
    const text = ': OPENROUTER PROCESSING\n\n'.repeat(5000) + 'data: {"choices":[]}\n\ndata: [DONE]\n\n'
    expect(detectFormat(text)).toBe('openai-sse')
  })
})

describe("what the adapter drops is named once, with a count; the result stays the harness's", () => {
  const read = (name: string) => {
    const source = loadSource(fixture(name))
    const chunks = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
    return { finish: chunks.at(-1), messages: source.diagnostics.map((d) => d.message) }
  }

  it("Groq's delta.reasoning", () => {
    const { finish, messages } = read('groq-reasoning.sse')
    expect(finish).toEqual({ type: 'finish', reason: { kind: 'stop' } })
    expect(messages.filter((m) => m.includes('delta.reasoning '))).toEqual([
      expect.stringMatching(/^line 1: delta\.reasoning .* dropped.*\(2 events\)$/),
    ])
  })

  it("Mistral's content parts: EMPTY_RESPONSE, as the harness, and the reason in one diagnostic", () => {
    const { finish, messages } = read('mistral-content-parts.sse')
    expect(finish).toMatchObject({ reason: { kind: 'error', failure: { code: 'EMPTY_RESPONSE' } } })
    expect(messages.filter((m) => m.includes('array of parts'))).toEqual([
      expect.stringMatching(/^line 3: .*this text is dropped \(2 events\)$/),
    ])
  })

  it('delta.refusal', () => {
    const { finish, messages } = read('openai-refusal.sse')
    expect(finish).toMatchObject({ reason: { kind: 'error', failure: { code: 'EMPTY_RESPONSE' } } })
    expect(messages).toContainEqual(expect.stringMatching(/^line 3: delta\.refusal .* dropped/))
  })
})

describe('memory budget', () => {
  it('a body whose single event is over 16 MiB is refused, naming the limit', () => {
    const text = `data: {"choices":[{"delta":{"content":"${'x'.repeat(17 * 1024 * 1024)}"}}]}\n\ndata: [DONE]\n\n`
    const source = loadSource(text)
    expect(source.sessions).toEqual([])
    expect(source.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('over the 16 MiB limit for a single event'),
      }),
    ])
  })
})
