import type { Effect } from './effects'
import {
  alignAssembled,
  assembleOpen,
  assemblePartial,
  interruptedBlockOf,
  type AssembledBlocks,
  type PartialBlock,
} from './partialBlock'
import { harnessThrowOf, nullishRead, unreachableVariant } from './harnessThrows'
import {
  isStreamChunk,
  type AnyChunk,
  type ContentBlock,
  type FinishReason,
  type ReplayEnvelope,
  type StreamChunk,
  type TokenUsage,
} from './protocol'

/**
 * The push that threw in the harness (docs/protocol.md §3): its message, and its position among this assembler's pushes
 * (-1 when it came before an imported state). The harness's agent loop reads no chunk after it.
 */
export type PushFailure = { readonly message: string; readonly pos: number }

/** The state outside the partials: what a clone and a checkpoint copy as they are (all immutable values). */
type StreamTotals = {
  readonly pushed: number
  readonly failure: PushFailure | undefined
  readonly usage: TokenUsage | undefined
  readonly finish: FinishReason | undefined
  readonly replayState: ReplayEnvelope | undefined
}

/** See {@link BlockAssembler.snapshot}. */
export type AssemblerSnapshot = StreamTotals & {
  readonly orderLength: number
  readonly open: readonly (readonly [number, Readonly<PartialBlock>])[]
}

/**
 * The whole assembler state as plain JSON (see {@link BlockAssembler.exportState}): what a windowed share link carries
 * so a replay that starts mid-stream is exact. `partials` lists every seen index in first-seen order (that list IS
 * `order`), frozen ones with their `block`.
 */
export type AssemblerState = {
  readonly partials: readonly (readonly [number, Readonly<PartialBlock>])[]
  readonly usage?: TokenUsage
  readonly finish?: FinishReason
  readonly replayState?: ReplayEnvelope
  /** The message of a push that threw before this state: every later chunk is `after-error`. */
  readonly failure?: string
}

// What callers of the assembler read its results with (the other helpers stay inside core, in partialBlock.ts).
export { assembleOpen, type AssembledBlocks, type PartialBlock }

/** A packed row's members (docs/protocol.md §7): `payload[k]` is member k's text or arguments delta. */
export type RunOfDeltas = {
  readonly deltaType: 'text-delta' | 'reasoning-delta' | 'tool-call-delta'
  readonly index: unknown
  readonly payload: readonly unknown[]
  readonly id: unknown
  readonly hasName: boolean
  readonly name: unknown
}

/** Far below V8's longest string (2^29 − 24 UTF-16 units), so no append of a run can fail. */
const MAX_RUN_TEXT = 2 ** 28

/**
 * A faithful re-implementation of DeepSeek Harness's BlockAssembler (docs/protocol.md §3): same state, same JavaScript
 * operations in the same order, same results byte for byte, and the same throws with the harness's words: the
 * read-side throw for open blocks of unknown type, `interruptedBlocks()` over a closed block whose text is not a
 * string, a misshapen `replayState.blocks`.
 *
 * Where the harness's `push` throws (an unknown chunk type, §3 A7; a block-end whose block is null; text that
 * cannot become a string) this `push` records the throw as {@link BlockAssembler.failure} and returns it as an
 * effect, leaving the state exactly as the harness's is after its throw. Its agent loop stops reading the stream
 * there, so every later push is `after-error` and changes nothing. `push` also returns the {@link Effect} it had
 * (§4); no effect changes a result.
 *
 * @example
 * const a = new BlockAssembler()
 * a.push({ type: 'text-delta', index: 0, text: 'implicit' }) // { kind: 'append-text', implicit: true, … }
 * a.blocks() // [{ type: 'text', text: 'implicit' }]
 * a.finish // { kind: 'stop' }
 */
