import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { event, jsonl } from '../test/builders'
import { corpusFiles, readCorpus } from '../test/corpus'
import { bs, finish, td } from '../test/chunks'
import { detectFormat } from './registry'

describe('detectFormat', () => {
  it('recognises a session log by its header line', () => {
    expect(detectFormat(jsonl(event.header(), event.turnStart(0, 1)))).toBe('dsh-session-jsonl')
  })

  it('recognises a session log from a torn header alone', () => {
    expect(detectFormat('{"type":"session","version":0,"id":"ab')).toBe('dsh-session-jsonl')
  })

  it('recognises a header with other spacing and leading blank lines', () => {
    expect(detectFormat('\n\n{ "type": "session", "version": 0 }\n')).toBe('dsh-session-jsonl')
  })

  it('recognises a session log without header from event lines (seq + type) and packed rows', () => {
    expect(detectFormat(jsonl(event.turnStart(0, 1), event.chunk(1, 1, 1, td(0, 'a'))))).toBe(
      'dsh-session-jsonl',
    )
    expect(detectFormat(jsonl(event.textChunks(4, 1, 1, 0, ['a', 'b', 'c'])))).toBe('dsh-session-jsonl')
  })

  it('recognises a JSON array by its first character', () => {
    expect(detectFormat('  \n[{"type":"text-delta","index":0,"text":"a"}]')).toBe('chunk-json')
    expect(detectFormat('[')).toBe('chunk-json')
  })

  it('recognises NDJSON of chunks, even when a line before them is broken', () => {
    expect(detectFormat(jsonl(bs(0, 'text'), td(0, 'a')))).toBe('chunk-ndjson')
    expect(detectFormat(jsonl('{broken', finish('stop')))).toBe('chunk-ndjson')
  })

  it('recognises nothing else', () => {
    expect(detectFormat('')).toBeNull()
    expect(detectFormat('hello world\n')).toBeNull()
    expect(detectFormat('{"type":"message_start"}\n{"type":"ping"}\n')).toBeNull()
    expect(detectFormat('data: {"choices":[]}\nhello\n\n')).toBeNull()
  })

  it('recognises raw SSE bodies: OpenAI-compatible, and Anthropic by its event names', () => {
    expect(detectFormat('data: {"choices":[]}\n\n')).toBe('openai-sse')
    // A chat chunk mislabelled text_completion is still chat: it has `delta`.
    expect(
      detectFormat('data: {"object":"text_completion","choices":[{"delta":{"content":"Hi"},"index":0}]}\n\n'),
    ).toBe('openai-sse')
    expect(detectFormat('event: message_start\ndata: {"type":"message_start"}\n\n')).toBe('anthropic-sse')
  })
})

