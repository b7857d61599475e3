import { BlockAssembler } from '../../core/BlockAssembler'
import { readAssembler } from '../../core/analyzeStream'
import type { AnyChunk, ContentBlock, FinishReason, ReplayEnvelope, TokenUsage } from '../../core/protocol'

/** The assembled message of a stream, as exported: what the harness would store, plus the read-side outcome. */
export type ExportedMessage = {
  readonly role: 'assistant'
  /** `blocks()`; null when assembling throws (an open block of an unknown type). */
  readonly content: ContentBlock[] | null
  /** The harness's error when `content` is null: a push that threw (`errorPos`), else the read itself. */
  readonly error?: string
  /** Position of the chunk whose push threw (the harness reads no chunk after it). */
  readonly errorPos?: number
  /** What a cancel would keep (`interruptedBlocks()`), present when the stream has no finish; null when it throws. */
  readonly interruptedContent?: ContentBlock[] | null
  readonly usage?: TokenUsage
  readonly finish: FinishReason
  readonly hasFinish: boolean
  readonly replayState?: ReplayEnvelope
}

/** Replays the chunks through a fresh assembler and reads everything it yields. */
export function assembleMessage(chunks: Iterable<AnyChunk>): ExportedMessage {
  const assembler = new BlockAssembler()
  for (const chunk of chunks) assembler.push(chunk)
  const read = readAssembler(assembler)
  return {
    role: 'assistant',
    content: read.blocks,
    ...(read.error !== null ? { error: read.error } : {}),
    ...(read.errorPos !== null ? { errorPos: read.errorPos } : {}),
    ...(!read.hasFinish ? { interruptedContent: read.interruptedBlocks } : {}),
    ...(read.usage !== null ? { usage: read.usage } : {}),
    finish: read.finish,
    hasFinish: read.hasFinish,
    ...(read.replayState !== null ? { replayState: read.replayState } : {}),
  }
}

/**
 * The assembled message as pretty JSON (two-space indent, trailing newline).
 *
 * @example
 * toMessageJson(stream.chunks.map((s) => s.chunk)) // '{\n  "role": "assistant",\n  "content": [ … ] …'
 */
export function toMessageJson(chunks: Iterable<AnyChunk>): string {
  return JSON.stringify(assembleMessage(chunks), null, 2) + '\n'
}
