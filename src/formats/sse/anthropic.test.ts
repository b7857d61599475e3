import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from '../../core/BlockAssembler'
import { createAnthropicTranslator } from './anthropic'
import { readSseStream } from './readSse'

/**
 * The cases of the Anthropic Messages route, each on a fixture that `anthropic.oracle.test.ts` also runs through
 * pi-ai 0.82.1 itself: what is asserted here is what the harness's pi-ai route produces (docs/protocol.md §9).
 */
const body = (name: string) =>
  readFileSync(new URL(`../fixtures/anthropic/${name}.sse`, import.meta.url), 'utf8')

function read(name: string) {
  const { attempt, diagnostics } = readSseStream(body(name), 'anthropic-sse')
  const chunks = attempt!.chunks.map((c) => c.chunk)
  const assembler = new BlockAssembler()
  for (const chunk of chunks) assembler.push(chunk)
  return {
    chunks,
    blocks: assembler.blocks(),
    finish: assembler.finish,
    usage: assembler.usage,
    replayState: assembler.replayState,
    messages: diagnostics.map((d) => `${d.severity}: ${d.message}`),
  }
}

const failureOf = (name: string) => {
  const { finish } = read(name)
  return finish.kind === 'error' ? [finish.failure.code, finish.failure.message] : finish.kind
}

describe('content that is not streamed as content_block events', () => {
  it('a tool_use already whole in message_start is not read: no block, and a warning names it', () => {
    const result = read('synthetic-whole-content-tool-use')
    expect(result.blocks).toEqual([])
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    expect(result.messages).toEqual([
      expect.stringMatching(/^warning: .*message_start carries 1 content block already whole \(tool_use\)/),
    ])
  })

  it('the same with its stop_reason only in message_start: pi-ai reads neither → EMPTY_RESPONSE, and the warning', () => {
    const result = read('synthetic-whole-content-stop-in-start')
    expect(result.blocks).toEqual([])
    expect(failureOf('synthetic-whole-content-stop-in-start')).toEqual([
      'EMPTY_RESPONSE',
      'model "claude-sonnet-4-5" returned a completed response with no content',
    ])
    expect(result.messages).toEqual([expect.stringContaining('already whole (tool_use)')])
  })

  it('whole content in message_start and no message_delta: pi-ai finishes stop with no block → EMPTY_RESPONSE', () => {
    expect(failureOf('vercel-message-start-prepopulated-content')).toEqual([
      'EMPTY_RESPONSE',
      'model "claude-sonnet-4-6" returned a completed response with no content',
    ])
  })

  it('a tool_use whose input arrives whole in content_block_start has arguments {} and a warning', () => {
    const result = read('synthetic-whole-input-tool-use')
    expect(result.blocks).toEqual([
      { type: 'tool-call', id: 'toolu_in', name: 'get_weather', arguments: '{}' },
    ])
    expect(result.messages).toEqual([
      expect.stringContaining('its input {"city":"Paris"} arrived whole in content_block_start'),
    ])
  })

  it('the initial text of a content_block_start is not read, only its deltas', () => {
    expect(read('synthetic-text-in-start-and-mismatched-delta').blocks).toEqual([
      { type: 'text', text: 'kept' },
    ])
  })
})

describe('server-side blocks', () => {
  it.each([
    ['vercel-web-search-tool.1', 'server_tool_use ×1, web_search_tool_result ×1'],
    ['vercel-web-fetch-tool.1', 'server_tool_use ×1, web_fetch_tool_result ×1'],
    ['vercel-code-execution-20250825.1', 'bash_code_execution_tool_result'],
    ['vercel-mcp.1', 'mcp_tool_use ×1, mcp_tool_result ×1'],
    ['vercel-compaction.1', 'compaction ×1'],
  ])('%s: skipped with one info naming them and a count, never a warning per delta', (name, kinds) => {
    const { messages } = read(name)
    const skipped = messages.filter((m) => m.includes('skipped'))
    expect(skipped).toEqual([
      expect.stringMatching(new RegExp(`^info: .*skipped \\d+ content blocks?.*${kinds}`)),
    ])
    expect(messages.filter((m) => m.startsWith('warning'))).toEqual([])
  })

  it('the blocks around them keep pi-ai content indices 0, 1, 2… (server blocks take none)', () => {
    const { chunks } = read('vercel-web-search-tool.1')
    const starts = chunks.flatMap((c) => (c.type === 'block-start' ? [c.index] : []))
    expect(starts).toEqual(starts.map((_, i) => i))
  })

  it('redacted_thinking is a reasoning block "[Reasoning redacted]" with its data in the replay envelope', () => {
    const result = read('synthetic-redacted-thinking-citations')
    expect(result.blocks[0]).toEqual({ type: 'reasoning', text: '[Reasoning redacted]' })
    expect(result.replayState?.blocks?.[0]).toMatchObject({ type: 'reasoning', redacted: true })
    expect(result.messages).toContainEqual(
      expect.stringMatching(/^info: .*"citations_delta": pi-ai keeps nothing/),
    )
  })
})

