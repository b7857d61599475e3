import type { BlockAssembler } from './BlockAssembler'
import {
  alignAssembled,
  assembleOpen,
  assemblePartial,
  interruptedBlockOf,
  type PartialBlock,
} from './partialBlock'
import type { AssemblyRead } from './analyzeStream'
import { harnessThrowOf } from './harnessThrows'
import { jsonEqual } from './jsonEqual'
import type { ContentBlock } from './protocol'

/** What the stream does to one block index over its whole life (computed once, in the first pass). */
export type BlockLife = {
  readonly index: number
  /** Position in first-seen order: "Block 0", "Block 1", … in the UI. */
  readonly order: number
  /** The blockType it was created with (later starts never retype it). */
  readonly blockType: string
  /** Created by a delta or block-end rather than by block-start. */
  readonly implicit: boolean
  readonly openedAt: number
  /** Position of the first (winning) block-end, or null when never closed. */
  readonly closedAt: number | null
  /** Positions of every chunk addressed to this index, in order (for lanes). */
  readonly touches: readonly number[]
  /** Deltas the assembler accepted (all before the close: later ones are stragglers). */
  readonly acceptedDeltas: number
}

/** One block as it stands after the first k chunks. */
export type BlockFrame = {
  readonly life: BlockLife
  readonly state: 'open' | 'frozen'
  readonly text: string
  readonly toolCallId: string | undefined
  readonly toolCallName: string | undefined
  readonly toolCallArguments: string
  /** The authoritative block from block-end, once frozen. */
  readonly block: ContentBlock | undefined
  /** What the deltas alone build (null for an unknown open type). */
  readonly streamed: ContentBlock | null
  /** Frozen, and the block-end differs from what the deltas built. */
  readonly differs: boolean
}

/** A read-side call that throws at this block: the harness's message (docs/protocol.md §3). */
class Thrown {
  constructor(readonly message: string) {}
}

/** What one partial gives each read of the assembler: its frame, its `blocks()` entry, its `interruptedBlocks()` entry. */
type BlockRead = {
  readonly frame: BlockFrame | null
  readonly assembled: ContentBlock | Thrown
  readonly interrupted: ContentBlock | null | Thrown
}

/**
 * The reads of the partials frozen from the first on, in first-seen order, and what `read` gathers from them, kept
 * for every state of one stream: a frozen partial is the same in each state that has frozen it, and first-seen
 * order is the same too, so a state whose first n partials are frozen shares their reads and their gathered arrays
 * (a slice of each) instead of walking them. It grows as states with longer frozen runs are read.
 */
class FrozenRun {
  readonly reads: BlockRead[] = []
  /** The frames of the reads with one; `framesAt[n]`: how many of them the first n reads give. */
  readonly frames: BlockFrame[] = []
  readonly framesAt: number[] = [0]
  /** `blocks()`'s entries, up to the first read that throws; `allAt[n]` as for frames. */
  readonly all: ContentBlock[] = []
  readonly allAt: number[] = [0]
  /** Where `blocks()` first throws among the reads, and its message. */
  allThrowAt = Infinity
  allThrow = ''
  /** `interruptedBlocks()`'s entries, likewise. */
  readonly kept: ContentBlock[] = []
  readonly keptAt: number[] = [0]
  keptThrowAt = Infinity
  keptThrow = ''

  push(read: BlockRead): void {
    const at = this.reads.length
    this.reads.push(read)
    if (read.frame !== null) this.frames.push(read.frame)
    this.framesAt.push(this.frames.length)
    if (this.allThrowAt === Infinity) {
      if (read.assembled instanceof Thrown) {
        this.allThrowAt = at
        this.allThrow = read.assembled.message
      } else this.all.push(read.assembled)
    }
    this.allAt.push(this.all.length)
    if (this.keptThrowAt === Infinity) {
      if (read.interrupted instanceof Thrown) {
        this.keptThrowAt = at
        this.keptThrow = read.interrupted.message
      } else if (read.interrupted !== null) this.kept.push(read.interrupted)
    }
    this.keptAt.push(this.kept.length)
  }
}

/**
 * The assembler's read side (`blocks()`, `interruptedBlocks()`, `replayState`) and the block frames, kept per block
 * so a step recomputes only the blocks its push touched. A frozen partial never changes again (§3 A4) and is the
 * same in every state of one stream that has frozen it, so its reads are computed once per engine, by index; an
 * open one is read again after each push addressed to it. The partials before the first open one are shared with
 * every other state ({@link FrozenRun}), so a seek or a step reads and gathers only the partials from the first
 * open one on: without that, each seek walked every block of the stream three times (restore, reads, gather), most
 * of a seek's time at a million chunks (bench/README.md, the core bench). What a whole read yields is exactly
 * `readAssembler`'s.
 */
export class BlockReads {
  private readonly frozen = new Map<number, BlockRead>()
  private readonly run = new FrozenRun()
  /** How many of the live assembler's partials, from the first, are frozen: their reads are the run's. */
  private shared = 0
  /** Reads of the live assembler's partials from `shared` on, in first-seen order. */
  private reads: BlockRead[] = []

  constructor(private readonly lifeOf: (index: number) => BlockLife | undefined) {}

  /** Reads every partial of an assembler just restored or started. */
  rebuild(assembler: BlockAssembler): void {
    this.shared = this.share(assembler)
    const { indexes } = assembler
    this.reads = []
    for (let at = this.shared; at < indexes.length; at++)
      this.reads.push(this.readBlock(assembler, indexes[at]!))
  }

