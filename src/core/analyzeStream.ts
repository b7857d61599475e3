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
 * One pass of assembler and checker over a stream, resumable: `advance(n)` processes up to n more chunks, so a
 * caller can spread a long stream over several turns of its event loop. `onPush` sees each step (the replay
 * engine records effect codes and checkpoints there).
 */
export class AssemblyPass {
  readonly assembler = new BlockAssembler()
  readonly checker = new StreamChecker()
  readonly ignored: IgnoredChunk[] = []
  /** Chunks processed so far. */
  pos = 0
  private ended = false

  constructor(
    private readonly chunks: readonly SourcedChunk[],
    private readonly onPush?: (pos: number, effect: Effect, assembler: BlockAssembler) => void,
    /** The stream is still arriving (a live capture): the end-of-stream checks (§5) do not run yet. */
    private readonly streaming = false,
  ) {}

  /** Processes up to `count` more chunks; true once the whole stream is done and the end-of-stream checks ran. */
  advance(count = Infinity): boolean {
    const stop = Math.min(this.chunks.length, this.pos + count)
    for (; this.pos < stop; this.pos++) {
      const pos = this.pos
      const sourced = this.chunks[pos]!
      const effect = this.assembler.push(sourced.chunk)
      this.checker.observe(sourced.chunk, effect, this.assembler, pos, sourced.seq)
      const kind = ignoredKindOf(effect.kind)
      if (kind !== null && 'index' in effect)
        this.ignored.push({ seq: sourced.seq, pos, kind, index: effect.index })
      this.onPush?.(pos, effect, this.assembler)
    }
    if (this.pos < this.chunks.length) return false
    if (!this.ended && !this.streaming) {
      this.checker.end(this.assembler)
      this.ended = true
    }
    return true
  }
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
  const pass = new AssemblyPass(chunks)
  pass.advance()
  return { ...readAssembler(pass.assembler), ignored: pass.ignored, findings: pass.checker.findings }
}
