import type {
  BlockEndChunk,
  BlockStartChunk,
  ContentBlock,
  FinishChunk,
  FinishReason,
  ReasoningBlock,
  ReasoningDeltaChunk,
  ReplayEnvelope,
  StreamChunk,
  TextBlock,
  TextDeltaChunk,
  TokenUsage,
  ToolCallBlock,
  ToolCallDeltaChunk,
  UsageChunk,
} from '../core/protocol'

/** Content blocks, as a block-end carries them. */
export const block = {
  text: (text: string): TextBlock => ({ type: 'text', text }),
  reasoning: (text: string): ReasoningBlock => ({ type: 'reasoning', text }),
  toolCall: (id: string, name: string, args: string): ToolCallBlock => ({
    type: 'tool-call',
    id,
    name,
    arguments: args,
  }),
}

/** One StreamChunk each, in the protocol's own field order (docs/protocol.md §1). */
export const chunk = {
  start: (index: number, blockType: string): BlockStartChunk => ({ type: 'block-start', index, blockType }),
  text: (index: number, text: string): TextDeltaChunk => ({ type: 'text-delta', index, text }),
  reasoning: (index: number, text: string): ReasoningDeltaChunk => ({ type: 'reasoning-delta', index, text }),
  toolCall: (index: number, id: string, argumentsDelta: string, name?: string): ToolCallDeltaChunk => ({
    type: 'tool-call-delta',
    index,
    id,
    ...(name !== undefined ? { name } : {}),
    argumentsDelta,
  }),
  end: (index: number, ended: ContentBlock): BlockEndChunk => ({ type: 'block-end', index, block: ended }),
  usage: (usage: TokenUsage): UsageChunk => ({ type: 'usage', usage }),
  finish: (reason: FinishReason, replayState?: ReplayEnvelope): FinishChunk => ({
    type: 'finish',
    reason,
    ...(replayState !== undefined ? { replayState } : {}),
  }),
}

export const STOP: FinishReason = { kind: 'stop' }
export const TOOL_CALLS: FinishReason = { kind: 'tool-calls' }

/** A text block started, streamed in `parts` and closed with exactly what the parts join to. */
export function textBlock(index: number, parts: readonly string[]): StreamChunk[] {
  return [
    chunk.start(index, 'text'),
    ...parts.map((part) => chunk.text(index, part)),
    chunk.end(index, block.text(parts.join(''))),
  ]
}

/** Only the text deltas of a block: no start, no end (a delta-only stream, or a block still open). */
export function textDeltas(index: number, parts: readonly string[]): StreamChunk[] {
  return parts.map((part) => chunk.text(index, part))
}

/** A tool call started, its arguments streamed in `parts` (the name on the first delta only) and closed. */
export function toolCallBlock(
  index: number,
  call: { id: string; name: string },
  parts: readonly string[],
): StreamChunk[] {
  return [
    chunk.start(index, 'tool-call'),
    ...parts.map((part, k) => chunk.toolCall(index, call.id, part, k === 0 ? call.name : undefined)),
    chunk.end(index, block.toolCall(call.id, call.name, parts.join(''))),
  ]
}
