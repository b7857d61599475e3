import { asHarness, HarnessThrow } from './harnessThrows'
import type { ContentBlock } from './protocol'

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
