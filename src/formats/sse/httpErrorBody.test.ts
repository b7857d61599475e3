import { describe, expect, it } from 'vitest'
import { loadSource } from '../load'
import { detectFormat } from '../registry'

describe('an HTTP error body saved without its status line', () => {
  it('is recognised, whatever its shape, and refused with what it says and what is missing', () => {
    const cases = [
      [
        '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_1"}',
        `Anthropic's error shape, which pi-ai's Anthropic route reads; type "overloaded_error", message "Overloaded"`,
      ],
      [
        '{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}\n',
        'an OpenAI-style error object, which the DeepSeek adapter and any OpenAI-compatible route read; type "requests", message "Rate limit reached"',
      ],
      [
        '\uFEFF{"error":"Insufficient credits"}',
        'a flat error object, which names no provider; message "Insufficient credits"',
      ],
      [
        '{"message":"Internal server error"}',
        'a flat error object, which names no provider; message "Internal server error"',
      ],
      [
        '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>',
        'an HTML page, a gateway or proxy error page most likely, which names no provider; title "502 Bad Gateway"',
      ],
    ] as const
    for (const [body, said] of cases) {
      const source = loadSource(body)
      expect(source.format).toBe('http-error-body')
      expect(source.sessions).toEqual([])
      expect(source.diagnostics).toHaveLength(1)
      const [diagnostic] = source.diagnostics
      expect(diagnostic!.severity).toBe('error')
      expect(diagnostic!.message).toContain(
        `line 1: an HTTP error body without its status line and headers (${said})`,
      )
      expect(diagnostic!.message).toContain('save the whole response (curl -i, or a HAR from the browser)')
    }
  })

  it('leaves the formats it resembles alone', () => {
    // The simplified stream's error chunk (docs/protocol.md §12), a chunk, a session header, a head + body.
    expect(
      detectFormat('{"type":"error","error":"boom","recoverable":false}\n{"type":"done","reason":"error"}'),
    ).toBe('simplified-stream')
    expect(
      detectFormat('{"type":"error","error":{"message":"x"}}\n{"type":"error","error":{"message":"y"}}'),
    ).not.toBe('http-error-body')
    expect(detectFormat('{"type":"session","version":0,"id":"a"}')).toBe('dsh-session-jsonl')
    expect(detectFormat('HTTP/1.1 429 Too Many Requests\r\n\r\n{"error":{"message":"slow"}}')).toBe(
      'openai-sse',
    )
    expect(detectFormat('{"message":"hi","role":"user"}')).toBeNull()
  })
})
