import type { StreamChunk } from '../core/protocol'

/**
 * The seed article's stream: a short text block, then a `bash` tool call whose arguments arrive in two deltas,
 * then usage and a tool-calls finish. Every block is started, streamed and closed in order (a clean stream).
 */
export const seedExampleChunks: StreamChunk[] = [
  { type: 'block-start', index: 0, blockType: 'text' },
  { type: 'text-delta', index: 0, text: "I'll check the directory " },
  { type: 'text-delta', index: 0, text: 'for you.' },
  { type: 'block-end', index: 0, block: { type: 'text', text: "I'll check the directory for you." } },
  { type: 'block-start', index: 1, blockType: 'tool-call' },
  { type: 'tool-call-delta', index: 1, id: 'call_01', name: 'bash', argumentsDelta: '{"command":' },
  { type: 'tool-call-delta', index: 1, id: 'call_01', argumentsDelta: '"ls -la"}' },
  {
    type: 'block-end',
    index: 1,
    block: { type: 'tool-call', id: 'call_01', name: 'bash', arguments: '{"command":"ls -la"}' },
  },
  { type: 'usage', usage: { inputTokens: 120, outputTokens: 18 } },
  { type: 'finish', reason: { kind: 'tool-calls' } },
]