export class BlockAssembler {
  private partials = new Map<number, PartialBlock>()
  /**
   * A restored state's frozen partials stay in the later state it was restored from: its first `inheritedLength`
   * indexes in first-seen order, less the open ones copied into `partials`. Copying each into this state's map made
   * restoring O(blocks), the larger part of a seek (bench/README.md, the core bench).
   */
  private inheritedFrom: BlockAssembler | undefined
  private inheritedLength = 0
  /** Each index's place in first-seen order, built when a restore first asks (order only grows, places never move). */
  private places: Map<number, number> | undefined
  private order: number[] = []
  private storedUsage: TokenUsage | undefined
  private storedFinish: FinishReason | undefined
  private storedReplayState: ReplayEnvelope | undefined
  /**
   * The indexes of partials without a block, in first-seen order (an index opens once and freezes once). Kept in
   * step so checkpoint spacing reads the count in O(1) and a snapshot visits only these, never the frozen ones.
   */
  private open = new Set<number>()
  private pushed = 0
  private storedFailure: PushFailure | undefined
  /** The index this push's `ensure` reached, so a push that throws after it can name its block. */
  private ensuredIndex = 0
  /** -1: this push has not reached `ensure`; else whether `ensure` created the partial (1) or found it (0). */
  private ensuredImplicit: -1 | 0 | 1 = -1

  push(input: AnyChunk): Effect {
    const pos = this.pushed
    this.pushed += 1
    if (this.storedFailure !== undefined) return { kind: 'after-error' }
    this.ensuredImplicit = -1
    try {
      return this.apply(input)
    } catch (thrown) {
      const error = harnessThrowOf(thrown).message
      this.storedFailure = { message: error, pos }
      const type = typeof input === 'object' && input !== null ? input.type : undefined
      if (!isStreamChunk({ type } as AnyChunk)) {
        const chunkType = typeof type === 'string' ? type : (JSON.stringify(type) ?? String(type))
        return { kind: 'unknown-chunk', chunkType, error }
      }
      // `apply` may have set it: TypeScript cannot see that through the call.
      const implicit = this.ensuredImplicit as -1 | 0 | 1
      if (implicit === -1) return { kind: 'push-error', error }
      return { kind: 'push-error', error, index: this.ensuredIndex, implicit: implicit === 1 }
    }
  }

  /**
   * Pushes members `from`… of a packed row (docs/protocol.md §7) at once, for a caller that needs no effect per
   * member: the state afterwards is the one pushing each member's delta leaves. Only where every such push would
   * append (the block is open, no push threw, every payload is a string and the text stays far below the engine's
   * longest string) — false otherwise, having done nothing: push the members one by one then. The appended text
   * is one joined string instead of a rope of one piece per member: the same value, which compares and parses
   * without walking hundreds of pieces.
   */
  appendRun(run: RunOfDeltas, from: number): boolean {
    const partial = this.find(run.index as number)
    if (this.storedFailure !== undefined || partial === undefined || partial.block) return false
    const { payload } = run
    const isToolCall = run.deltaType === 'tool-call-delta'
    let length = isToolCall ? partial.toolCallArguments.length : partial.text.length
    for (let k = from; k < payload.length; k++) {
      const piece: unknown = payload[k]
      if (typeof piece !== 'string') return false
      length += piece.length
    }
    // Past this a push may throw V8's "Invalid string length" at one member: that one must be found by pushing.
    if (length > MAX_RUN_TEXT) return false
    const appended = from === 0 ? payload.join('') : payload.slice(from).join('')
    if (isToolCall) {
      // A3 for each member: the id overwrites (the same every member), a non-empty name too.
      partial.toolCallId = run.id as string
      if (run.hasName && run.name) partial.toolCallName = run.name as string
      partial.toolCallArguments = partial.toolCallArguments + appended
    } else partial.text = partial.text + appended
    this.pushed += payload.length - from
    return true
  }

