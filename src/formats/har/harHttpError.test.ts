import { describe, expect, it } from 'vitest'
import { piAiChunks } from '../../test/piAiOracle'
import { loadSource } from '../load'

/** A HAR of one streamed POST to `url` that failed with `status`. */
function har(url: string, status: number, text: string, headers: Record<string, string> = {}): string {
  const entry = {
    request: { method: 'POST', url, postData: { mimeType: 'application/json', text: '{"stream":true}' } },
    response: {
      status,
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      content: { mimeType: 'application/json', text },
    },
  }
  return JSON.stringify({ log: { entries: [entry] } })
}

const chunksOf = (text: string) =>
  JSON.parse(JSON.stringify(loadSource(text).sessions[0]!.streams[0]!.chunks.map((c) => c.chunk))) as unknown

describe('a failed streaming request in a HAR (docs/protocol.md §9, "Which route an HTTP error went through")', () => {
  it("is read on pi-ai's Anthropic route when it went to /v1/messages, as pi-ai itself reads it", async () => {
    for (const [status, body] of [
      [529, ''],
      [502, '<html><title>502 Bad Gateway</title></html>'],
      [402, '{"error":"Insufficient credits"}'],
      [429, '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'],
    ] as const) {
      const text = har('https://api.anthropic.com/v1/messages', status, body, { 'retry-after': '3' })
      const oracle = await piAiChunks(body, status, { 'retry-after': '3' })
      expect(chunksOf(text)).toEqual(JSON.parse(JSON.stringify(oracle.chunks)))
      expect(loadSource(text).diagnostics.map((d) => d.message)).toContainEqual(
        expect.stringContaining(
          `as pi-ai's Anthropic Messages route raises it (the request went to https://api.anthropic.com/v1/messages)`,
        ),
      )
    }
  })

  it('is read by the DeepSeek adapter when it went to /chat/completions, with status, retry delay and request id', () => {
    const text = har(
      'https://api.deepseek.com/chat/completions',
      402,
      '{"error":{"message":"Insufficient Balance"}}',
      {
        'x-request-id': 'r1',
      },
    )
    // adapter.ts: the provider's error.message; quota wording → QUOTA on any status; x-request-id → requestId.
    expect(chunksOf(text)).toEqual([
      {
        type: 'finish',
        reason: {
          kind: 'error',
          failure: { message: 'Insufficient Balance', code: 'QUOTA', status: 402, requestId: 'r1' },
        },
      },
    ])
  })

  it('says so when nothing in the entry names the provider', () => {
    const diagnostics = loadSource(har('https://gateway.example.com/v1/generate', 500, '')).diagnostics
    expect(diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringContaining(
        'finish error SERVER, as the DeepSeek adapter (OpenAI-compatible Chat Completions) raises it (assumed: nothing in the entry names the provider)',
      ),
    )
  })
})
