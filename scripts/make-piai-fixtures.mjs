#!/usr/bin/env node
// Regenerates the synthetic bodies of the pi-ai routes' wire formats (docs/protocol.md §9.2–§9.4) under
// src/formats/fixtures/{responses,gemini,bedrock}/, each built from the providers' documented event shapes, plus a
// damaged variant of each (cut short mid-event, or one event's JSON broken).
//
//   node scripts/make-piai-fixtures.mjs                 synthetic bodies and their damaged variants
//   node scripts/make-piai-fixtures.mjs --ai-sdk DIR    also converts the recordings SOURCES.md lists from a
//                                                       git directory of github.com/vercel/ai (e.g. a bare clone)
//
// Deterministic: the same script writes the same bytes.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../src/formats/fixtures/', import.meta.url))
const write = (dir, name, content) => {
  mkdirSync(root + dir, { recursive: true })
  writeFileSync(`${root}${dir}/${name}`, content)
  console.log(`${String(content.length).padStart(7)}  ${dir}/${name}`)
}

/** The Responses API's wire form: `event: <type>` then `data: <payload>` then a blank line. */
const responsesSse = (events) =>
  events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')

/** A `truncated` variant: the body cut in the middle of an event two thirds of the way through. */
const cut = (text) => {
  const at = Math.floor(text.length * 0.66)
  return text.slice(0, text.indexOf('"', at) + 1)
}
/** A `broken` variant: the middle event's JSON loses its closing brace. */
const breakJson = (text) => {
  const events = text.split('\n\n')
  const middle = Math.floor(events.length / 2)
  events[middle] = events[middle].replace(/\}$/, '')
  return events.join('\n\n')
}

// ----- OpenAI Responses (platform.openai.com/docs/api-reference/responses-streaming) -----

function responses({
  id,
  model,
  items,
  status = 'completed',
  usage,
  terminal = 'response.completed',
  extra = [],
}) {
  let seq = 0
  const out = []
  const ev = (e) => out.push({ ...e, sequence_number: seq++ })
  const base = { id, object: 'response', created_at: 1767225600, model, output: [] }
  ev({ type: 'response.created', response: { ...base, status: 'in_progress' } })
  ev({ type: 'response.in_progress', response: { ...base, status: 'in_progress' } })
  const done = []
  items.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      const added = { id: item.id, type: 'reasoning', summary: [] }
      ev({ type: 'response.output_item.added', output_index, item: added })
      item.summary.forEach((text, summary_index) => {
        const part = { type: 'summary_text', text: '' }
        ev({
          type: 'response.reasoning_summary_part.added',
          item_id: item.id,
          output_index,
          summary_index,
          part,
        })
        for (const delta of pieces(text))
          ev({
            type: 'response.reasoning_summary_text.delta',
            item_id: item.id,
            output_index,
            summary_index,
            delta,
          })
        ev({
          type: 'response.reasoning_summary_text.done',
          item_id: item.id,
          output_index,
          summary_index,
          text,
        })
        ev({
          type: 'response.reasoning_summary_part.done',
          item_id: item.id,
          output_index,
          summary_index,
          part: { type: 'summary_text', text },
        })
      })
      const whole = {
        ...added,
        summary: item.summary.map((text) => ({ type: 'summary_text', text })),
        ...(item.encrypted ? { encrypted_content: item.encrypted } : {}),
      }
      ev({ type: 'response.output_item.done', output_index, item: whole })
      done.push(whole)
    } else if (item.type === 'message') {
      const added = { id: item.id, type: 'message', status: 'in_progress', content: [], role: 'assistant' }
      ev({ type: 'response.output_item.added', output_index, item: added })
      const content = item.parts.map((part, content_index) => {
        const kind = part.refusal === undefined ? 'output_text' : 'refusal'
        const text = part.text ?? part.refusal
        const empty =
          kind === 'output_text' ? { type: kind, annotations: [], text: '' } : { type: kind, refusal: '' }
        ev({
          type: 'response.content_part.added',
          item_id: item.id,
          output_index,
          content_index,
          part: empty,
        })
        const deltaType = kind === 'output_text' ? 'response.output_text.delta' : 'response.refusal.delta'
        for (const delta of pieces(text))
          ev({ type: deltaType, item_id: item.id, output_index, content_index, delta, logprobs: [] })
        const whole = kind === 'output_text' ? { ...empty, text } : { ...empty, refusal: text }
        ev({ type: 'response.content_part.done', item_id: item.id, output_index, content_index, part: whole })
        return whole
      })
      const whole = { ...added, status: 'completed', content }
      ev({ type: 'response.output_item.done', output_index, item: whole })
      done.push(whole)
    } else if (item.type === 'function_call') {
      const added = {
        id: item.id,
        type: 'function_call',
        status: 'in_progress',
        arguments: '',
        call_id: item.call_id,
        name: item.name,
      }
      ev({ type: 'response.output_item.added', output_index, item: added })
      for (const delta of pieces(item.arguments, 7))
        ev({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta })
      ev({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index,
        arguments: item.arguments,
      })
      const whole = { ...added, status: 'completed', arguments: item.arguments }
      ev({ type: 'response.output_item.done', output_index, item: whole })
      done.push(whole)
    } else if (item.type === 'web_search_call') {
      const added = { id: item.id, type: 'web_search_call', status: 'in_progress' }
      ev({ type: 'response.output_item.added', output_index, item: added })
      ev({ type: 'response.web_search_call.in_progress', item_id: item.id, output_index })
      ev({ type: 'response.web_search_call.searching', item_id: item.id, output_index })
      ev({ type: 'response.web_search_call.completed', item_id: item.id, output_index })
      const whole = { ...added, status: 'completed', action: { type: 'search', query: item.query } }
      ev({ type: 'response.output_item.done', output_index, item: whole })
      done.push(whole)
    }
  })
  for (const e of extra) ev(e)
  if (terminal !== null) ev({ type: terminal, response: { ...base, status, output: done, usage } })
  return out
}

