import { asHarness, entriesLength, filterEntries, HarnessThrow, hasVisibleText } from './harnessThrows'
import type { ContentBlock, FinishReason, ReplayEnvelope } from './protocol'

/**
 * The state of one block index while a stream assembles (docs/protocol.md §3). Once `block` is set the partial is
 * frozen: no rule of the assembler touches it again, which is what lets checkpoints share closed partials.
 */
export type PartialBlock = {
  blockType: string
  text: string
  toolCallId?: string
  toolCallName?: string
  toolCallArguments: string
  /** Set by the first `block-end`: authoritative, and freezes the partial. */
  block?: ContentBlock
}

/** §3: an open partial assembles by blockType; any other type throws, exactly as the harness does. */
export function assembleOpen(partial: Readonly<PartialBlock>, index: number): ContentBlock {
  // The templates below turn an index or block type into text: V8's words if that throws (harnessThrows.ts).
  return asHarness(() => assembleByType(partial, index))
}

function assembleByType(partial: Readonly<PartialBlock>, index: number): ContentBlock {
  switch (partial.blockType) {
    case 'text':
      return { type: 'text', text: partial.text }
    case 'reasoning':
      return { type: 'reasoning', text: partial.text }
    case 'tool-call':
      // `??`, not `||`: an explicit '' id stays ''.
      return {
        type: 'tool-call',
        id: partial.toolCallId ?? `call-${index}`,
        name: partial.toolCallName ?? '',
        arguments: partial.toolCallArguments,
      }
    default:
      throw new HarnessThrow(`cannot assemble incomplete block of type "${partial.blockType}"`)
  }
}

export type AssembledBlocks = {
  /** `order.map(assemble)`, before max-tokens drops tool calls. */
  readonly all: readonly ContentBlock[]
  /** What `blocks()` returns. */
  readonly blocks: ContentBlock[]
  readonly replayState: ReplayEnvelope | undefined
}

/**
 * The block one partial yields in `blocks()` (§3 read side): its block-end's block once frozen, else what its
 * deltas built; throws for an open block of a type other than text/reasoning/tool-call. A frozen partial yields
 * the same block for the rest of the stream, which is what lets the replay engine keep it (ReplayEngine.ts).
 */
export function assemblePartial(partial: Readonly<PartialBlock>, index: number): ContentBlock {
  return partial.block ? partial.block : assembleOpen(partial, index)
}

/**
 * What one partial contributes to `interruptedBlocks()` (§3): its block when it is text or reasoning with visible
 * text, else null; throws as the harness's `block.text.trim()` does for a closed one whose text is not a string.
 */
export function interruptedBlockOf(partial: Readonly<PartialBlock>, index: number): ContentBlock | null {
  // `?.` on a non-object block (a block-end's `block: 5`) reads undefined, as in the harness.
  const type = (partial.block as { type?: unknown } | undefined)?.type ?? partial.blockType
  if (type !== 'text' && type !== 'reasoning') return null
  const block = assemblePartial(partial, index)
  const blockType = (block as { type?: unknown }).type
  return (blockType === 'text' || blockType === 'reasoning') &&
    hasVisibleText((block as { text?: unknown }).text)
    ? block
    : null
}

/**
 * `blocks()` and `replayState` from every partial's block in first-seen order (§3 read side): a max-tokens finish
 * drops tool calls, and the envelope's entries are kept only while they align with the blocks.
 */
export function alignAssembled(
  all: ContentBlock[],
  finish: FinishReason,
  envelope: ReplayEnvelope | undefined,
): AssembledBlocks {
  const blocks = finish.kind === 'max-tokens' ? all.filter((block) => block.type !== 'tool-call') : all
  if (envelope?.blocks === undefined) return { all, blocks, replayState: envelope }
  if (entriesLength(envelope.blocks) !== all.length) return { all, blocks, replayState: undefined }
  if (blocks.length === all.length) return { all, blocks, replayState: envelope }
  const entries = filterEntries(envelope.blocks, (position) => all[position]?.type !== 'tool-call')
  return { all, blocks, replayState: { response: envelope.response, blocks: entries } }
}
