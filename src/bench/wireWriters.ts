import type { SourcedChunk, StreamChunk } from '../core/protocol'

/**
 * A generated stream written as each wire without a harness route (docs/protocol.md §9, "Wires without a harness
 * route"), for the load-throughput rows of formats.bench.ts beside JSON.parse of the same payloads. Tool-call
 * arguments travel as a JSON string value (`{"cmd":"<deltas>"}`) so every body stays valid whatever the deltas are.
 */
type Writer = {
  readonly name: string
  readonly write: (chunks: readonly SourcedChunk[]) => string
  readonly floor: (text: string) => void
}

function parsePayloads(text: string, prefix: string): void {
  let start = 0
  while (start < text.length) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    if (text.startsWith(prefix, start) && text.charCodeAt(start + prefix.length) === 123)
      JSON.parse(text.slice(start + prefix.length, end))
    start = end + 1
  }
}

function toOllama(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const line = (message: Record<string, unknown>, done = false, extra: Record<string, unknown> = {}) =>
    out.push(
      JSON.stringify({
        model: 'qwen3:8b',
        created_at: '2025-06-01T10:00:00.000000Z',
        message: { role: 'assistant', content: '', ...message },
        done,
        ...extra,
      }),
    )
  let args = ''
  for (const sourced of chunks) {
    const chunk = sourced.chunk as StreamChunk
    if (chunk.type === 'reasoning-delta') line({ thinking: chunk.text })
    else if (chunk.type === 'text-delta') line({ content: chunk.text })
    else if (chunk.type === 'tool-call-delta') args += chunk.argumentsDelta
    else if (chunk.type === 'block-end' && chunk.block.type === 'tool-call') {
      line({ tool_calls: [{ function: { name: 'bash', arguments: { cmd: args } } }] })
      args = ''
    }
  }
  line({}, true, { done_reason: 'stop', prompt_eval_count: 10, eval_count: 20 })
  return out.join('\n') + '\n'
}

function toCohere(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const event = (type: string, data: Record<string, unknown> = {}) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  const message = (m: unknown) => ({ delta: { message: m } })
  event('message-start', { id: 'm', ...message({ role: 'assistant' }) })
  let content = -1
  let tool = -1
  let kind = ''
  for (const sourced of chunks) {
    const chunk = sourced.chunk as StreamChunk
    if (chunk.type === 'block-start') {
      kind = chunk.blockType
      if (kind === 'tool-call') {
        tool += 1
        const call = {
          id: `call_${tool}`,
          type: 'function',
          function: { name: 'bash', arguments: '{"cmd":"' },
        }
        event('tool-call-start', { index: tool, ...message({ tool_calls: call }) })
      } else {
        content += 1
        const type = kind === 'reasoning' ? 'thinking' : 'text'
        event('content-start', { index: content, ...message({ content: { type, [type]: '' } }) })
      }
    } else if (chunk.type === 'reasoning-delta')
      event('content-delta', { index: content, ...message({ content: { thinking: chunk.text } }) })
    else if (chunk.type === 'text-delta')
      event('content-delta', { index: content, ...message({ content: { text: chunk.text } }) })
    else if (chunk.type === 'tool-call-delta') {
      const piece = JSON.stringify(chunk.argumentsDelta).slice(1, -1)
      event('tool-call-delta', {
        index: tool,
        ...message({ tool_calls: { function: { arguments: piece } } }),
      })
    } else if (chunk.type === 'block-end') {
      if (kind === 'tool-call') {
        event('tool-call-delta', {
          index: tool,
          ...message({ tool_calls: { function: { arguments: '"}' } } }),
        })
        event('tool-call-end', { index: tool })
      } else event('content-end', { index: content })
    }
  }
  event('message-end', {
    delta: { finish_reason: 'COMPLETE', usage: { tokens: { input_tokens: 10, output_tokens: 20 } } },
  })
  return out.join('')
}

function toAiSdkUi(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const part = (data: Record<string, unknown>) => out.push(`data: ${JSON.stringify(data)}\n\n`)
  part({ type: 'start' })
  let kind = ''
  let args = ''
  let n = 0
  for (const sourced of chunks) {
    const chunk = sourced.chunk as StreamChunk
    if (chunk.type === 'block-start') {
      kind = chunk.blockType
      n += 1
      if (kind === 'tool-call') part({ type: 'tool-input-start', toolCallId: `call_${n}`, toolName: 'bash' })
      else part({ type: `${kind}-start`, id: `p${n}` })
    } else if (chunk.type === 'reasoning-delta' || chunk.type === 'text-delta')
      part({ type: `${kind}-delta`, id: `p${n}`, delta: chunk.text })
    else if (chunk.type === 'tool-call-delta') {
      args += chunk.argumentsDelta
      part({ type: 'tool-input-delta', toolCallId: `call_${n}`, inputTextDelta: chunk.argumentsDelta })
    } else if (chunk.type === 'block-end') {
      if (kind === 'tool-call') {
        part({
          type: 'tool-input-available',
          toolCallId: `call_${n}`,
          toolName: 'bash',
          input: { cmd: args },
        })
        args = ''
      } else part({ type: `${kind}-end`, id: `p${n}` })
    }
  }
  part({ type: 'finish', finishReason: 'stop' })
  out.push('data: [DONE]\n\n')
  return out.join('')
}

export const WIRE_WRITERS: readonly Writer[] = [
  { name: 'Ollama NDJSON', write: toOllama, floor: (text) => parsePayloads(text, '') },
  { name: 'Cohere v2 SSE', write: toCohere, floor: (text) => parsePayloads(text, 'data: ') },
  { name: 'AI SDK UI SSE', write: toAiSdkUi, floor: (text) => parsePayloads(text, 'data: ') },
]