  /**
   * After a block-end froze block `index`: when its deltas built the very text (or arguments) its block carries,
   * the partial keeps the block's string and lets its own copy go. Strings are values, so nothing can tell the two
   * apart, and a closed block then holds its text once instead of twice (a 100 MB log's blocks are most of it). The
   * comparison is the one §5's end-content-mismatch check makes next, which then finds one string on both sides.
   */
  shareClosedText(index: number): void {
    const partial = this.find(index)
    const block = partial?.block as { text?: unknown; arguments?: unknown } | undefined
    if (partial === undefined || typeof block !== 'object' || block === null) return
    if (typeof block.text === 'string' && block.text === partial.text) partial.text = block.text
    else if (typeof block.arguments === 'string' && block.arguments === partial.toolCallArguments)
      partial.toolCallArguments = block.arguments
  }

  /** The harness's `push`, step for step; throws where it throws (the caller records the failure). */
  private apply(input: AnyChunk): Effect {
    const value: unknown = input
    if (value === null || value === undefined) throw nullishRead(value, 'type')
    const chunk = input as StreamChunk
    switch (chunk.type) {
      case 'block-start': {
        // A1: a seen index (by any earlier start, delta or end) is neither retyped nor reopened.
        if (this.find(chunk.index) !== undefined)
          return { kind: 'ignored-duplicate-start', index: chunk.index }
        this.order.push(chunk.index)
        this.partials.set(chunk.index, { blockType: chunk.blockType, text: '', toolCallArguments: '' })
        this.open.add(chunk.index)
        return { kind: 'open', index: chunk.index, blockType: chunk.blockType }
      }
      case 'text-delta':
      case 'reasoning-delta': {
        // A2: the delta kind is not checked against the partial's blockType.
        const partial = this.ensure(chunk.index, chunk.type === 'text-delta' ? 'text' : 'reasoning')
        const implicit = this.ensuredImplicit === 1
        if (partial.block) return { kind: 'ignored-straggler', index: chunk.index }
        const before = partial.text.length
        // A throw here (text that cannot become a string, a string past V8's length limit) reaches `push`, whose
        // catch words it as the harness does (harnessThrowOf): no closure per delta to do it here.
        partial.text = partial.text + chunk.text
        return { kind: 'append-text', index: chunk.index, chars: partial.text.length - before, implicit }
      }
      case 'tool-call-delta': {
        // A3: every delta overwrites the id ('' included); an empty name is ignored.
        const partial = this.ensure(chunk.index, 'tool-call')
        const implicit = this.ensuredImplicit === 1
        if (partial.block) return { kind: 'ignored-straggler', index: chunk.index }
        const idChanged = partial.toolCallId !== undefined && partial.toolCallId !== chunk.id
        partial.toolCallId = chunk.id
        const nameChanged =
          Boolean(chunk.name) && partial.toolCallName !== undefined && partial.toolCallName !== chunk.name
        if (chunk.name) partial.toolCallName = chunk.name
        const before = partial.toolCallArguments.length
        partial.toolCallArguments = partial.toolCallArguments + chunk.argumentsDelta
        const chars = partial.toolCallArguments.length - before
        return { kind: 'append-arguments', index: chunk.index, chars, implicit, idChanged, nameChanged }
      }
      case 'block-end': {
        // The harness reads `chunk.block.type` before anything else: a null or missing block throws here.
        const block: unknown = chunk.block
        if (block === null || block === undefined) throw nullishRead(block, 'type')
        const partial = this.ensure(chunk.index, (block as { type?: unknown }).type as string)
        const implicit = this.ensuredImplicit === 1
        // A4: first close wins, even when its type or content differs from the deltas.
        if (partial.block) return { kind: 'ignored-reclose', index: chunk.index }
        // Every later test is `if (partial.block)`: a falsy block freezes nothing, so it is not stored.
        if (!block) return { kind: 'close-without-block', index: chunk.index, implicit }
        partial.block = chunk.block
        this.open.delete(chunk.index)
        return { kind: 'close', index: chunk.index, implicit, block: chunk.block }
      }
      case 'usage': {
        // A5: last wins, never summed.
        const replaced = this.storedUsage !== undefined
        this.storedUsage = chunk.usage
        return { kind: replaced ? 'usage-replaced' : 'usage-set' }
      }
      case 'finish': {
        // A6: last wins; a later finish without replayState clears it.
        const replaced = this.storedFinish !== undefined
        this.storedFinish = chunk.reason
        this.storedReplayState = chunk.replayState
        return { kind: replaced ? 'finish-replaced' : 'finish-set' }
      }
      default:
        // A7: the harness's `assertNever(chunk, 'BlockAssembler.push')`.
        throw unreachableVariant(input)
    }
  }

