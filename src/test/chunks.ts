import type {
  AnyChunk,
  ContentBlock,
  FinishReason,
  LlmFailure,
  ReplayEnvelope,
  SourcedChunk,
  StreamChunk,
  TokenUsage,
} from '../core/protocol'

/**
 * Chunk builders with the notation of PROTOCOL.md: `bs(0,'text')` = block-start, `td(0,'hi')` = text-delta,
 * `rd`, `tcd`, `be(0, text('hi'))`, `usage(10, 5)`, `finish('stop')`.
 */
export const bs = (index: number, blockType: string): StreamChunk => ({
  type: 'block-start',
  index,
  blockType,
})
export const td = (index: number, text: string): StreamChunk => ({ type: 'text-delta', index, text })
export const rd = (index: number, text: string): StreamChunk => ({ type: 'reasoning-delta', index, text })
export const tcd = (
  index: number,
  id: string,
  name: string | undefined,
  argumentsDelta: string,
): StreamChunk =>
  name === undefined
    ? { type: 'tool-call-delta', index, id, argumentsDelta }
    : { type: 'tool-call-delta', index, id, name, argumentsDelta }
export const be = (index: number, block: ContentBlock): StreamChunk => ({ type: 'block-end', index, block })
export const usage = (
  inputTokens: number,
  outputTokens: number,
  extra: Partial<TokenUsage> = {},
): StreamChunk => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, ...extra },
})
export function finish(kind: 'stop' | 'tool-calls' | 'max-tokens', replayState?: ReplayEnvelope): StreamChunk
export function finish(
  kind: 'error' | 'aborted',
  failure: LlmFailure,
  replayState?: ReplayEnvelope,
): StreamChunk
export function finish(
  kind: FinishReason['kind'],
  a?: LlmFailure | ReplayEnvelope,
  b?: ReplayEnvelope,
): StreamChunk {
  const reason: FinishReason =
    kind === 'error' || kind === 'aborted' ? { kind, failure: a as LlmFailure } : { kind }
  const replayState = kind === 'error' || kind === 'aborted' ? b : (a as ReplayEnvelope | undefined)
  return replayState === undefined ? { type: 'finish', reason } : { type: 'finish', reason, replayState }
}

export const text = (value: string): ContentBlock => ({ type: 'text', text: value })
export const reasoning = (value: string): ContentBlock => ({ type: 'reasoning', text: value })
export const toolCall = (id: string, name: string, args: string): ContentBlock => ({
  type: 'tool-call',
  id,
  name,
  arguments: args,
})

/** Wraps bare chunks with seq = position and no time, as a bare chunk file would. */
export function sourced(chunks: readonly AnyChunk[]): SourcedChunk[] {
  return chunks.map((chunk, seq) => ({ seq, time: null, chunk }))
}
