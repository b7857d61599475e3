import type { SourcedChunk } from '../core/protocol'

/** A generated stream as the wires the harness reads through pi-ai (docs/protocol.md §9.2, §9.3), for the bench. */

/** OpenAI Responses SSE: one output item per block, its deltas, `response.completed` with usage. */
export function toResponsesSse(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  let seq = 0
  const event = (type: string, data: Record<string, unknown>) =>
    out.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: seq++ })}\n\n`)
  event('response.created', {
    response: { id: 'resp', model: 'gpt-bench', status: 'in_progress', output: [] },
  })
  let index = -1
  let kind = ''
  let text = ''
  for (const { chunk } of chunks) {
    if (chunk.type === 'block-start') {
      index += 1
      text = ''
      kind = String(chunk.blockType)
      const item =
        kind === 'reasoning'
          ? { type: 'reasoning', id: `rs_${index}`, summary: [] }
          : kind === 'text'
            ? { type: 'message', id: `msg_${index}`, content: [] }
            : {
                type: 'function_call',
                id: `fc_${index}`,
                call_id: `call_${index}`,
                name: 'bash',
                arguments: '',
              }
      event('response.output_item.added', { output_index: index, item })
    } else if (chunk.type === 'reasoning-delta') {
      text += chunk.text
      event('response.reasoning_summary_text.delta', {
        output_index: index,
        summary_index: 0,
        delta: chunk.text,
      })
    } else if (chunk.type === 'text-delta') {
      text += chunk.text
      event('response.output_text.delta', { output_index: index, content_index: 0, delta: chunk.text })
    } else if (chunk.type === 'tool-call-delta') {
      text += chunk.argumentsDelta
      event('response.function_call_arguments.delta', { output_index: index, delta: chunk.argumentsDelta })
    } else if (chunk.type === 'block-end') {
      const item =
        kind === 'reasoning'
          ? { type: 'reasoning', id: `rs_${index}`, summary: [{ type: 'summary_text', text }] }
          : kind === 'text'
            ? { type: 'message', id: `msg_${index}`, content: [{ type: 'output_text', text }] }
            : {
                type: 'function_call',
                id: `fc_${index}`,
                call_id: `call_${index}`,
                name: 'bash',
                arguments: text,
              }
      event('response.output_item.done', { output_index: index, item })
    }
  }
  event('response.completed', {
    response: { id: 'resp', status: 'completed', output: [], usage: { input_tokens: 10, output_tokens: 20 } },
  })
  return out.join('')
}

/** Gemini SSE: one chunk per delta (a tool call whole at its end), usage on the last. */
export function toGeminiSse(chunks: readonly SourcedChunk[]): string {
  const out: string[] = []
  const send = (parts: unknown[], extra: Record<string, unknown> = {}) =>
    out.push(
      `data: ${JSON.stringify({ candidates: [{ content: { parts, role: 'model' }, index: 0 }], modelVersion: 'gemini-bench', ...extra })}\r\n\r\n`,
    )
  let args = ''
  for (const { chunk } of chunks) {
    if (chunk.type === 'reasoning-delta') send([{ text: chunk.text, thought: true }])
    else if (chunk.type === 'text-delta') send([{ text: chunk.text }])
    else if (chunk.type === 'tool-call-delta') args += chunk.argumentsDelta
    else if (chunk.type === 'block-end' && args !== '') {
      send([{ functionCall: { id: `call_${out.length}`, name: 'bash', args: { cmd: args } } }])
      args = ''
    }
  }
  send([], { usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20 } })
  return out.join('')
}