  private ensure(index: number, blockType: string): PartialBlock {
    let partial = this.find(index)
    // Two fields, not an object per push: a 100 MB log pushes millions of chunks.
    this.ensuredIndex = index
    this.ensuredImplicit = partial === undefined ? 1 : 0
    if (!partial) {
      partial = { blockType, text: '', toolCallArguments: '' }
      this.partials.set(index, partial)
      this.order.push(index)
      this.open.add(index)
    }
    return partial
  }

  /** One pass computing blocks and replayState together, so they cannot disagree (§3 read side). */
  assembled(): AssembledBlocks {
    const all = this.order.map((index) => assemblePartial(this.mustGet(index), index))
    return alignAssembled(all, this.finish, this.storedReplayState)
  }

  /**
   * Every seen block in first-seen order; at a max-tokens finish every tool-call block is dropped.
   * Throws `cannot assemble incomplete block of type "<type>"` for an open block of an unknown type.
   */
  blocks(): ContentBlock[] {
    return this.assembled().blocks
  }

  /**
   * The text and reasoning blocks a cancelled stream keeps (§3): never throws for unknown block types, but throws
   * as the harness's `block.text.trim()` does for a closed text or reasoning block whose text is not a string.
   */
  interruptedBlocks(): ContentBlock[] {
    const kept: ContentBlock[] = []
    for (const index of this.order) {
      const block = interruptedBlockOf(this.mustGet(index), index)
      if (block !== null) kept.push(block)
    }
    return kept
  }

  /** The push that threw, if one did: the harness's result is that error, and it read no chunk after it. */
  get failure(): PushFailure | undefined {
    return this.storedFailure
  }

  get usage(): TokenUsage | undefined {
    return this.storedUsage
  }

  /** The stored finish reason, or `{kind: 'stop'}` when none arrived. */
  get finish(): FinishReason {
    return this.storedFinish ?? { kind: 'stop' }
  }

  /** Whether a finish chunk arrived (`finish` reads as stop either way). */
  get hasFinish(): boolean {
    return this.storedFinish !== undefined
  }

  /** The replay envelope, pruned in step with `blocks()`; undefined when its entries are misaligned. */
  get replayState(): ReplayEnvelope | undefined {
    return this.assembled().replayState
  }

  /** The raw envelope of the last finish, before alignment and pruning. */
  get rawReplayState(): ReplayEnvelope | undefined {
    return this.storedReplayState
  }

  /** How many partials are still open (not frozen by a block-end). */
  get openCount(): number {
    return this.open.size
  }

  /** The indexes of the partials still open, in first-seen order. Read-only view. */
  get openIndexes(): ReadonlySet<number> {
    return this.open
  }

  /** Indexes in first-seen order (not numeric order). Read-only view. */
  get indexes(): readonly number[] {
    return this.order
  }

  /** The partial for an index, or undefined. Callers must not mutate it. */
  partial(index: number): Readonly<PartialBlock> | undefined {
    return this.find(index)
  }

  /**
   * An independent copy of the state. Frozen partials are shared (nothing mutates them again); open ones are
   * copied field by field — strings are immutable, so text is never duplicated.
   */
  clone(): BlockAssembler {
    const copy = new BlockAssembler()
    for (const index of this.order) {
      const partial = this.mustGet(index)
      copy.partials.set(index, partial.block ? partial : { ...partial })
    }
    copy.order = this.order.slice()
    copy.open = new Set(this.open)
    copy.adopt(this.totals())
    return copy
  }

