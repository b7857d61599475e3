#!/usr/bin/env node
// Regenerates src/formats/fixtures/completions/ (legacy OpenAI Completions SSE), src/formats/fixtures/interactions/
// (Gemini Interactions API SSE) and the HAR captures of a Bedrock event stream in src/formats/fixtures/bedrock-har/,
// from the shapes the providers document (see SOURCES.md in each folder), plus a damaged variant of each.
//
//   node scripts/make-more-wire-fixtures.mjs
//
// Deterministic: no clock, no randomness; the same script writes the same bytes. The Bedrock HARs wrap
// bedrock/reasoning-tool-call.eventstream (written by scripts/make-bedrock-fixtures.mjs), so run that one first.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))
const write = (path, text) => {
  writeFileSync(root + path, text)
  console.log(`${String(text.length).padStart(7)}  ${path}`)
}
/** Cut a body inside its last event's JSON, as a capture stopped mid-write is. */
const torn = (body, marker) => body.slice(0, body.lastIndexOf(marker) + Math.floor(marker.length / 2))
/** Drop the closing brace of the first payload holding `marker`: bad JSON mid-stream. */
const broken = (body, marker) => {
  const at = body.indexOf(marker)
  const close = body.indexOf('}\n', at)
  return body.slice(0, close) + body.slice(close + 1)
}

