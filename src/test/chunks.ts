import { BlockAssembler } from '../core/BlockAssembler'
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
import { block, chunk } from '../examples/chunks'

/**
 * Chunk builders with the notation of docs/protocol.md: `bs(0,'text')` = block-start, `td(0,'hi')` = text-delta,
 * `rd`, `tcd`, `be(0, text('hi'))`, `usage(10, 5)`, `finish('stop')`. Shorthands over the builders the examples
 * ship with (src/examples/chunks.ts): one definition of each chunk's shape.
 */
export const bs = (index: number, blockType: string): StreamChunk => chunk.start(index, blockType)
export const td = (index: number, value: string): StreamChunk => chunk.text(index, value)
export const rd = (index: number, value: string): StreamChunk => chunk.reasoning(index, value)
export const tcd = (
  index: number,
  id: string,
  name: string | undefined,
  argumentsDelta: string,
): StreamChunk => chunk.toolCall(index, id, argumentsDelta, name)
export const be = (index: number, ended: ContentBlock): StreamChunk => chunk.end(index, ended)
export const usage = (
  inputTokens: number,
  outputTokens: number,
  extra: Partial<TokenUsage> = {},
): StreamChunk => chunk.usage({ inputTokens, outputTokens, ...extra })
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
  return chunk.finish(reason, replayState)
}

/** A failed attempt's last chunk: an `error` finish with this code (the message says it was simulated). */
export const finishError = (code: string, message = `simulated ${code}`): StreamChunk =>
  finish('error', { message, code })

export const text = (value: string): ContentBlock => block.text(value)
export const reasoning = (value: string): ContentBlock => block.reasoning(value)
export const toolCall = (id: string, name: string, args: string): ContentBlock =>
  block.toolCall(id, name, args)

/** Wraps bare chunks with seq = position and no time, as a bare chunk file would. */
export function sourced(chunks: readonly AnyChunk[]): SourcedChunk[] {
  return chunks.map((chunk, seq) => ({ seq, time: null, chunk }))
}

/** A fresh BlockAssembler fed every chunk. */
export function assemble(chunks: readonly AnyChunk[]): BlockAssembler {
  const assembler = new BlockAssembler()
  for (const chunk of chunks) assembler.push(chunk)
  return assembler
}