/** Text in the uneven pieces a model streams: 1–9 characters, never splitting a surrogate pair. */
function pieces(text, size = 0) {
  const chars = [...text]
  const out = []
  for (let i = 0, n = 0; i < chars.length; n++) {
    const step = size || 1 + ((n * 7 + 3) % 9)
    out.push(chars.slice(i, i + step).join(''))
    i += step
  }
  return out
}

const usage = (input, output, cached = 0, reasoning = 0) => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: cached },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: input + output,
})

const weatherTurn = responses({
  id: 'resp_synthetic_weather',
  model: 'gpt-5.2',
  items: [
    {
      type: 'reasoning',
      id: 'rs_01',
      summary: [
        '**Checking the forecast**\n\nThe user wants Paris weather; I will call get_weather.',
        'Units: Celsius.',
      ],
      encrypted: 'gAAAAABpSynthetic==',
    },
    { type: 'message', id: 'msg_01', parts: [{ text: 'Let me look that up — one moment. 🌦️' }] },
    {
      type: 'function_call',
      id: 'fc_01',
      call_id: 'call_weather_1',
      name: 'get_weather',
      arguments: '{"city":"Paris","units":"celsius","days":[1,2,3]}',
    },
  ],
  usage: usage(1840, 212, 1024, 96),
})
write('responses', 'synthetic-reasoning-text-tool.sse', responsesSse(weatherTurn))
write('responses', 'synthetic-reasoning-text-tool-truncated.sse', cut(responsesSse(weatherTurn)))
write('responses', 'synthetic-reasoning-text-tool-broken.sse', breakJson(responsesSse(weatherTurn)))

const refusal = responses({
  id: 'resp_synthetic_refusal',
  model: 'gpt-4.1',
  items: [
    {
      type: 'message',
      id: 'msg_r',
      parts: [{ text: 'Here is part one. ' }, { refusal: "I can't help with the rest." }],
    },
  ],
  usage: usage(40, 17),
})
write('responses', 'synthetic-refusal-two-parts.sse', responsesSse(refusal))

const incomplete = responses({
  id: 'resp_synthetic_incomplete',
  model: 'gpt-5-mini',
  items: [{ type: 'message', id: 'msg_i', parts: [{ text: 'The first three steps are: mix, knead, and' }] }],
  status: 'incomplete',
  terminal: 'response.incomplete',
  usage: usage(25, 16),
})
write('responses', 'synthetic-incomplete-max-output-tokens.sse', responsesSse(incomplete))

const search = responses({
  id: 'resp_synthetic_search',
  model: 'gpt-5.2',
  items: [
    { type: 'web_search_call', id: 'ws_01', query: 'chunkscope release notes' },
    { type: 'message', id: 'msg_s', parts: [{ text: 'The latest release adds OpenAI Responses support.' }] },
  ],
  usage: usage(5120, 60, 4096),
})
write('responses', 'synthetic-web-search.sse', responsesSse(search))

