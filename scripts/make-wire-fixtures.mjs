#!/usr/bin/env node
// Regenerates src/formats/fixtures/wire/ — bodies of the wires without a harness route (docs/protocol.md §9, "Wires without a harness route") and
// the trace exports that carry a reference final — from the shapes the providers document, plus the recorded
// Cohere bodies under recorded/ put in their wire form (see SOURCES.md there), and a damaged variant of each.
//
//   node scripts/make-wire-fixtures.mjs
//
// Deterministic: no clock, no randomness; the same script writes the same bytes.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const out = fileURLToPath(new URL('../src/formats/fixtures/wire/', import.meta.url))
mkdirSync(out, { recursive: true })
const write = (name, text) => {
  writeFileSync(out + name, text)
  console.log(`${String(text.length).padStart(7)}  ${name}`)
}
const ndjson = (lines) => lines.map((line) => JSON.stringify(line)).join('\n') + '\n'
/** SSE as Cohere sends it: `event:` + `data:` + blank line per event. */
const namedSse = (events) => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')
/** SSE as the AI SDK's UI message stream sends it: `data:` only, then `data: [DONE]`. */
const dataSse = (parts) => parts.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('') + 'data: [DONE]\n\n'

// Recorded Cohere chunks (one payload per line) in their wire form; nothing in a payload is changed.
for (const name of readdirSync(out + 'recorded').filter((n) => n.endsWith('.chunks.txt'))) {
  const lines = readFileSync(out + 'recorded/' + name, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
  const body = lines.map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`).join('')
  write(name.replace('.chunks.txt', '.sse'), body)
}

// Ollama /api/chat (docs/api.md of ollama/ollama): thinking, then content, then a tool call, then done.
const at = (i) => `2025-06-01T10:00:${String(i).padStart(2, '0')}.000000Z`
const chatLine = (i, message, extra = {}) => ({
  model: 'qwen3:8b',
  created_at: at(i),
  message: { role: 'assistant', content: '', ...message },
  done: false,
  ...extra,
})
const WEATHER_ARGS = { city: 'Paris', unit: 'celsius', days: [1, 2], nested: { deep: true, note: 'é "q"' } }
const ollamaChat = [
  chatLine(0, { thinking: 'The user wants' }),
  chatLine(1, { thinking: ' the weather.' }),
  chatLine(2, { content: 'Let me check' }),
  chatLine(3, { content: ' that for you.' }),
  chatLine(4, { tool_calls: [{ function: { name: 'get_weather', arguments: WEATHER_ARGS } }] }),
  {
    ...chatLine(5, {}),
    done: true,
    done_reason: 'stop',
    total_duration: 4883583458,
    load_duration: 1334875,
    prompt_eval_count: 26,
    prompt_eval_duration: 342546000,
    eval_count: 21,
    eval_duration: 4535599000,
  },
]
write('ollama-chat-thinking-tools.ndjson', ndjson(ollamaChat))
const chatText = ndjson(ollamaChat)
// Torn: the done line cut in the middle (a capture stopped while it was written).
write('ollama-chat-torn.ndjson', chatText.slice(0, chatText.lastIndexOf('"done":true') + 4))
// Bad JSON mid-stream: line 3 lost a closing brace.
const chatLines = chatText.split('\n')
chatLines[2] = chatLines[2].slice(0, -1)
write('ollama-chat-bad-json.ndjson', chatLines.join('\n'))

// Ollama /api/generate: `response` and top-level `thinking`, `context` on the last line, done_reason length.
const genLine = (i, fields) => ({
  model: 'llama3.2',
  created_at: at(i),
  response: '',
  done: false,
  ...fields,
})
write(
  'ollama-generate-length.ndjson',
  ndjson([
    genLine(0, { response: 'The sky' }),
    genLine(1, { response: ' is blue because' }),
    genLine(2, {
      response: ' of Rayleigh',
      done: true,
      done_reason: 'length',
      context: [1, 2, 3],
      prompt_eval_count: 12,
      eval_count: 3,
    }),
  ]),
)

// Cohere v2: the damaged variants of a recorded body.
const cohereTool = readFileSync(out + 'cohere-tool-call.sse', 'utf8')
write('cohere-tool-call-torn.sse', cohereTool.slice(0, cohereTool.lastIndexOf('event: message-end') + 40))
write(
  'cohere-tool-call-bad-json.sse',
  cohereTool.replace('"arguments":"location"}}}}}', '"arguments":"location"}}}}'),
)

// The AI SDK UI message stream (ai-sdk.dev "Stream Protocols", v5+): reasoning, text, a streamed tool call, the
// tool's output, a second step of text, finish.
const uiParts = [
  { type: 'start', messageId: 'msg-7f3a' },
  { type: 'start-step' },
  { type: 'reasoning-start', id: 'r1' },
  { type: 'reasoning-delta', id: 'r1', delta: 'Weather needs a tool.' },
  { type: 'reasoning-end', id: 'r1' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Checking ' },
  { type: 'text-delta', id: 't1', delta: 'Paris.' },
  { type: 'text-end', id: 't1' },
  { type: 'tool-input-start', toolCallId: 'call_1', toolName: 'get_weather' },
  { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '{"city":' },
  { type: 'tool-input-delta', toolCallId: 'call_1', inputTextDelta: '"Paris","days":[1,2]}' },
  {
    type: 'tool-input-available',
    toolCallId: 'call_1',
    toolName: 'get_weather',
    input: { city: 'Paris', days: [1, 2] },
  },
  { type: 'tool-output-available', toolCallId: 'call_1', output: { temperature: 21 } },
  { type: 'finish-step' },
  { type: 'start-step' },
  { type: 'text-start', id: 't2' },
  { type: 'text-delta', id: 't2', delta: 'It is 21°C.' },
  { type: 'text-end', id: 't2' },
  { type: 'finish-step' },
  { type: 'finish', finishReason: 'stop', messageMetadata: { usage: { inputTokens: 40, outputTokens: 18 } } },
]
const ui = dataSse(uiParts)
write('ai-sdk-ui-stream.sse', ui)
write(
  'ai-sdk-ui-stream.http',
  `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-vercel-ai-ui-message-stream: v1\r\n\r\n${ui}`,
)
write('ai-sdk-ui-stream-torn.sse', ui.slice(0, ui.indexOf('{"type":"text-delta","id":"t2"') + 20))
write('ai-sdk-ui-stream-bad-json.sse', ui.replace('"delta":"Paris."}', '"delta":"Paris."'))
write(
  'ai-sdk-ui-stream-error.sse',
  dataSse([
    { type: 'start' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Partial' },
    { type: 'error', errorText: '429 Too Many Requests: rate limit exceeded' },
  ]),
)

// @ai-sdk/devtools' .devtools/generations.json (packages/devtools/src/db.ts of vercel/ai): runs and steps, a stream
// step's language-model parts as a JSON string in raw_response and what the middleware collected in output.
const lmParts = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'resp_1', modelId: 'gpt-4o-mini', timestamp: '2025-06-01T10:00:00.000Z' },
  { type: 'text-start', id: '0' },
  { type: 'text-delta', id: '0', delta: 'Looking ' },
  { type: 'text-delta', id: '0', delta: 'it up.' },
  { type: 'text-end', id: '0' },
  { type: 'tool-input-start', id: 'call_9', toolName: 'search' },
  { type: 'tool-input-delta', id: 'call_9', delta: '{"q":"chunk' },
  { type: 'tool-input-delta', id: 'call_9', delta: 'scope"}' },
  { type: 'tool-input-end', id: 'call_9' },
  { type: 'tool-call', toolCallId: 'call_9', toolName: 'search', input: '{"q":"chunkscope"}' },
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: {
      inputTokens: { total: 50, noCache: 30, cacheRead: 20, cacheWrite: 0 },
      outputTokens: { total: 12, text: 12, reasoning: 0 },
    },
  },
]
const collected = {
  textParts: [{ id: '0', text: 'Looking it up.' }],
  reasoningParts: [],
  toolCalls: [lmParts[10]],
  finishReason: lmParts[11].finishReason,
  usage: lmParts[11].usage,
}
const devtools = {
  runs: [
    {
      id: '20250601100000000-ab12cd34',
      started_at: '2025-06-01T10:00:00.000Z',
      parent_run_id: null,
      parent_step_id: null,
      function_id: null,
    },
  ],
  steps: [
    {
      id: 'step-1',
      run_id: '20250601100000000-ab12cd34',
      step_number: 1,
      type: 'stream',
      model_id: 'gpt-4o-mini',
      provider: 'openai.chat',
      started_at: '2025-06-01T10:00:00.000Z',
      duration_ms: 812,
      input: JSON.stringify({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'find chunkscope' }] }],
      }),
      output: JSON.stringify(collected),
      usage: JSON.stringify(collected.usage),
      error: null,
      raw_request: null,
      raw_response: JSON.stringify(lmParts),
      raw_chunks: JSON.stringify([]),
      provider_options: null,
    },
    {
      id: 'step-2',
      run_id: '20250601100000000-ab12cd34',
      step_number: 2,
      type: 'generate',
      model_id: 'gpt-4o-mini',
      provider: 'openai.chat',
      started_at: '2025-06-01T10:00:01.000Z',
      duration_ms: 300,
      input: '{}',
      output: JSON.stringify({ content: [{ type: 'text', text: 'Done.' }], finishReason: 'stop' }),
      usage: null,
      error: null,
      raw_request: null,
      raw_response: null,
      raw_chunks: null,
      provider_options: null,
    },
  ],
}
write('devtools-generations.json', JSON.stringify(devtools, null, 2) + '\n')

// OTLP/JSON trace export, one ExportTraceServiceRequest per line, with gen_ai.output.messages (OpenTelemetry GenAI
// semantic conventions): the reference final of ai-sdk-ui-stream.sse, and one that differs from it.
const uiFinal = [
  {
    role: 'assistant',
    parts: [
      { type: 'reasoning', content: 'Weather needs a tool.' },
      { type: 'text', content: 'Checking Paris.' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } },
      { type: 'text', content: 'It is 21°C.' },
    ],
    finish_reason: 'stop',
  },
]
const otlpLine = (spanId, name, messages) =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'weather-app' } }] },
        scopeSpans: [
          {
            scope: { name: 'ai' },
            spans: [
              {
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId,
                name,
                kind: 3,
                startTimeUnixNano: '1748772000000000000',
                endTimeUnixNano: '1748772001000000000',
                attributes: [
                  { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                  { key: 'gen_ai.request.model', value: { stringValue: 'qwen3:8b' } },
                  { key: 'gen_ai.output.messages', value: { stringValue: JSON.stringify(messages) } },
                ],
              },
            ],
          },
        ],
      },
    ],
  })
write('otlp-trace.jsonl', otlpLine('eee19b7ec3c1b174', 'chat qwen3:8b', uiFinal) + '\n')
const differs = structuredClone(uiFinal)
differs[0].parts[3].content = 'It is 12°C.'
write('otlp-trace-mismatch.jsonl', otlpLine('eee19b7ec3c1b175', 'chat qwen3:8b', differs) + '\n')
// The same reference as a Langfuse-style export: observations with OTel attributes as a flat object.
write(
  'langfuse-trace.json',
  JSON.stringify(
    {
      id: 'trace-1',
      observations: [
        {
          id: 'obs-1',
          type: 'GENERATION',
          name: 'chat',
          metadata: { attributes: { 'gen_ai.output.messages': JSON.stringify(uiFinal) } },
        },
      ],
    },
    null,
    2,
  ) + '\n',
)

// A HAR holding one body of each wire.
const entry = (url, mimeType, text) => ({
  startedDateTime: '2025-06-01T10:00:00.000Z',
  time: 100,
  request: {
    method: 'POST',
    url,
    headers: [],
    postData: { mimeType: 'application/json', text: '{"stream":true}' },
  },
  response: {
    status: 200,
    statusText: 'OK',
    headers: [{ name: 'content-type', value: mimeType }],
    content: { size: text.length, mimeType, text },
  },
})
write(
  'wire-bodies.har',
  JSON.stringify(
    {
      log: {
        version: '1.2',
        creator: { name: 'chunkscope fixtures', version: '1' },
        entries: [
          entry('http://localhost:11434/api/chat', 'application/x-ndjson', chatText),
          entry('https://api.cohere.com/v2/chat', 'text/event-stream', cohereTool),
          entry('http://localhost:3000/api/chat', 'text/event-stream', ui),
        ],
      },
    },
    null,
    2,
  ) + '\n',
)