  /** After pushes on the same assembler: rereads the indexes they addressed and appends the new ones. */
  update(assembler: BlockAssembler, touched: readonly number[]): void {
    const { indexes } = assembler
    // Partials only freeze, so the frozen run only grows; the reads it now covers are its own.
    const shared = this.share(assembler)
    if (shared > this.shared) {
      this.reads.splice(0, shared - this.shared)
      this.shared = shared
    }
    for (let at = this.shared + this.reads.length; at < indexes.length; at++)
      this.reads.push(this.readBlock(assembler, indexes[at]!))
    for (const index of touched) {
      const at = this.lifeOf(index)?.order
      // A life's order is its position in first-seen order; anything else is a bug, so read everything again.
      if (at === undefined || indexes[at] !== index) return this.rebuild(assembler)
      // A partial in the frozen run is frozen: a push addressed to it changed nothing.
      if (at >= this.shared) this.reads[at - this.shared] = this.readBlock(assembler, index)
    }
  }

  /** What `readAssembler(assembler)` yields, and the block frames, from the reads kept. */
  read(assembler: BlockAssembler): AssemblyRead & { readonly partials: BlockFrame[] } {
    const { run, shared } = this
    const partials = run.frames.slice(0, run.framesAt[shared])
    const all = run.all.slice(0, run.allAt[shared])
    const kept = run.kept.slice(0, run.keptAt[shared])
    // Each read-side call stops at the first block it throws at, as the harness's loops do.
    let blocksThrow = run.allThrowAt < shared ? run.allThrow : undefined
    let keptThrow = run.keptThrowAt < shared ? run.keptThrow : undefined
    for (const read of this.reads) {
      if (read.frame !== null) partials.push(read.frame)
      if (blocksThrow === undefined) {
        if (read.assembled instanceof Thrown) blocksThrow = read.assembled.message
        else all.push(read.assembled)
      }
      if (keptThrow === undefined) {
        if (read.interrupted instanceof Thrown) keptThrow = read.interrupted.message
        else if (read.interrupted !== null) kept.push(read.interrupted)
      }
    }
    const failure = assembler.failure
    let blocks: ContentBlock[] | null = null
    let replayState: AssemblyRead['replayState'] = null
    let error = failure?.message ?? blocksThrow ?? null
    if (error === null) {
      try {
        const aligned = alignAssembled(all, assembler.finish, assembler.rawReplayState)
        blocks = aligned.blocks
        replayState = aligned.replayState ?? null
      } catch (thrown) {
        error = harnessThrowOf(thrown).message
      }
    }
    return {
      partials,
      blocks,
      error,
      errorPos: failure === undefined ? null : failure.pos,
      interruptedBlocks: keptThrow === undefined ? kept : null,
      interruptedBlocksError: keptThrow ?? null,
      finish: assembler.finish,
      hasFinish: assembler.hasFinish,
      usage: assembler.usage ?? null,
      replayState,
    }
  }

  /**
   * How many of the assembler's partials, from the first, are frozen (every one before the first open one, in
   * first-seen order), with the run grown to cover them. Found from the open partials' lives, a handful, not by
   * walking the frozen ones; 0 (read everything) where a life is missing or does not match.
   */
  private share(assembler: BlockAssembler): number {
    const { indexes } = assembler
    let first = indexes.length
    for (const index of assembler.openIndexes) {
      const at = this.lifeOf(index)?.order
      if (at === undefined || indexes[at] !== index) return 0
      first = Math.min(first, at)
    }
    for (let at = this.run.reads.length; at < first; at++)
      this.run.push(this.readBlock(assembler, indexes[at]!))
    return first
  }

  private readBlock(assembler: BlockAssembler, index: number): BlockRead {
    const partial = assembler.partial(index)
    if (partial === undefined) throw new Error(`BlockReads: no partial for index ${index}`)
    if (!partial.block) return readPartial(partial, index, this.lifeOf(index))
    let read = this.frozen.get(index)
    if (read === undefined) this.frozen.set(index, (read = readPartial(partial, index, this.lifeOf(index))))
    return read
  }
}

function readPartial(partial: Readonly<PartialBlock>, index: number, life: BlockLife | undefined): BlockRead {
  return {
    frame: life === undefined ? null : blockFrame(life, partial, index),
    assembled: attempt(() => assemblePartial(partial, index)),
    interrupted: attempt(() => interruptedBlockOf(partial, index)),
  }
}

function attempt<T>(read: () => T): T | Thrown {
  try {
    return read()
  } catch (thrown) {
    return new Thrown(harnessThrowOf(thrown).message)
  }
}

function blockFrame(life: BlockLife, partial: Readonly<PartialBlock>, index: number): BlockFrame {
  let streamed: ContentBlock | null
  try {
    streamed = assembleOpen(partial, index)
  } catch {
    streamed = null
  }
  const block = partial.block
  return {
    life,
    state: block ? 'frozen' : 'open',
    text: partial.text,
    toolCallId: partial.toolCallId,
    toolCallName: partial.toolCallName,
    toolCallArguments: partial.toolCallArguments,
    block,
    streamed,
    differs:
      block !== undefined && streamed !== null && life.acceptedDeltas > 0 && !jsonEqual(streamed, block),
  }
}