// A capture that lost events: sequence_number jumps from 6 to 9 (a gap) and one event repeats.
const gapped = responses({
  id: 'resp_synthetic_gap',
  model: 'gpt-4.1',
  items: [{ type: 'message', id: 'msg_g', parts: [{ text: 'Sequence numbers should count up by one.' }] }],
  usage: usage(12, 9),
})
write(
  'responses',
  'synthetic-sequence-gap.sse',
  responsesSse([...gapped.slice(0, 7), ...gapped.slice(9, 12), gapped[11], ...gapped.slice(12)]),
)

const failed = responses({
  id: 'resp_synthetic_failed',
  model: 'gpt-4.1',
  items: [{ type: 'message', id: 'msg_f', parts: [{ text: 'Partial answer before the serv' }] }],
  terminal: null,
  extra: [
    {
      type: 'response.failed',
      response: {
        id: 'resp_synthetic_failed',
        object: 'response',
        status: 'failed',
        error: { code: 'server_error', message: 'The server had an error processing your request (500).' },
        output: [],
      },
    },
  ],
})
write('responses', 'synthetic-response-failed-500.sse', responsesSse(failed))

const errored = responses({
  id: 'resp_synthetic_error',
  model: 'gpt-4.1',
  items: [],
  terminal: null,
  extra: [
    {
      type: 'error',
      code: 'context_length_exceeded',
      message: 'Your input exceeds the context window of this model.',
      param: 'input',
    },
  ],
})
write('responses', 'synthetic-error-context-window.sse', responsesSse(errored))

// CRLF line ends, keep-alive comments, no blank line after the last event (the SDK never dispatches it).
const plain = responses({
  id: 'resp_synthetic_crlf',
  model: 'gpt-4.1-nano',
  items: [{ type: 'message', id: 'msg_c', parts: [{ text: 'Short and sweet.' }] }],
  usage: usage(8, 4),
})
write(
  'responses',
  'synthetic-crlf-keepalive.sse',
  ': keep-alive\r\n\r\n' + responsesSse(plain).replaceAll('\n', '\r\n'),
)
write('responses', 'synthetic-no-final-blank-line.sse', responsesSse(plain).replace(/\n\n$/, '\n'))
write(
  'responses',
  'synthetic-done-marker.sse',
  responsesSse(plain) + 'data: [DONE]\n\n' + responsesSse(plain.slice(-1)),
)
write(
  'responses',
  'synthetic-http-429.http',
  'HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\r\n' +
    JSON.stringify({
      error: {
        message: 'Rate limit reached for gpt-4.1 on tokens per min (TPM).',
        type: 'tokens',
        param: null,
        code: 'rate_limit_exceeded',
      },
    }),
)

// ----- Gemini streamGenerateContent?alt=sse (ai.google.dev/api/generate-content#method:-models.streamgeneratecontent) -----

/** Gemini's wire form: `data: <GenerateContentResponse>` and a CRLF blank line, as the API sends it. */
const geminiSse = (chunks) => chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')
const candidate = (parts, finishReason) => ({
  content: { parts, role: 'model' },
  ...(finishReason ? { finishReason } : {}),
  index: 0,
})
const geminiUsage = (prompt, candidates, thoughts = 0, cached = 0) => ({
  promptTokenCount: prompt,
  candidatesTokenCount: candidates,
  ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  ...(cached ? { cachedContentTokenCount: cached } : {}),
  totalTokenCount: prompt + candidates + thoughts,
})
const gemini = (model, id, steps) =>
  steps.map(([parts, finish, usage]) => ({
    candidates: [candidate(parts, finish)],
    ...(usage ? { usageMetadata: usage } : {}),
    modelVersion: model,
    responseId: id,
  }))

const geminiTool = gemini('gemini-2.5-flash', 'synthetic-gemini-tool', [
  [[{ text: '**Planning** the lookup: I need the weather tool.', thought: true }]],
  [[{ text: ' Calling it now.', thought: true }]],
  [[{ text: 'Checking Paris ' }]],
  [[{ text: 'and Lyon.' }]],
  [
    [
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris', days: [1, 2] } },
        thoughtSignature: 'c2lnbmF0dXJlMQ==',
      },
      { functionCall: { id: 'call_lyon', name: 'get_weather', args: { city: 'Lyon' } } },
    ],
    'STOP',
    geminiUsage(812, 41, 120, 512),
  ],
])
write('gemini', 'synthetic-thinking-text-tools.sse', geminiSse(geminiTool))
write('gemini', 'synthetic-thinking-text-tools-truncated.sse', cut(geminiSse(geminiTool)))
write(
  'gemini',
  'synthetic-thinking-text-tools-broken.sse',
  breakJson(geminiSse(geminiTool).replaceAll('\r\n', '\n')),
)

