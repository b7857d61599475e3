import type { StreamChunk } from '../core/protocol'
import { TOOL_CALLS, block, chunk, toolCallBlock } from './chunks'

/**
 * The seed article's stream (seeds/000, 004): a text block streamed in two deltas, then a `bash` tool call whose
 * arguments arrive in one piece, then usage and finish. Every block is started, streamed and closed in order.
 * The article ends in `stop` and notes `tool-calls` as the alternative for requesting a tool; a message with a tool
 * call should say `tool-calls`, so the example does.
 */
export const seedExampleChunks: StreamChunk[] = [
  chunk.start(0, 'text'),
  chunk.text(0, 'runoob'),
  chunk.text(0, ' 教程'),
  chunk.end(0, block.text('runoob 教程')),
  ...toolCallBlock(1, { id: 'call-123', name: 'bash' }, ['{"command":"echo runoob"}']),
  chunk.usage({ inputTokens: 100, outputTokens: 50 }),
  chunk.finish(TOOL_CALLS),
]
