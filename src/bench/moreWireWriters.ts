import { EventStreamCodec } from '@smithy/eventstream-codec'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import type { SourcedChunk, StreamChunk } from '../core/protocol'

/**
 * A generated stream written as legacy OpenAI Completions SSE, Gemini Interactions SSE and a Bedrock event stream
 * inside a HAR (base64), for the load-throughput rows of formats.bench.ts beside JSON.parse of the same payloads
 * (docs/protocol.md §9). Completions has text only, so reasoning and tool-call deltas travel as its text.
 */
type Writer = {
  readonly name: string
  readonly write: (chunks: readonly SourcedChunk[]) => string
  readonly floor: (text: string) => void
}

function parsePayloads(text: string): void {
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    if (text.startsWith('data: {', start)) JSON.parse(text.slice(start + 6, end))
    start = end + 1
  }
}

function toCompletions(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const chunk = (text: string, finish: string | null, extra = {}) =>
    out.push(
      `data: ${JSON.stringify({
        id: 'cmpl-bench',
        object: 'text_completion',
        created: 1717236000,
        choices: [{ text, index: 0, logprobs: null, finish_reason: finish }],
        model: 'gpt-3.5-turbo-instruct',
        ...extra,
      })}\n\n`,
    )
  for (const sourced of chunks) {
    const c = sourced.chunk as StreamChunk
    if (c.type === 'text-delta' || c.type === 'reasoning-delta') chunk(c.text, null)
    else if (c.type === 'tool-call-delta') chunk(String(c.argumentsDelta), null)
  }
  chunk('', 'stop', { usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } })
  out.push('data: [DONE]\n\n')
  return out.join('')
}

function toInteractions(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const event = (data: Record<string, unknown>) =>
    out.push(`event: ${String(data['event_type'])}\ndata: ${JSON.stringify(data)}\n\n`)
  event({ interaction: { id: 'v1_bench', status: 'in_progress' }, event_type: 'interaction.created' })
  let step = -1
  let kind = ''
  for (const sourced of chunks) {
    const c = sourced.chunk as StreamChunk
    if (c.type === 'block-start') {
      step += 1
      kind = c.blockType
      const shape =
        kind === 'tool-call'
          ? { type: 'function_call', id: `fc_${step}`, name: 'bash', arguments: {} }
          : { type: kind === 'reasoning' ? 'thought' : 'model_output' }
      event({ index: step, step: shape, event_type: 'step.start' })
      if (kind === 'tool-call')
        event({
          index: step,
          delta: { type: 'arguments_delta', arguments: '{"cmd":"' },
          event_type: 'step.delta',
        })
    } else if (c.type === 'text-delta')
      event({ index: step, delta: { type: 'text', text: c.text }, event_type: 'step.delta' })
    else if (c.type === 'reasoning-delta')
      event({
        index: step,
        delta: { type: 'thought_summary', content: { type: 'text', text: c.text } },
        event_type: 'step.delta',
      })
    else if (c.type === 'tool-call-delta') {
      const piece = JSON.stringify(String(c.argumentsDelta)).slice(1, -1)
      event({ index: step, delta: { type: 'arguments_delta', arguments: piece }, event_type: 'step.delta' })
    } else if (c.type === 'block-end') {
      if (kind === 'tool-call')
        event({ index: step, delta: { type: 'arguments_delta', arguments: '"}' }, event_type: 'step.delta' })
      event({ index: step, event_type: 'step.stop' })
    }
  }
  event({
    interaction: {
      id: 'v1_bench',
      status: 'completed',
      usage: {
        total_input_tokens: 10,
        total_output_tokens: 20,
        total_thought_tokens: 0,
        total_cached_tokens: 0,
      },
    },
    event_type: 'interaction.completed',
  })
  return out.join('')
}

const codec = new EventStreamCodec(toUtf8, fromUtf8)
const header = (value: string) => ({ type: 'string' as const, value })

function toBedrockHar(chunks: readonly SourcedChunk[]): string {
  const frames: Uint8Array[] = []
  const event = (type: string, payload: unknown) =>
    frames.push(
      codec.encode({
        headers: {
          ':event-type': header(type),
          ':content-type': header('application/json'),
          ':message-type': header('event'),
        },
        body: fromUtf8(JSON.stringify(payload)),
      }),
    )
  event('messageStart', { role: 'assistant' })
  let block = -1
  let kind = ''
  for (const sourced of chunks) {
    const c = sourced.chunk as StreamChunk
    if (c.type === 'block-start') {
      block += 1
      kind = c.blockType
      if (kind === 'tool-call') {
        event('contentBlockStart', {
          contentBlockIndex: block,
          start: { toolUse: { toolUseId: `tooluse_${block}`, name: 'bash' } },
        })
        event('contentBlockDelta', { contentBlockIndex: block, delta: { toolUse: { input: '{"cmd":"' } } })
      }
    } else if (c.type === 'text-delta')
      event('contentBlockDelta', { contentBlockIndex: block, delta: { text: c.text } })
    else if (c.type === 'reasoning-delta')
      event('contentBlockDelta', { contentBlockIndex: block, delta: { reasoningContent: { text: c.text } } })
    else if (c.type === 'tool-call-delta') {
      const input = JSON.stringify(String(c.argumentsDelta)).slice(1, -1)
      event('contentBlockDelta', { contentBlockIndex: block, delta: { toolUse: { input } } })
    } else if (c.type === 'block-end') {
      if (kind === 'tool-call')
        event('contentBlockDelta', { contentBlockIndex: block, delta: { toolUse: { input: '"}' } } })
      event('contentBlockStop', { contentBlockIndex: block })
    }
  }
  event('messageStop', { stopReason: 'end_turn' })
  event('metadata', { usage: { inputTokens: 10, outputTokens: 20 }, metrics: { latencyMs: 100 } })
  const body = Buffer.concat(frames).toString('base64')
  const entry = {
    request: {
      method: 'POST',
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream',
    },
    response: {
      status: 200,
      content: { mimeType: 'application/vnd.amazon.eventstream', encoding: 'base64', text: body },
    },
  }
  return JSON.stringify({ log: { version: '1.2', entries: [entry] } })
}

export const MORE_WIRE_WRITERS: readonly Writer[] = [
  { name: 'OpenAI Completions SSE (legacy)', write: toCompletions, floor: parsePayloads },
  { name: 'Gemini Interactions SSE', write: toInteractions, floor: parsePayloads },
  // The floor is JSON.parse of the HAR document (the base64 body is one string in it).
  { name: 'Bedrock in HAR (base64)', write: toBedrockHar, floor: (text) => void JSON.parse(text) },
]
