import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from '../../core/BlockAssembler'
import { reportStream } from '../../core/streamReport'
import { explainEvent } from './explainEvent'
import { loadSource } from '../../formats/load'
import { detectFormat } from '../../formats/registry'
import { readSseStream } from '../../formats/sse/readSse'

/**
 * The cases of the OpenAI Responses route, on fixtures that `responses.oracle.test.ts` also runs through pi-ai
 * 0.82.1 itself (so the chunks are the harness's), checked here against what the provider sent: the values the
 * synthetic bodies were built from (scripts/make-piai-fixtures.mjs) and the recorded payloads (docs/protocol.md §9.2).
 */
const body = (name: string) =>
  readFileSync(new URL(`../../formats/fixtures/responses/${name}`, import.meta.url), 'utf8')

function read(name: string) {
  const { attempt, diagnostics } = readSseStream(body(name), 'openai-responses-sse')
  const assembler = new BlockAssembler()
  for (const { chunk } of attempt!.chunks) assembler.push(chunk)
  return {
    attempt: attempt!,
    blocks: assembler.blocks(),
    finish: assembler.finish,
    usage: assembler.usage,
    messages: diagnostics.map((d) => `${d.severity}: ${d.message}`),
  }
}

describe('detection', () => {
  it.each([
    ['synthetic-reasoning-text-tool.sse', 'openai-responses-sse'],
    ['vercel-openai-error-null-code.1.sse', 'openai-responses-sse'],
    ['synthetic-crlf-keepalive.sse', 'openai-responses-sse'],
  ])('%s → %s', (name, format) => {
    expect(detectFormat(body(name))).toBe(format)
  })

  it('a body of data: lines only, without event: names, is still Responses', () => {
    const text = body('synthetic-web-search.sse').replace(/^event: .*\n/gm, '')
    expect(detectFormat(text)).toBe('openai-responses-sse')
  })

  it('near misses stay what they are', () => {
    // A chat completion whose text mentions a Responses event type.
    const chat =
      'data: {"choices":[{"index":0,"delta":{"content":"\\"type\\": \\"response.created\\""}}]}\n\ndata: [DONE]\n\n'
    expect(detectFormat(chat)).toBe('openai-sse')
    // Anthropic's error event nests `error` and has no sequence_number, named or not.
    const anthropic = 'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    expect(detectFormat(anthropic)).toBe('anthropic-sse')
    expect(detectFormat(`event: error\n${anthropic}`)).toBe('anthropic-sse')
    // The Responses error event is flat and numbered.
    const responses = 'data: {"type":"error","code":"server_error","message":"m","sequence_number":0}\n\n'
    expect(detectFormat(responses)).toBe('openai-responses-sse')
  })
})

describe('what the provider sent is what assembles', () => {
  it('reasoning summaries, text and a function call, with usage less the cached input', () => {
    const result = read('synthetic-reasoning-text-tool.sse')
    expect(result.blocks).toEqual([
      {
        type: 'reasoning',
        text: '**Checking the forecast**\n\nThe user wants Paris weather; I will call get_weather.\n\nUnits: Celsius.',
      },
      { type: 'text', text: 'Let me look that up — one moment. 🌦️' },
      {
        type: 'tool-call',
        id: 'call_weather_1|fc_01',
        name: 'get_weather',
        arguments: expect.any(String),
      },
    ])
    const call = result.blocks[2] as { arguments: string }
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris', units: 'celsius', days: [1, 2, 3] })
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    // input_tokens 1840 of which 1024 cached: pi-ai counts the uncached part as input.
    expect(result.usage).toEqual({ inputTokens: 816, outputTokens: 212, cacheReadTokens: 1024 })
    expect(result.messages).toEqual([])
  })

  it('a recorded custom tool call: its input becomes {"input": …}', () => {
    const result = read('vercel-openai-custom-tool.1.sse')
    expect(result.blocks).toEqual([
      {
        type: 'tool-call',
        id: 'call_custom_sql_001|ct_abc123def456',
        name: 'write_sql',
        arguments: JSON.stringify({ input: 'SELECT * FROM users WHERE age > 25' }),
      },
    ])
    expect(result.finish).toEqual({ kind: 'tool-calls' })
  })

  it('a message with an output_text part and a refusal part is one text block', () => {
    expect(read('synthetic-refusal-two-parts.sse').blocks).toEqual([
      { type: 'text', text: "Here is part one. I can't help with the rest." },
    ])
  })

  it('response.incomplete is max-tokens', () => {
    const result = read('synthetic-incomplete-max-output-tokens.sse')
    expect(result.finish).toEqual({ kind: 'max-tokens' })
    expect(result.blocks).toEqual([{ type: 'text', text: 'The first three steps are: mix, knead, and' }])
  })
})