describe('events pi-ai skips', () => {
  it('ping is silent; an unknown event and an unnamed data event are tolerated and named once', () => {
    const result = read('synthetic-ping-and-unknown-events')
    expect(result.blocks).toEqual([{ type: 'text', text: 'Hi' }])
    expect(result.finish).toEqual({ kind: 'stop' })
    expect(result.messages.filter((m) => m.includes('ping'))).toEqual([])
    expect(result.messages).toContainEqual(
      expect.stringContaining('event "brand_new_event": not a message event'),
    )
    expect(result.messages).toContainEqual(expect.stringContaining('no `event:` name'))
  })

  it('an error payload without `event: error` is skipped, the stream ends normally', () => {
    expect(read('synthetic-error-unnamed-data').finish).toEqual({ kind: 'stop' })
  })

  it('message_stop does not end the stream: pi-ai reads to the end of the body', () => {
    expect(read('synthetic-events-after-message-stop').blocks).toHaveLength(2)
  })
})

describe('usage', () => {
  it('usage.iterations is shown in one info diagnostic; usage stays the top-level counts', () => {
    const result = read('synthetic-usage-iterations')
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 20 })
    expect(result.messages).toEqual([
      "info: line 13: usage.iterations (2): compaction 180000 in / 3500 out; message 300 in / 20 out — the harness's usage is the top-level counts only",
    ])
  })

  it('cache fields appear only when > 0; message_delta overrides message_start', () => {
    expect(read('synthetic-thinking-signature-tool').usage).toEqual({
      inputTokens: 40,
      outputTokens: 30,
      cacheReadTokens: 2048,
      cacheWriteTokens: 100,
    })
    expect(read('synthetic-stop-sequence').usage).toEqual({ inputTokens: 12, outputTokens: 5 })
  })
})

describe('stop reasons and the replay envelope', () => {
  it.each([
    ['synthetic-stop-pause-turn', 'stop'],
    ['synthetic-stop-sequence', 'stop'],
    [
      'synthetic-stop-context-window-exceeded',
      ['CONTEXT_WINDOW_EXCEEDED', 'Unhandled stop reason: model_context_window_exceeded'],
    ],
    ['synthetic-stop-sensitive', ['PI_AI_ERROR', 'An unknown error occurred']],
    ['synthetic-stop-refusal-no-details', ['PI_AI_ERROR', 'The model refused to complete the request']],
    ['synthetic-unknown-stop-reason', ['PI_AI_ERROR', 'Unhandled stop reason: brand_new_reason']],
    [
      'synthetic-empty-end-turn',
      ['EMPTY_RESPONSE', 'model "claude-sonnet-4-5" returned a completed response with no content'],
    ],
  ])('%s → %j', (name, expected) => {
    expect(failureOf(name)).toEqual(expected)
  })

  it('refusal carries stop_details.explanation as the failure message', () => {
    expect(failureOf('vercel-refusal')).toEqual([
      'PI_AI_ERROR',
      "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
    ])
  })

  it('a finished stream carries the v2 envelope: thinking signatures joined, one entry per block', () => {
    expect(read('synthetic-thinking-signature-tool').replayState).toEqual({
      response: {
        kind: 'pi-ai',
        version: 2,
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        responseId: 'msg_synthetic',
        stopReason: 'toolUse',
      },
      blocks: [{ type: 'reasoning', thinkingSignature: 'sig-Asig-B' }, { type: 'tool-call' }],
    })
  })

  it('tool-call arguments are JSON.stringify of the streaming parse: a cut argument keeps its readable prefix', () => {
    const end = read('synthetic-partial-tool-arguments').chunks.find((c) => c.type === 'block-end')
    expect(end).toMatchObject({ block: { arguments: '{"path":"a.txt","text":"half a sent"}' } })
  })

  it("after a tool call's stop, events with no index still reach it, and its second end has arguments {}", () => {
    // pi-ai deletes a block's `index` and a tool call's scratch JSON at its stop; an event without `index` finds
    // the block again, and the second stop parses `undefined` + the new delta: nothing readable.
    const result = read('synthetic-stop-without-index')
    const call = { id: 'toolu_1', name: 'get_weather' }
    expect(result.chunks.slice(0, 5)).toEqual([
      { type: 'block-start', index: 0, blockType: 'tool-call' },
      { type: 'tool-call-delta', index: 0, ...call, argumentsDelta: '{"city": "Paris"}' },
      { type: 'block-end', index: 0, block: { type: 'tool-call', ...call, arguments: '{"city":"Paris"}' } },
      { type: 'tool-call-delta', index: 0, ...call, argumentsDelta: '{"city": "Rome"}' },
      { type: 'block-end', index: 0, block: { type: 'tool-call', ...call, arguments: '{}' } },
    ])
    // The first close wins in the assembler.
    expect(result.blocks).toEqual([{ type: 'tool-call', ...call, arguments: '{"city":"Paris"}' }])
  })
})