describe('near-misses between the wires without a route and the formats read before them', () => {
  it('an Ollama line is no chunk NDJSON line, and a chunk line is no Ollama line', () => {
    const ollama =
      '{"model":"m","created_at":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":"a"},"done":false}\n'
    expect(detectFormat(ollama)).toBe('ollama-ndjson')
    expect(detectFormat(jsonl(td(0, 'a'), finish('stop')))).toBe('chunk-ndjson')
    // A chunk line that happens to carry the same fields is still a chunk.
    expect(
      detectFormat('{"type":"text-delta","index":0,"text":"a","model":"m","created_at":"x","done":false}\n'),
    ).toBe('chunk-ndjson')
    // Without `done` as a boolean it is no Ollama line.
    expect(detectFormat('{"model":"m","created_at":"x","done":"no"}\n')).toBeNull()
  })

  it('AI SDK data parts are not chat-completions, and chat-completions chunks are not AI SDK parts', () => {
    expect(detectFormat('data: {"type":"text-delta","id":"0","delta":"hi"}\n\n')).toBe('ai-sdk-ui-sse')
    expect(detectFormat('data: {"type":"start"}\n\ndata: {"type":"text-start","id":"0"}\n\n')).toBe(
      'ai-sdk-ui-sse',
    )
    expect(detectFormat('data: {"id":"x","object":"chat.completion.chunk","choices":[]}\n\n')).toBe(
      'openai-sse',
    )
    // Anthropic's unnamed error event is `type: error` too: not enough for the AI SDK.
    expect(detectFormat('data: {"type":"error","error":{"type":"overloaded_error","message":"o"}}\n\n')).toBe(
      'anthropic-sse',
    )
    expect(detectFormat('data: {"type":"error","errorText":"boom"}\n\n')).toBe('openai-sse')
  })

  it('Cohere events (hyphenated) are not Anthropic events (underscored), nor AI SDK parts', () => {
    expect(detectFormat('event: message-start\ndata: {"type":"message-start"}\n\n')).toBe('cohere-sse')
    expect(detectFormat('data: {"type":"content-delta","index":0}\n\n')).toBe('cohere-sse')
    expect(detectFormat('event: message_start\ndata: {"type":"message_start"}\n\n')).toBe('anthropic-sse')
  })

  it('legacy Completions chunks (text_completion) are not chat-completions chunks, and chat chunks stay chat', () => {
    const completion = (extra: string) =>
      `data: {"id":"cmpl-1",${extra}"choices":[{"text":"Hi","index":0,"logprobs":null,"finish_reason":null}]}\n\n`
    expect(detectFormat(completion('"object":"text_completion",'))).toBe('openai-completions-sse')
    // Servers that leave `object` out: choices with `text` and no `delta` are still completions.
    expect(detectFormat(completion(''))).toBe('openai-completions-sse')
    expect(detectFormat(completion('"object":"chat.completion.chunk",'))).toBe('openai-sse')
    expect(
      detectFormat(
        'data: {"object":"chat.completion.chunk","choices":[{"delta":{"content":"Hi"},"index":0}]}\n\n',
      ),
    ).toBe('openai-sse')
    // A chunk with both `text` and `delta` is no completions chunk; neither is one with no choices.
    expect(detectFormat('data: {"choices":[{"text":"Hi","delta":{"content":"Hi"}}]}\n\n')).toBe('openai-sse')
    expect(detectFormat('data: {"choices":[]}\n\n')).toBe('openai-sse')
    // A chat chunk mislabelled text_completion is still chat: it has `delta`.
    expect(
      detectFormat('data: {"object":"text_completion","choices":[{"delta":{"content":"Hi"},"index":0}]}\n\n'),
    ).toBe('openai-sse')
    // Azure's prompt-filter chunk first (no object, no choices): the chunk after it decides.
    const azure = 'data: {"object":"","prompt_filter_results":[],"choices":[]}\n\n'
    expect(detectFormat(azure + completion('"object":"text_completion",'))).toBe('openai-completions-sse')
    expect(
      detectFormat(
        azure + 'data: {"object":"chat.completion.chunk","choices":[{"delta":{"content":"a"}}]}\n\n',
      ),
    ).toBe('openai-sse')
  })

  it('Gemini Interactions events are not streamGenerateContent, Responses or Cohere events', () => {
    expect(
      detectFormat(
        'event: interaction.created\ndata: {"interaction":{"id":"v1_a"},"event_type":"interaction.created"}\n\n',
      ),
    ).toBe('gemini-interactions-sse')
    expect(
      detectFormat('data: {"index":0,"delta":{"type":"text","text":"a"},"event_type":"step.delta"}\n\n'),
    ).toBe('gemini-interactions-sse')
    expect(detectFormat('data: {"index":0,"content":{"type":"text"},"event_type":"content.start"}\n\n')).toBe(
      'gemini-interactions-sse',
    )
    expect(
      detectFormat('data: {"error":{"code":"gateway_timeout","message":"m"},"event_type":"error"}\n\n'),
    ).toBe('gemini-interactions-sse')
    expect(detectFormat('data: {"candidates":[{"content":{"parts":[{"text":"a"}]}}]}\n\n')).toBe('gemini-sse')
    expect(
      detectFormat('event: response.created\ndata: {"type":"response.created","sequence_number":0}\n\n'),
    ).toBe('openai-responses-sse')
    expect(detectFormat('data: {"type":"error","code":"x","message":"m","sequence_number":3}\n\n')).toBe(
      'openai-responses-sse',
    )
    // Anthropic's and Cohere's error events carry `type`, never `event_type`.
    expect(detectFormat('data: {"type":"error","error":{"type":"overloaded_error","message":"o"}}\n\n')).toBe(
      'anthropic-sse',
    )
    expect(detectFormat('event: content-delta\ndata: {"type":"content-delta","index":0}\n\n')).toBe(
      'cohere-sse',
    )
    // Cohere v1 names its events in `event_type` too, hyphenated: no interaction event.
    expect(detectFormat('data: {"is_finished":false,"event_type":"text-generation","text":"a"}\n\n')).toBe(
      'openai-sse',
    )
  })

  it('a trace export needs gen_ai.output.messages; a JSON array of chunks stays chunk JSON', () => {
    expect(detectFormat('{"resourceSpans":[]}\n')).toBeNull()
    expect(detectFormat('[{"type":"text-delta","index":0,"text":"gen_ai"}]')).toBe('chunk-json')
  })
})