describe('failures end in a finish error with a code', () => {
  const failure = (name: string) => {
    const { finish } = read(name)
    return finish.kind === 'error' ? [finish.failure.code, finish.failure.message] : finish.kind
  }

  it.each([
    [
      'synthetic-response-failed-500.sse',
      'SERVER',
      'server_error: The server had an error processing your request (500).',
    ],
    [
      'vercel-openai-response-failed-only.1.sse',
      'RATE_LIMIT',
      'rate_limit_exceeded: Request too large for gpt-4o-mini in organization on tokens per min (TPM): Limit 30000, Requested 35364.',
    ],
    ['vercel-openai-error-null-code.1.sse', 'PI_AI_ERROR', 'Sorry, something went wrong.'],
    [
      'synthetic-error-context-window.sse',
      'CONTEXT_WINDOW_EXCEEDED',
      'Error Code context_length_exceeded: Your input exceeds the context window of this model.',
    ],
    [
      'synthetic-reasoning-text-tool-truncated.sse',
      'TRANSPORT',
      'OpenAI Responses stream ended before a terminal response event',
    ],
  ])('%s → %s', (name, code, message) => {
    expect(failure(name)).toEqual([code, message])
  })

  it('an HTTP 429 is RATE_LIMIT, with the body as pi-ai words it', () => {
    expect(failure('synthetic-http-429.http')).toEqual([
      'RATE_LIMIT',
      'OpenAI API error (429): {"message":"Rate limit reached for gpt-4.1 on tokens per min (TPM).","type":"tokens","param":null,"code":"rate_limit_exceeded"}',
    ])
  })

  it('a last event with no blank line after it is never read, and the Adapter view says so', () => {
    const result = read('synthetic-no-final-blank-line.sse')
    expect(failure('synthetic-no-final-blank-line.sse')).toEqual([
      'TRANSPORT',
      'OpenAI Responses stream ended before a terminal response event',
    ])
    expect(result.messages.join('\n')).toMatch(/last event has no blank line after it/)
    const wire = result.attempt.wire!
    const note = explainEvent(wire, wire.count - 1, result.attempt.chunks, -1)
    expect(note?.kind).toBe('undispatched')
  })
})

describe('built-in tools and the capture itself', () => {
  it('a web search is named where it is skipped: in the diagnostics and the Adapter view', () => {
    const result = read('synthetic-web-search.sse')
    expect(result.blocks).toEqual([
      { type: 'text', text: 'The latest release adds OpenAI Responses support.' },
    ])
    expect(result.messages.join('\n')).toContain('web_search_call ×1 (the built-in web search tool)')
    const wire = result.attempt.wire!
    const raw = (i: number) => wire.text.slice(wire.start[i]!, wire.end[i]!)
    const added = [...Array(wire.count).keys()].find((i) => raw(i).includes('"type":"web_search_call"'))!
    expect(explainEvent(wire, added, result.attempt.chunks, -1)?.text).toContain(
      'web_search_call (the built-in web search tool)',
    )
    const searching = [...Array(wire.count).keys()].find((i) => raw(i).includes('web_search_call.searching'))!
    expect(explainEvent(wire, searching, result.attempt.chunks, -1)?.text).toBe(
      'not read by this adapter: progress of web_search_call (the built-in web search tool)',
    )
  })

  it('recorded built-in tools (MCP, image generation, shell, apply_patch) are named', () => {
    const named = [
      ['vercel-openai-mcp-tool-approval.1.sse', 'mcp_list_tools ×1'],
      ['vercel-openai-image-generation-tool.1.sse', 'image_generation_call ×1'],
      ['vercel-openai-local-shell-tool.1.sse', 'local_shell_call ×1'],
      ['vercel-openai-apply-patch-tool.1.sse', 'apply_patch_call ×1'],
    ]
    for (const [name, text] of named) expect(read(name!).messages.join('\n')).toContain(text)
  })

  it('sequence_number gaps and repeats are wire-sequence findings', () => {
    const source = loadSource(body('synthetic-sequence-gap.sse'))
    const report = reportStream('stream', source.sessions[0]!.streams[0]!)
    expect(report.findings.filter((f) => f.rule === 'wire-sequence').map((f) => f.message)).toEqual([
      'sequence_number jumps from 6 to 9 at line 22: 2 events missing from the capture',
      'sequence_number 11 after 11 at line 31: events reordered or repeated (read in body order, as the harness does)',
    ])
    // A whole capture has none. (Its one finding is pi-ai's: each summary part's end streams a "\n\n" delta, the
    // last one included, while the block-end joins the parts with "\n\n" between them only.)
    const whole = loadSource(body('synthetic-reasoning-text-tool.sse'))
    expect(reportStream('stream', whole.sessions[0]!.streams[0]!).findings.map((f) => f.rule)).toEqual([
      'end-content-mismatch',
    ])
  })
})
