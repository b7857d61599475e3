import { BlockAssembler } from '../../core/BlockAssembler'
import type { AnyChunk, ContentBlock, FinishReason, TokenUsage } from '../../core/protocol'

/** The assembled message after the last chunk, as the final-message panel shows it. */
export type FinalMessage = {
  readonly blocks: readonly ContentBlock[]
  readonly usage: TokenUsage | undefined
  readonly finish: FinishReason
  /** False when no finish chunk arrived: `finish` then reads as stop, like the harness. */
  readonly hasFinish: boolean
  /** Why `blocks()` threw (an open block of an unknown type), or null. */
  readonly error: string | null
}

/** Pushes every chunk through a fresh BlockAssembler and reads the message back. */
export function buildFinalMessage(chunks: readonly AnyChunk[]): FinalMessage {
  const assembler = new BlockAssembler()
  for (const chunk of chunks) assembler.push(chunk)
  const base = { usage: assembler.usage, finish: assembler.finish, hasFinish: assembler.hasFinish }
  try {
    return { ...base, blocks: assembler.blocks(), error: null }
  } catch (error) {
    return { ...base, blocks: [], error: error instanceof Error ? error.message : String(error) }
  }
}
