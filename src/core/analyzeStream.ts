import { BlockAssembler, type RunOfDeltas } from './BlockAssembler'
import { harnessThrowOf } from './harnessThrows'
import { StreamChecker, type Finding } from './checks'
import { chunkListOf, type ChunkList } from './chunkList'
import { ignoredKindOf, type Effect, type IgnoredKind } from './effects'
import type {
  AnyChunk,
  ContentBlock,
  FinishReason,
  ReplayEnvelope,
  SourcedChunk,
  TokenUsage,
} from './protocol'

export type IgnoredChunk = {
  readonly seq: number
  readonly pos: number
  readonly kind: IgnoredKind
  readonly index: number
}

/** What a whole stream assembles to: the `streams[]` entry of `chunkscope inspect --json`, minus identity. */
export type StreamResult = {
  /** `blocks()`, or null when the harness throws: at a push (`errorPos`) or while reading `blocks()`. */
  readonly blocks: ContentBlock[] | null
  /** The harness's error message, word for word (docs/protocol.md §3). */
  readonly error: string | null
  /**
   * Position of the chunk whose push threw (-1: before a replay window's first chunk); null when nothing threw or
   * the throw came from reading.
   */
  readonly errorPos: number | null
  /** `interruptedBlocks()`, or null when it throws (`interruptedBlocksError`). */
  readonly interruptedBlocks: ContentBlock[] | null
  readonly interruptedBlocksError: string | null
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

  private readonly chunks: ChunkList

  constructor(
    chunks: readonly SourcedChunk[] | ChunkList,
    private readonly onPush?: (pos: number, effect: Effect, assembler: BlockAssembler) => void,
    /** The stream is still arriving (a live capture): the end-of-stream checks (§5) do not run yet. */
    private readonly streaming = false,
  ) {
    this.chunks = chunkListOf(chunks)
  }

  /** Processes up to `count` more chunks; true once the whole stream is done and the end-of-stream checks ran. */
  advance(count = Infinity): boolean {
    const stop = Math.min(this.chunks.length, this.pos + count)
    for (; this.pos < stop; this.pos++)
      this.step(this.pos, this.chunks.chunkAt(this.pos), this.chunks.seqAt(this.pos))
    if (this.pos < this.chunks.length) return false
    this.end()
    return true
  }

  /**
   * The next chunk handed over directly, for a pass built over no list (`new AssemblyPass([])`): a reader that
   * analyzes each chunk as it reads it and keeps none (`chunkscope inspect`). Call {@link end} after the last.
   */
  pushChunk(chunk: AnyChunk, seq: number): void {
    this.step(this.pos, chunk, seq)
    this.pos += 1
  }

  /**
   * A packed row's members (docs/protocol.md §7) handed over at once, member k with seq `seq0 + k` and chunk
   * `chunkOf(k)`: what {@link pushChunk} of each in turn does. When they can only append to their open block
   * without a finding (the assembler and checker vouch for that), they are taken whole, without a chunk object, an
   * effect or a check each — a 100 MB log is millions of such members; when only the first cannot (it opens its
   * block), it is pushed and the rest taken whole. A pass with `onPush` needs every member's effect, so it pushes
   * them one by one.
   */
  pushRun(run: RunOfDeltas, seq0: number, chunkOf: (k: number) => AnyChunk): void {
    const count = run.payload.length
    if (this.takeWhole(run, 0, seq0)) return
    for (let k = 0; k < count; k++) {
      this.pushChunk(chunkOf(k), seq0 + k)
      if (k === 0 && this.takeWhole(run, 1, seq0)) return
    }
  }

  /** Members `from`… of a run taken whole, when the checker and assembler vouch for it (see {@link pushRun}). */
  private takeWhole(run: RunOfDeltas, from: number, seq0: number): boolean {
    const count = run.payload.length
    if (from >= count || this.onPush !== undefined) return false
    if (!this.checker.takesQuietly(run.deltaType, run.index, this.assembler)) return false
    if (!this.assembler.appendRun(run, from)) return false
    this.pos += count - from
    this.checker.skipQuiet(run.index as number, this.pos - 1, seq0 + count - 1)
    return true
  }

  /** The end-of-stream checks (§5), once: `advance` runs them when it reaches the end. */
  end(): void {
    if (!this.ended && !this.streaming) {
      this.checker.end(this.assembler)
      this.ended = true
    }
  }

  /** What the pass has found so far (after {@link end}: the whole stream's result). */
  result(): StreamResult {
    return { ...readAssembler(this.assembler), ignored: this.ignored, findings: this.checker.findings }
  }

  private step(pos: number, chunk: AnyChunk, seq: number): void {
    const effect = this.assembler.push(chunk)
    if (effect.kind === 'close') this.assembler.shareClosedText(effect.index)
    this.checker.observe(chunk, effect, this.assembler, pos, seq)
    const kind = ignoredKindOf(effect.kind)
    if (kind !== null && 'index' in effect) this.ignored.push({ seq, pos, kind, index: effect.index })
    this.onPush?.(pos, effect, this.assembler)
  }
}

/** What the assembler's read side yields at one moment. */
export type AssemblyRead = Pick<
  StreamResult,
  | 'blocks'
  | 'error'
  | 'errorPos'
  | 'interruptedBlocks'
  | 'interruptedBlocksError'
  | 'finish'
  | 'hasFinish'
  | 'usage'
  | 'replayState'
>

/**
 * Reads everything the assembler yields, turning each harness throw into an error message (docs/protocol.md §3). After a
 * push that threw, the harness's result is that error: no `blocks()`, no replayState. `interruptedBlocks()` is still
 * what its assembler holds at the throw, which is all a cancel at that moment could keep.
 */
export function readAssembler(assembler: BlockAssembler): AssemblyRead {
  const failure = assembler.failure
  const read = failure === undefined ? attempt(() => assembler.assembled()) : { error: failure.message }
  const interrupted = attempt(() => assembler.interruptedBlocks())
  return {
    blocks: read.value?.blocks ?? null,
    error: read.error ?? null,
    errorPos: failure === undefined ? null : failure.pos,
    interruptedBlocks: interrupted.value ?? null,
    interruptedBlocksError: interrupted.error ?? null,
    finish: assembler.finish,
    hasFinish: assembler.hasFinish,
    usage: assembler.usage ?? null,
    replayState: read.value?.replayState ?? null,
  }
}

function attempt<T>(read: () => T): { value?: T; error?: string } {
  try {
    return { value: read() }
  } catch (thrown) {
    return { error: harnessThrowOf(thrown).message }
  }
}

/**
 * Assembles a whole stream and checks it.
 *
 * @example
 * analyzeStream([{ seq: 0, time: null, chunk: { type: 'text-delta', index: 0, text: 'hi' } }]).blocks
 * // [{ type: 'text', text: 'hi' }]
 */
export function analyzeStream(chunks: readonly SourcedChunk[] | ChunkList): StreamResult {
  const pass = new AssemblyPass(chunks)
  pass.advance()
  return pass.result()
}