// ---- Legacy OpenAI Completions (platform.openai.com/docs/api-reference/completions/object, "streaming") ----
mkdirSync(root + 'completions', { recursive: true })
const dataSse = (payloads) =>
  payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`).join('') + 'data: [DONE]\n\n'
const completion =
  (id, model, created) =>
  (choices, extra = {}) => ({
    id,
    object: 'text_completion',
    created,
    choices,
    model,
    system_fingerprint: null,
    ...extra,
  })
const choice = (text, finish = null, index = 0, logprobs = null) => ({
  text,
  index,
  logprobs,
  finish_reason: finish,
})

// gpt-3.5-turbo-instruct with stream_options.include_usage: `usage: null` on each chunk, then one with no choices.
const instruct = completion('cmpl-9xQ2kTzCkR7fOaH1bHcZ8uFv1LwPn', 'gpt-3.5-turbo-instruct', 1717236000)
const instructBody = dataSse([
  ...['\n\n', 'The', ' capital', ' of', ' France', ' is', ' Paris', '.'].map((t) =>
    instruct([choice(t)], { usage: null }),
  ),
  instruct([choice('', 'stop')], { usage: null }),
  instruct([], { usage: { prompt_tokens: 9, completion_tokens: 8, total_tokens: 17 } }),
])
write('completions/gpt-instruct-usage.sse', instructBody)
write('completions/gpt-instruct-usage-torn.sse', torn(instructBody, '"total_tokens":17'))
write('completions/gpt-instruct-usage-bad-json.sse', broken(instructBody, '" France"'))

// logprobs: 1 and max_tokens reached: finish_reason length.
const lp = (token, offset) => ({
  tokens: [token],
  token_logprobs: [-0.0123],
  top_logprobs: [{ [token]: -0.0123 }],
  text_offset: [offset],
})
let offset = 21
const words = [' Roses', ' are', ' red', ',', ' violets']
write(
  'completions/logprobs-length.sse',
  dataSse([
    ...words.map((w, i) =>
      instruct([
        choice(w, i === words.length - 1 ? 'length' : null, 0, lp(w, (offset += w.length) - w.length)),
      ]),
    ),
  ]),
)

// n: 2 — the choices interleave, each chunk carrying one of them.
const n2 = completion('cmpl-9xQ3n2', 'gpt-3.5-turbo-instruct', 1717236100)
write(
  'completions/n2-choices.sse',
  dataSse([
    n2([choice(' Yes', null, 0)]),
    n2([choice(' No', null, 1)]),
    n2([choice(', it is.', null, 0)]),
    n2([choice(', it is not.', null, 1)]),
    n2([choice('', 'stop', 0)]),
    n2([choice('', 'stop', 1)]),
  ]),
)

// Azure OpenAI: a first chunk with prompt_filter_results and no object, then content_filter results per choice;
// the stream ends with finish_reason content_filter.
const azure = completion('cmpl-azure-7', 'gpt-35-turbo-instruct', 1717236200)
const filtered = {
  hate: { filtered: false, severity: 'safe' },
  violence: { filtered: true, severity: 'medium' },
}
write(
  'completions/azure-content-filter.sse',
  dataSse([
    {
      id: '',
      object: '',
      created: 0,
      model: '',
      prompt_filter_results: [
        { prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } },
      ],
      choices: [],
    },
    azure([{ ...choice('Once upon'), content_filter_results: {} }]),
    azure([{ ...choice(' a time', 'content_filter'), content_filter_results: filtered }]),
  ]),
)

// vLLM's OpenAI-compatible server: stop_reason beside finish_reason, usage on the last chunk.
const vllm = completion('cmpl-4b2f6c0c6a1e4f0f9d0c', 'meta-llama/Llama-3.1-8B', 1717236300)
write(
  'completions/vllm-usage.sse',
  dataSse([
    vllm([{ ...choice(' 4'), stop_reason: null }], { usage: null }),
    vllm([{ ...choice('\n', 'stop'), stop_reason: '\n' }], { usage: null }),
    vllm([], { usage: { prompt_tokens: 7, total_tokens: 9, completion_tokens: 2 } }),
  ]),
)

// ---- Gemini Interactions API (ai.google.dev/gemini-api/docs/interactions/streaming; google-genai SDK types) ----
mkdirSync(root + 'interactions', { recursive: true })
const namedSse = (events) =>
  events.map((e) => `event: ${e.event_type}\ndata: ${JSON.stringify(e)}\n\n`).join('')
const created = (id, model) => ({
  interaction: { id, status: 'in_progress', object: 'interaction', model },
  event_type: 'interaction.created',
})
const status = (id, s) => ({ interaction_id: id, status: s, event_type: 'interaction.status_update' })
const stepStart = (index, step) => ({ index, step, event_type: 'step.start' })
const stepDelta = (index, delta) => ({ index, delta, event_type: 'step.delta' })
const stepStop = (index) => ({ index, event_type: 'step.stop' })
const completed = (id, model, s, usage) => ({
  interaction: { id, status: s, usage, object: 'interaction', model },
  event_type: 'interaction.completed',
})
const usage = (input, output, thought, cached = 0) => ({
  total_tokens: input + output + thought,
  total_input_tokens: input,
  total_cached_tokens: cached,
  total_output_tokens: output,
  total_tool_use_tokens: 0,
  total_thought_tokens: thought,
})

// The documented example: a thought step (signature, summary), then model output in pieces; ends `[DONE]`.
const idA = 'v1_ChdHdHlBYWVpYU9KdmNrUDhQbkxlUUlBEhdHdHlBYWVpYU9KdmNrUDhQbkxlUUlB'
const model = 'gemini-3-flash-preview'
const countBody =
  namedSse([
    created(idA, model),
    status(idA, 'in_progress'),
    stepStart(0, { type: 'thought' }),
    stepDelta(0, {
      type: 'thought_summary',
      content: { type: 'text', text: '**Counting to 25**\n\nA simple list.' },
    }),
    stepDelta(0, { signature: 'EpoGCpcGAXLI2nxQ1sY0d3FhbmRv', type: 'thought_signature' }),
    stepStop(0),
    stepStart(1, { type: 'model_output' }),
    stepDelta(1, { text: '1, 2, 3, 4, 5, 6, ', type: 'text' }),
    stepDelta(1, { text: '7, 8, 9, 10, 11, 12, 13, 14, 15, 16, ', type: 'text' }),
    stepDelta(1, { text: '17, 18, 19, 20, 21, 22, 23, 24, 25', type: 'text' }),
    stepStop(1),
    status(idA, 'completed'),
    completed(idA, model, 'completed', usage(11, 90, 245)),
  ]) + 'event: done\ndata: [DONE]\n\n'
write('interactions/steps-thought-text.sse', countBody)

// A function call: name and id in step.start, the arguments streamed as text; the interaction requires action.
const idB = 'v1_ChdWZWF0aGVyQ2FsbA'
const callBody = namedSse([
  created(idB, model),
  status(idB, 'in_progress'),
  stepStart(0, { type: 'thought' }),
  stepDelta(0, {
    type: 'thought_summary',
    content: { type: 'text', text: 'The user asks for the weather.' },
  }),
  stepStop(0),
  stepStart(1, { type: 'model_output' }),
  stepDelta(1, { text: 'Let me look that up.', type: 'text' }),
  stepStop(1),
  stepStart(2, { type: 'function_call', id: 'un6k8t18', name: 'get_weather', arguments: {} }),
  stepDelta(2, { type: 'arguments_delta', arguments: '{"location": "San Fra' }),
  stepDelta(2, { type: 'arguments_delta', arguments: 'ncisco, CA", "unit": "celsius"}' }),
  stepStop(2),
  status(idB, 'requires_action'),
  completed(idB, model, 'requires_action', usage(64, 21, 40, 32)),
])
write('interactions/steps-function-call.sse', callBody)
write('interactions/steps-function-call-torn.sse', torn(callBody, '"event_type":"interaction.completed"'))
write('interactions/steps-function-call-bad-json.sse', broken(callBody, '"arguments_delta"'))

// Server-side Google Search steps before the answer: no block of the message, named.
const idC = 'v1_U2VhcmNo'
write(
  'interactions/steps-google-search.sse',
  namedSse([
    created(idC, model),
    stepStart(0, { type: 'google_search_call', id: 'gs_1', arguments: { queries: ['euro 2024 winner'] } }),
    stepStop(0),
    stepStart(1, {
      type: 'google_search_result',
      call_id: 'gs_1',
      result: [{ title: 'UEFA', url: 'https://www.uefa.com' }],
    }),
    stepStop(1),
    stepStart(2, { type: 'model_output' }),
    stepDelta(2, {
      text: 'Spain won Euro 2024.',
      type: 'text',
      annotations: [{ start_index: 0, end_index: 20, source: 'https://www.uefa.com' }],
    }),
    stepStop(2),
    completed(idC, model, 'completed', usage(12, 6, 0)),
  ]),
)

// The first API revision's content events: interaction.start / content.* / interaction.complete, a whole call.
const idD = 'v1_Q29udGVudA'
write(
  'interactions/content-function-call.sse',
  namedSse([
    {
      interaction: { id: idD, status: 'in_progress', object: 'interaction', model: 'gemini-2.5-flash' },
      event_type: 'interaction.start',
    },
    { index: 0, content: { type: 'text' }, event_type: 'content.start' },
    { index: 0, delta: { type: 'text', text: 'Checking the ' }, event_type: 'content.delta' },
    { index: 0, delta: { type: 'text', text: 'forecast.' }, event_type: 'content.delta' },
    { index: 0, event_type: 'content.stop' },
    { index: 1, content: { type: 'function_call' }, event_type: 'content.start' },
    {
      index: 1,
      delta: {
        type: 'function_call',
        id: 'fc_7',
        name: 'get_forecast',
        arguments: { city: 'Berlin', days: 3 },
      },
      event_type: 'content.delta',
    },
    { index: 1, event_type: 'content.stop' },
    {
      interaction: {
        id: idD,
        status: 'requires_action',
        object: 'interaction',
        model: 'gemini-2.5-flash',
        usage: usage(30, 18, 0),
      },
      event_type: 'interaction.complete',
    },
  ]),
)

// An error event mid-stream (the gateway's deadline), after some text.
const idE = 'v1_RXJyb3I'
write(
  'interactions/error-mid-stream.sse',
  namedSse([
    created(idE, model),
    stepStart(0, { type: 'model_output' }),
    stepDelta(0, { text: 'The first', type: 'text' }),
    {
      error: { message: 'Deadline expired before operation could complete.', code: 'gateway_timeout' },
      event_type: 'error',
    },
  ]),
)

// ---- A Bedrock ConverseStream body inside a HAR, as browsers save it (bedrock-har/) ----
mkdirSync(root + 'bedrock-har', { recursive: true })
const stream = readFileSync(root + 'bedrock/reasoning-tool-call.eventstream')
const har = (content) =>
  JSON.stringify(
    {
      log: {
        version: '1.2',
        creator: { name: 'chunkscope fixtures', version: '1' },
        entries: [
          {
            startedDateTime: '2025-06-01T10:00:00.000Z',
            time: 900,
            request: {
              method: 'POST',
              url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse-stream',
              headers: [],
              postData: {
                mimeType: 'application/json',
                text: '{"messages":[{"role":"user","content":[{"text":"Weather in Paris?"}]}]}',
              },
            },
            response: {
              status: 200,
              statusText: 'OK',
              headers: [{ name: 'content-type', value: 'application/vnd.amazon.eventstream' }],
              content: { size: stream.length, mimeType: 'application/vnd.amazon.eventstream', ...content },
            },
          },
        ],
      },
    },
    null,
    2,
  ) + '\n'
// Chrome saves a binary body as base64.
write('bedrock-har/base64.har', har({ text: stream.toString('base64'), encoding: 'base64' }))
// A tool that decodes every body as UTF-8 text: the lengths' and CRCs' invalid bytes become U+FFFD.
const mangled = new TextDecoder('utf-8').decode(stream)
write('bedrock-har/text-utf8.har', har({ text: mangled }))
// The same, cut inside a frame's payload.
write(
  'bedrock-har/text-utf8-torn.har',
  har({ text: mangled.slice(0, mangled.lastIndexOf('"toolUse"') + 12) }),
)
// The body alone, copied out of devtools as text (not in a HAR).
write('bedrock-har/reasoning-tool-call.utf8.txt', mangled)