describe('detectFormat on every format (recorded fixtures and the corpus)', () => {
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')

  it.each([
    ['devtools-capture.har', 'har'],
    ['devtools-capture-truncated.har.txt', 'har'],
    ['dsh-live-two-sessions.ndjson', 'dsh-live-recording'],
    ['dsh-live-gap-truncated.ndjson', 'dsh-live-recording'],
    ['tutorial-simplified-tools.ndjson', 'simplified-stream'],
    ['tutorial-simplified-truncated.ndjson', 'simplified-stream'],
    ['tutorial-simplified-errors.json', 'simplified-stream'],
    ['deepseek-reasoner-tool-calls.sse', 'openai-sse'],
    ['deepseek-reasoner-truncated.sse', 'openai-sse'],
    ['deepseek-malformed-json.sse', 'openai-sse'],
    ['deepseek-rate-limited.http', 'openai-sse'],
    ['anthropic-thinking-tool-use.sse', 'anthropic-sse'],
    ['anthropic-overloaded.sse', 'anthropic-sse'],
    ['anthropic-truncated.sse', 'anthropic-sse'],
    ['seed-004-example-chunks.ts.txt', 'js-snippet'],
    ['seed-004-example-chunks-truncated.ts.txt', 'js-snippet'],
    ['seed-000-example-chunks-gutter.txt', 'js-snippet'],
    ['snippet-unsupported.ts.txt', 'js-snippet'],
    ['ollama-chat.ndjson', 'ollama-ndjson'],
    ['cohere-v2-chat.sse', 'cohere-sse'],
    ['wire/ollama-chat-thinking-tools.ndjson', 'ollama-ndjson'],
    ['wire/ollama-chat-torn.ndjson', 'ollama-ndjson'],
    ['wire/ollama-chat-bad-json.ndjson', 'ollama-ndjson'],
    ['wire/ollama-generate-length.ndjson', 'ollama-ndjson'],
    ['wire/cohere-tool-call.sse', 'cohere-sse'],
    ['wire/cohere-reasoning.sse', 'cohere-sse'],
    ['wire/cohere-citations.sse', 'cohere-sse'],
    ['wire/cohere-empty-tool-call.sse', 'cohere-sse'],
    ['wire/cohere-tool-call-torn.sse', 'cohere-sse'],
    ['wire/cohere-tool-call-bad-json.sse', 'cohere-sse'],
    ['wire/ai-sdk-ui-stream.sse', 'ai-sdk-ui-sse'],
    ['wire/ai-sdk-ui-stream.http', 'ai-sdk-ui-sse'],
    ['wire/ai-sdk-ui-stream-torn.sse', 'ai-sdk-ui-sse'],
    ['wire/ai-sdk-ui-stream-bad-json.sse', 'ai-sdk-ui-sse'],
    ['wire/ai-sdk-ui-stream-error.sse', 'ai-sdk-ui-sse'],
    ['wire/devtools-generations.json', 'ai-sdk-devtools'],
    ['wire/otlp-trace.jsonl', 'trace-reference'],
    ['wire/otlp-trace-mismatch.jsonl', 'trace-reference'],
    ['wire/langfuse-trace.json', 'trace-reference'],
    ['wire/wire-bodies.har', 'har'],
    ['completions/gpt-instruct-usage.sse', 'openai-completions-sse'],
    ['completions/gpt-instruct-usage-torn.sse', 'openai-completions-sse'],
    ['completions/gpt-instruct-usage-bad-json.sse', 'openai-completions-sse'],
    ['completions/logprobs-length.sse', 'openai-completions-sse'],
    ['completions/n2-choices.sse', 'openai-completions-sse'],
    ['completions/azure-content-filter.sse', 'openai-completions-sse'],
    ['completions/vllm-usage.sse', 'openai-completions-sse'],
    ['interactions/steps-thought-text.sse', 'gemini-interactions-sse'],
    ['interactions/steps-function-call.sse', 'gemini-interactions-sse'],
    ['interactions/steps-function-call-torn.sse', 'gemini-interactions-sse'],
    ['interactions/steps-function-call-bad-json.sse', 'gemini-interactions-sse'],
    ['interactions/steps-google-search.sse', 'gemini-interactions-sse'],
    ['interactions/content-function-call.sse', 'gemini-interactions-sse'],
    ['interactions/error-mid-stream.sse', 'gemini-interactions-sse'],
    ['bedrock-har/base64.har', 'har'],
    ['bedrock-har/text-utf8.har', 'har'],
    ['bedrock-har/text-utf8-torn.har', 'har'],
    ['bedrock-har/reasoning-tool-call.utf8.txt', 'bedrock-eventstream-text'],
  ])('%s → %s', (name, format) => {
    expect(detectFormat(fixture(name))).toBe(format)
  })

  it('still reads every corpus session log as a session log, and bare chunks as before', () => {
    const logs = corpusFiles()
    expect(logs.length).toBeGreaterThan(0)
    for (const name of logs) {
      expect([name, detectFormat(readCorpus(name))]).toEqual([name, 'dsh-session-jsonl'])
    }
    expect(detectFormat(jsonl(bs(0, 'text'), td(0, 'yield { a }')))).toBe('chunk-ndjson')
    expect(detectFormat(JSON.stringify([td(0, 'data: x')]))).toBe('chunk-json')
  })
})
