import { BlockAssembler } from './BlockAssembler'
import { StreamChecker, type Finding } from './checks'
import { ignoredKindOf, type Effect, type IgnoredKind } from './effects'
import type { ContentBlock, FinishReason, ReplayEnvelope, SourcedChunk, TokenUsage } from './protocol'

export type IgnoredChunk = {
  readonly seq: number
  readonly pos: number
  readonly kind: IgnoredKind
  readonly index: number
}

/** What a whole stream assembles to: the `streams[]` entry of `chunkscope inspect --json`, minus identity. */
export type StreamResult = {
  /** `blocks()`, or null when assembly throws. */
  readonly blocks: ContentBlock[] | null
  readonly error: string | null
  readonly interruptedBlocks: ContentBlock[]
  readonly finish: FinishReason
  readonly hasFinish: boolean
  readonly usage: TokenUsage | null
  readonly replayState: ReplayEnvelope | null
  readonly ignored: readonly IgnoredChunk[]
  readonly findings: readonly Finding[]
}

/**
 * One pass of assembler and checker over a stream; `onPush` sees each step (the replay engine takes its
 * checkpoints and effect codes there).
 */
export function runPass(
  chunks: readonly SourcedChunk[],
  onPush?: (pos: number, effect: Effect, assembler: BlockAssembler) => void,
): { assembler: BlockAssembler; checker: StreamChecker; ignored: IgnoredChunk[] } {
  const assembler = new BlockAssembler()
  const checker = new StreamChecker()
  const ignored: IgnoredChunk[] = []
  for (let pos = 0; pos < chunks.length; pos++) {
    const sourced = chunks[pos]!
    const effect = assembler.push(sourced.chunk)
    checker.observe(sourced.chunk, effect, assembler, pos, sourced.seq)
    const kind = ignoredKindOf(effect.kind)
    if (kind !== null && 'index' in effect) ignored.push({ seq: sourced.seq, pos, kind, index: effect.index })
    onPush?.(pos, effect, assembler)
  }
  checker.end(assembler)
  return { assembler, checker, ignored }
}

/** What the assembler's read side yields at one moment. */
export type AssemblyRead = Pick<
  StreamResult,
  'blocks' | 'error' | 'interruptedBlocks' | 'finish' | 'hasFinish' | 'usage' | 'replayState'
>

/** Reads everything the assembler yields, turning the read-side throw into `error` (PROTOCOL.md §3). */
export function readAssembler(assembler: BlockAssembler): AssemblyRead {
  let blocks: ContentBlock[] | null = null
  let replayState: ReplayEnvelope | null = null
  let error: string | null = null
  try {
    const assembled = assembler.assembled()
    blocks = assembled.blocks
    replayState = assembled.replayState ?? null
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown)
  }
  return {
    blocks,
    error,
    interruptedBlocks: assembler.interruptedBlocks(),
    finish: assembler.finish,
    hasFinish: assembler.hasFinish,
    usage: assembler.usage ?? null,
    replayState,
  }
}

/**
 * Assembles a whole stream and checks it.
 *
 * @example
 * analyzeStream([{ seq: 0, time: null, chunk: { type: 'text-delta', index: 0, text: 'hi' } }]).blocks
 * // [{ type: 'text', text: 'hi' }]
 */
export function analyzeStream(chunks: readonly SourcedChunk[]): StreamResult {
  const { assembler, checker, ignored } = runPass(chunks)
  return { ...readAssembler(assembler), ignored, findings: checker.findings }
}
