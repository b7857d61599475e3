// Builds the Bedrock ConverseStream fixtures in src/formats/fixtures/bedrock/ with @smithy/eventstream-codec's own
// encoder, from the event shapes the Bedrock API reference documents (ConverseStream response syntax). Reproducible:
// `node scripts/make-bedrock-fixtures.mjs` rewrites the same bytes.
import { writeFileSync } from 'node:fs'
import { EventStreamCodec } from '@smithy/eventstream-codec'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'

const codec = new EventStreamCodec(toUtf8, fromUtf8)
const out = new URL('../src/formats/fixtures/bedrock/', import.meta.url)
const header = (value) => ({ type: 'string', value })

const event = (type, payload) =>
  codec.encode({
    headers: {
      ':event-type': header(type),
      ':content-type': header('application/json'),
      ':message-type': header('event'),
    },
    body: fromUtf8(JSON.stringify(payload)),
  })
const exception = (type, message) =>
  codec.encode({
    headers: {
      ':exception-type': header(type),
      ':content-type': header('application/json'),
      ':message-type': header('exception'),
    },
    body: fromUtf8(JSON.stringify({ message })),
  })
const join = (frames) => {
  const bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0))
  let at = 0
  for (const frame of frames) bytes.set(frame, (at += frame.length) - frame.length)
  return bytes
}

export const TOOL_INPUT = { city: 'Paris', units: 'celsius', days: [1, 2] }
const input = JSON.stringify(TOOL_INPUT)

const reasoningToolCall = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockDelta', {
    contentBlockIndex: 0,
    delta: { reasoningContent: { text: 'The user wants ' } },
  }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'the weather.' } } }),
  event('contentBlockDelta', {
    contentBlockIndex: 0,
    delta: { reasoningContent: { signature: 'c2lnbmF0dXJl' } },
  }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Let me check ' } }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'the forecast.' } }),
  event('contentBlockStop', { contentBlockIndex: 1 }),
  event('contentBlockStart', {
    contentBlockIndex: 2,
    start: { toolUse: { toolUseId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather' } },
  }),
  event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: input.slice(0, 9) } } }),
  event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: input.slice(9, 30) } } }),
  event('contentBlockDelta', { contentBlockIndex: 2, delta: { toolUse: { input: input.slice(30) } } }),
  event('contentBlockStop', { contentBlockIndex: 2 }),
  event('messageStop', { stopReason: 'tool_use' }),
  event('metadata', {
    usage: {
      inputTokens: 412,
      outputTokens: 57,
      totalTokens: 469,
      cacheReadInputTokens: 256,
      cacheWriteInputTokens: 64,
    },
    metrics: { latencyMs: 1432 },
  }),
]

const throttled = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Partial ' } }),
  exception('throttlingException', 'Too many requests, please wait before trying again.'),
]

// Reasoning with no signature, text, cut by the token limit; usage without cache counts.
const maxTokens = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Counting.' } } }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'One, two, ' } }),
  event('contentBlockStop', { contentBlockIndex: 1 }),
  event('messageStop', { stopReason: 'max_tokens' }),
  event('metadata', {
    usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 },
    metrics: { latencyMs: 90 },
  }),
]
// A guardrail stop (no mapping: an error named by the reason), and an exception sent as an event frame.
const guardrail = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'I cannot' } }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('messageStop', { stopReason: 'guardrail_intervened' }),
]
const validation = [
  event('messageStart', { role: 'assistant' }),
  event('validationException', { message: 'The model returned the following errors: 400 invalid request' }),
]
// Events with no contentBlockIndex after a block's stop: pi-ai deletes a stopped block's index, so they find it
// again (a straggler delta, a second end; a tool call's input starts afresh).
const stopWithoutIndex = [
  event('messageStart', { role: 'assistant' }),
  event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'A' } }),
  event('contentBlockStop', { contentBlockIndex: 0 }),
  event('contentBlockDelta', { delta: { text: 'B' } }),
  event('contentBlockStart', {
    contentBlockIndex: 1,
    start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } },
  }),
  event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":"Paris"}' } } }),
  event('contentBlockStop', { contentBlockIndex: 1 }),
  event('contentBlockStop', {}),
  event('messageStop', { stopReason: 'tool_use' }),
  event('metadata', {
    usage: { inputTokens: 9, outputTokens: 5, totalTokens: 14 },
    metrics: { latencyMs: 1 },
  }),
]
writeFileSync(new URL('stop-without-index.eventstream', out), join(stopWithoutIndex))
writeFileSync(new URL('text-max-tokens.eventstream', out), join(maxTokens))
writeFileSync(new URL('guardrail-stop.eventstream', out), join(guardrail))
writeFileSync(new URL('validation-event.eventstream', out), join(validation))

const whole = join(reasoningToolCall)
// The fifth frame's payload byte flipped: its message CRC no longer matches.
const badCrc = whole.slice()
const fifth = reasoningToolCall.slice(0, 4).reduce((n, f) => n + f.length, 0)
badCrc[fifth + reasoningToolCall[4].length - 10] ^= 0x01
// Cut inside the last frame, as a capture stopped mid-body.
const torn = whole.slice(0, whole.length - 20)

writeFileSync(new URL('reasoning-tool-call.eventstream', out), whole)
writeFileSync(new URL('throttling-exception.eventstream', out), join(throttled))
writeFileSync(new URL('bad-crc.eventstream', out), badCrc)
writeFileSync(new URL('torn.eventstream', out), torn)
console.log(`bad-crc: frame 5 at byte ${fifth}; torn: ${torn.length} of ${whole.length} bytes`)