  private totals(): StreamTotals {
    return {
      pushed: this.pushed,
      failure: this.storedFailure,
      usage: this.storedUsage,
      finish: this.storedFinish,
      replayState: this.storedReplayState,
    }
  }

  private adopt(totals: StreamTotals): void {
    this.pushed = totals.pushed
    this.storedFailure = totals.failure
    this.storedUsage = totals.usage
    this.storedFinish = totals.finish
    this.storedReplayState = totals.replayState
  }

  /**
   * A compact record of the state: only the open partials are copied. Frozen partials and first-seen order can be
   * recovered from any later state of the same stream, because order only grows and frozen partials never change.
   */
  snapshot(): AssemblerSnapshot {
    const open: [number, PartialBlock][] = []
    for (const index of this.open) open.push([index, { ...this.mustGet(index) }])
    return { ...this.totals(), orderLength: this.order.length, open }
  }

  /**
   * Rebuilds the state a snapshot recorded, taking order and frozen partials from `later`, a later state: its
   * frozen partials are looked up there, not copied.
   */
  static restore(snapshot: AssemblerSnapshot, later: BlockAssembler): BlockAssembler {
    const restored = new BlockAssembler()
    restored.order = later.order.slice(0, snapshot.orderLength)
    restored.inheritedFrom = later
    restored.inheritedLength = snapshot.orderLength
    for (const [index, partial] of snapshot.open) restored.partials.set(index, { ...partial })
    restored.open = new Set(snapshot.open.map(([index]) => index))
    restored.adopt(snapshot)
    return restored
  }

  /** The full state as plain JSON (`JSON.stringify` round-trips it); {@link BlockAssembler.fromState} rebuilds it. */
  exportState(): AssemblerState {
    const partials = this.order.map((index): [number, PartialBlock] => [index, { ...this.mustGet(index) }])
    return {
      partials,
      ...(this.storedUsage !== undefined ? { usage: this.storedUsage } : {}),
      ...(this.storedFinish !== undefined ? { finish: this.storedFinish } : {}),
      ...(this.storedReplayState !== undefined ? { replayState: this.storedReplayState } : {}),
      ...(this.storedFailure !== undefined ? { failure: this.storedFailure.message } : {}),
    }
  }

  /** An assembler in exactly the exported state: pushing the rest of the stream gives what the full stream gives. */
  static fromState(state: AssemblerState): BlockAssembler {
    const assembler = new BlockAssembler()
    assembler.importState(state)
    return assembler
  }

  /** Replaces this assembler's whole state with an exported one (a duplicate index keeps its first entry). */
  importState(state: AssemblerState): void {
    this.partials = new Map()
    this.inheritedFrom = undefined
    this.inheritedLength = 0
    this.places = undefined
    this.order = []
    this.open = new Set()
    for (const [index, partial] of state.partials) {
      if (this.partials.has(index)) continue
      this.order.push(index)
      this.partials.set(index, { ...partial })
      if (!partial.block) this.open.add(index)
    }
    this.adopt({
      pushed: 0,
      failure: state.failure === undefined ? undefined : { message: state.failure, pos: -1 },
      usage: state.usage,
      finish: state.finish,
      replayState: state.replayState,
    })
  }

  /**
   * The partial of `index`: this state's own, or a frozen one inherited from the state it was restored from when
   * the index was first seen before the snapshot (one first seen later is not this state's yet).
   */
  private find(index: number): PartialBlock | undefined {
    const own = this.partials.get(index)
    if (own !== undefined || this.inheritedFrom === undefined) return own
    const place = this.inheritedFrom.placeOf(index)
    return place !== undefined && place < this.inheritedLength ? this.inheritedFrom.find(index) : undefined
  }

  private placeOf(index: number): number | undefined {
    const places = (this.places ??= new Map())
    for (let at = places.size; at < this.order.length; at++) places.set(this.order[at]!, at)
    return places.get(index)
  }

  private mustGet(index: number): PartialBlock {
    const partial = this.find(index)
    if (!partial) throw new Error(`BlockAssembler invariant violated: no partial for index ${index}`)
    return partial
  }
}
