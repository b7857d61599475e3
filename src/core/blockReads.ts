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
 * The assembler's read side (`blocks()`, `interruptedBlocks()`, `replayState`) and the block frames, kept per block
 * so a step recomputes only the blocks its push touched. A frozen partial never changes again (§3 A4) and is the
 * same in every state of one stream that has frozen it, so its reads are computed once per engine, by index; an
 * open one is read again after each push addressed to it. What a whole read yields is exactly `readAssembler`'s.
 */
export class BlockReads {
  private readonly frozen = new Map<number, BlockRead>()
  /** Reads of the live assembler's partials, in first-seen order. */
  private reads: BlockRead[] = []

  constructor(private readonly lifeOf: (index: number) => BlockLife | undefined) {}

  /** Reads every partial of an assembler just restored or started. */
  rebuild(assembler: BlockAssembler): void {
    this.reads = assembler.indexes.map((index) => this.readBlock(assembler, index))
  }

  /** After pushes on the same assembler: rereads the indexes they addressed and appends the new ones. */
  update(assembler: BlockAssembler, touched: readonly number[]): void {
    const { indexes } = assembler
    for (let at = this.reads.length; at < indexes.length; at++)
      this.reads.push(this.readBlock(assembler, indexes[at]!))
    for (const index of touched) {
      const at = this.lifeOf(index)?.order
      // A life's order is its position in first-seen order; anything else is a bug, so read everything again.
      if (at === undefined || indexes[at] !== index) return this.rebuild(assembler)
      this.reads[at] = this.readBlock(assembler, index)
    }
  }

  /** What `readAssembler(assembler)` yields, and the block frames, from the reads kept. */
  read(assembler: BlockAssembler): AssemblyRead & { readonly partials: BlockFrame[] } {
    const partials: BlockFrame[] = []
    const all: ContentBlock[] = []
    const kept: ContentBlock[] = []
    let blocksThrow: string | undefined
    let keptThrow: string | undefined
    for (const read of this.reads) {
      if (read.frame !== null) partials.push(read.frame)
      // Each read-side call stops at the first block it throws at, as the harness's loops do.
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