const geminiLength = gemini('gemini-2.0-flash', 'synthetic-gemini-length', [
  [[{ text: 'Once upon a time, ' }]],
  [[{ text: 'there was a very long' }], 'MAX_TOKENS', geminiUsage(6, 8)],
])
write('gemini', 'synthetic-max-tokens.sse', geminiSse(geminiLength))

const geminiSafety = gemini('gemini-2.0-flash', 'synthetic-gemini-safety', [
  [[{ text: 'I can start with' }]],
  [[], 'SAFETY', geminiUsage(14, 3)],
])
write('gemini', 'synthetic-safety.sse', geminiSse(geminiSafety))
write(
  'gemini',
  'synthetic-empty-stop.sse',
  geminiSse(gemini('gemini-2.5-pro', 'synthetic-gemini-empty', [[[], 'STOP', geminiUsage(3, 0)]])),
)
// A second candidate (pi-ai reads the first only) and an inline image part it keeps nothing of.
write(
  'gemini',
  'synthetic-two-candidates-inline-data.sse',
  geminiSse([
    {
      candidates: [
        candidate(
          [{ text: 'First.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
          'STOP',
        ),
        { ...candidate([{ text: 'Second.' }], 'STOP'), index: 1 },
      ],
      usageMetadata: geminiUsage(5, 4),
      modelVersion: 'gemini-2.5-flash-image',
    },
  ]),
)

// ----- Recorded bodies from the Vercel AI SDK (SOURCES.md) -----

/** The Responses recordings converted (the payload lines unchanged, each given its `event:` name). */
const RESPONSES_RECORDINGS = [
  'openai-custom-tool.1',
  'openai-error.1',
  'openai-phase.1',
  'openai-local-shell-tool.1',
  'openai-apply-patch-tool.1',
  'github-copilot-id-rotation.1',
  'openai-mcp-tool-approval.1',
  'openai-image-generation-tool.1',
  'openai-shell-container.1',
  'openai-file-search-tool.2',
  'openai-reasoning-encrypted-content.1',
  'openai-client-tool-search.2',
  'programmatic-tool-calling.2',
  'parallel-tool-call-wrapper.1',
]

/** The Gemini recordings converted (each payload line as one `data:` event with Gemini's CRLF blank line). */
const GEMINI_RECORDINGS = [
  'google/src/__fixtures__/google-text.chunks.txt',
  'google/src/__fixtures__/google-reasoning.chunks.txt',
  'google/src/__fixtures__/google-reasoning-gemini3.chunks.txt',
  'google/src/__fixtures__/google-tool-call.chunks.txt',
  'google/src/__fixtures__/google-tool-call-gemini3.chunks.txt',
  'google/src/__fixtures__/google-stream-no-args-tool-call.chunks.txt',
  'google/src/__fixtures__/google-stream-tool-call-arguments.chunks.txt',
]

/** Recordings that also get a damaged variant of each kind. */
const DAMAGED = new Set(['openai-phase.1', 'openai-reasoning-encrypted-content.1'])

/** `event: <type>` for a payload line that parses and has one; nothing for one that does not (kept as recorded). */
function eventLine(line) {
  try {
    const type = JSON.parse(line).type
    return typeof type === 'string' ? `event: ${type}\n` : ''
  } catch {
    return ''
  }
}

const aiSdk = process.argv.indexOf('--ai-sdk')
if (aiSdk !== -1) {
  const gitDir = process.argv[aiSdk + 1]
  const show = (path) =>
    execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${path}`], { encoding: 'utf8' })
  const lines = (text) => text.split('\n').filter((line) => line.trim() !== '')
  const responsesDir = 'packages/openai/src/responses/__fixtures__/'
  for (const name of RESPONSES_RECORDINGS) {
    const body = lines(show(`${responsesDir}${name}.chunks.txt`))
      .map((line) => `${eventLine(line)}data: ${line}\n\n`)
      .join('')
    write('responses', `vercel-${name}.sse`, body)
    if (DAMAGED.has(name)) {
      write('responses', `vercel-${name}-truncated.sse`, cut(body))
      write('responses', `vercel-${name}-broken.sse`, breakJson(body))
    }
  }
  for (const path of GEMINI_RECORDINGS) {
    const name = path.split('/').at(-1).replace('.chunks.txt', '')
    const body = lines(show(`packages/${path}`))
      .map((line) => `data: ${line}\r\n\r\n`)
      .join('')
    write('gemini', `vercel-${name}.sse`, body)
  }
}