describe('failures in band', () => {
  it.each([
    ['../anthropic-overloaded', 'PI_AI_ERROR'],
    ['synthetic-overloaded-mid-stream', 'PI_AI_ERROR'],
    ['synthetic-rate-limit-error-event', 'RATE_LIMIT'],
    ['synthetic-prompt-too-long-error-event', 'CONTEXT_WINDOW_EXCEEDED'],
  ])(
    'an error event in %s → usage, then finish error %s, open blocks left open, no envelope',
    (name, code) => {
      const { chunks, messages } = read(name)
      expect(chunks.at(-2)?.type).toBe('usage')
      expect(chunks.at(-1)).toMatchObject({ type: 'finish', reason: { kind: 'error', failure: { code } } })
      expect(chunks.at(-1)).not.toHaveProperty('replayState')
      expect(messages).toContainEqual(expect.stringContaining(`the route classifies that text → ${code}`))
    },
  )

  it('a body that ends after message_start but before message_stop → TRANSPORT, said once', () => {
    const result = read('synthetic-truncated-before-stop')
    expect(failureOf('synthetic-truncated-before-stop')).toEqual([
      'TRANSPORT',
      'Anthropic stream ended before message_stop',
    ])
    expect(result.messages).toEqual([expect.stringContaining('the body ends before message_stop')])
  })

  it("bad JSON fails the stream with pi-ai's message, quoting the event", () => {
    const [code, message] = failureOf('synthetic-malformed-json-event') as string[]
    expect(code).toBe('PI_AI_ERROR')
    expect(message).toMatch(
      /^Could not parse Anthropic SSE event content_block_delta: .*; data=\{.*; raw=event: content_block_delta\\ndata: /,
    )
  })

  it('a raw tab and a bad escape inside a string are repaired, as pi-ai does', () => {
    expect(read('synthetic-control-char-repaired').blocks).toEqual([{ type: 'text', text: 'tab\there \\q' }])
  })

  it('a missing field fails with the TypeError the engine raises', () => {
    expect(failureOf('synthetic-missing-delta-field')).toEqual([
      'PI_AI_ERROR',
      "Cannot read properties of undefined (reading 'stop_reason')",
    ])
  })
})

describe('HTTP error responses (a capture with its HTTP head)', () => {
  it.each([
    ['synthetic-http-529-overloaded', 'SERVER', '529 {"type":"error","error":{"type":"overloaded_error"'],
    ['synthetic-http-429-rate-limit', 'RATE_LIMIT', '429 {'],
    ['synthetic-http-400-prompt-too-long', 'CONTEXT_WINDOW_EXCEEDED', '400 {'],
    ['synthetic-http-413-request-too-large', 'CONTEXT_WINDOW_EXCEEDED', '413 {'],
    ['synthetic-http-401-auth', 'AUTH', '401 {'],
    ['synthetic-http-502-html', 'SERVER', '502 <html>'],
    ['synthetic-http-500-empty', 'SERVER', '500 status code (no body)'],
  ])("%s → usage 0/0, then finish error %s with the SDK's message", (name, code, start) => {
    const chunks = readSseStream(
      readFileSync(new URL(`../fixtures/anthropic/${name}.http`, import.meta.url), 'utf8'),
      'anthropic-sse',
    ).attempt!.chunks.map((c) => c.chunk)
    expect(chunks[0]).toEqual({ type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } })
    expect(chunks[1]).toMatchObject({ type: 'finish', reason: { kind: 'error', failure: { code } } })
    const failure = (chunks[1] as { reason: { failure: { message: string } } }).reason.failure
    expect(failure.message.startsWith(start)).toBe(true)
  })
})

describe('framing as pi-ai frames', () => {
  it.each(['synthetic-cr-line-endings', 'synthetic-crlf-line-endings', 'synthetic-unterminated-last-event'])(
    '%s: every event read, finish stop',
    (name) => {
      const result = read(name)
      expect(result.blocks).toHaveLength(1)
      expect(result.finish).toEqual({ kind: 'stop' })
    },
  )

  it('the translator alone: events are picked by name, the payload type acts', () => {
    const t = createAnthropicTranslator()
    const start = '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'
    expect(t.push(start, 'content_block_start')).toEqual([
      { type: 'block-start', index: 0, blockType: 'text' },
    ])
    expect(t.push(start, '')).toEqual([])
    expect(t.finished).toBe(false)
  })
})
