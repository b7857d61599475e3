import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../registry'
import { loadSource } from '../load'
import { wireEvent } from '../wire'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')

describe('HAR files', () => {
  it('lists the streaming responses as streams named by entry, each read by its own format', () => {
    const source = loadSource(fixture('devtools-capture.har'))
    expect(source.format).toBe('har')
    const [har, live] = source.sessions
    expect(har!.streams.map((s) => [s.id, s.wire?.format, s.wire?.request?.url])).toEqual([
      ['har2', 'openai-sse', 'https://api.deepseek.com/chat/completions'],
      ['har3', 'anthropic-sse', 'https://api.anthropic.com/v1/messages'],
      ['har4', 'http-error', 'https://api.deepseek.com/chat/completions'],
    ])
    expect(har!.streams[0]!.wire!.request).toEqual({
      url: 'https://api.deepseek.com/chat/completions',
      method: 'POST',
      startedAt: '2026-11-29T10:00:03.541Z',
      status: 200,
    })
    expect(har!.streams[0]!.chunks.at(-1)!.chunk).toEqual({ type: 'finish', reason: { kind: 'tool-calls' } })
    // base64 body decoded; the pairing points into the decoded body
    expect(har!.streams[1]!.chunks.at(-1)!.chunk).toMatchObject({
      type: 'finish',
      reason: { kind: 'tool-calls' },
    })
    expect(wireEvent(har!.streams[1]!.wire!, 0)!.raw.startsWith('event: message_start\ndata: {')).toBe(true)
    expect(har!.streams[2]!.chunks.map((c) => c.chunk)).toEqual([
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
    // the WebSocket entry carried the harness's live feed: its sessions follow
    expect(live?.header?.id).toBe('5b0e2c4a-7f3d-4c1e-9a8b-2d6f0e1c3a57')
    const messages = source.diagnostics.map((d) => `${d.severity} ${d.message}`)
    expect(messages).toEqual(
      expect.arrayContaining([
        'info har2 (POST https://api.deepseek.com/chat/completions at 2026-11-29T10:00:03.541Z): 200 text/event-stream → openai-sse, 18 events, 25 chunks',
        expect.stringMatching(/^warning har5 .*: text\/event-stream response with no body in the HAR/),
        'info 1 of 6 entries are not streaming responses (pages, scripts, JSON APIs): not listed',
      ]),
    )
    expect(source.diagnostics.every((d) => d.line === undefined)).toBe(true)
  })

  it('reads the complete entries of a truncated HAR and says it is damaged', () => {
    const source = loadSource(fixture('devtools-capture-truncated.har.txt'))
    expect(source.format).toBe('har')
    expect(source.diagnostics[0]).toMatchObject({
      severity: 'error',
      message: expect.stringMatching(/^malformed HAR \(.*\): read the 5 complete entries before the damage$/),
    })
    expect(source.sessions[0]!.streams.map((s) => s.id)).toEqual(['har2', 'har3', 'har4'])
  })

  it('is detected by its log key, before every other format', () => {
    expect(detectFormat(fixture('devtools-capture.har'))).toBe('har')
    expect(detectFormat('{"log":{"entries":[]}}')).toBe('har')
    expect(loadSource('{"log":{"entries":[]}}').diagnostics).toEqual([
      { severity: 'error', message: "no streaming response in the HAR's 0 entries" },
    ])
  })
})
