import { BlockAssembler, type AssemblerSnapshot, type AssemblerState } from './BlockAssembler'
import { BlockReads, type BlockFrame, type BlockLife } from './blockReads'
import { showValue, type Finding } from './checks'
import { chunkListOf, type ChunkList } from './chunkList'
import {
  AssemblyPass,
  readAssembler,
  type AssemblyRead,
  type IgnoredChunk,
  type StreamResult,
} from './analyzeStream'
import { decodeEffect, encodeEffect, type Effect, type EffectSummary } from './effects'
import type { SourcedChunk } from './protocol'
import type { AttemptWindow } from './session'
import { partitionPoint } from './base/partitionPoint'

export type { BlockFrame, BlockLife }

/** The full state after the first k chunks (position k: 0 = none applied, N = all). */
export type ReplayFrame = AssemblyRead & {
  readonly k: number
  readonly total: number
  /** Every index seen so far, in first-seen order. */
  readonly partials: readonly BlockFrame[]
  /** The chunk that produced this frame (position k−1) and its effect; null at k = 0. */
  readonly last: { readonly pos: number; readonly chunk: SourcedChunk; readonly effect: Effect } | null
  /** How many of the engine's `findings` / `ignored` are visible at k (both are sorted by position). */
  readonly findingCount: number
  readonly ignoredCount: number
}

export type ReplayOptions = {
  /** Chunks between checkpoints: a seek pushes at most this many (more only for streams with huge block counts). */
  readonly checkpointEvery?: number
  /**
   * The assembler state at position 0 (a windowed share link carries it): the replay then continues a stream that
   * began earlier, exactly. Blocks already seen get a life with `openedAt` 0 (and `closedAt` 0 when frozen), and
   * the checks start from that state too (seen and open blocks, usage, finish), so a window does not report, say,
   * `delta-without-start` for a block opened before it. Carried blocks count as opened by a block-start.
   */
  readonly initialState?: AssemblerState
  /**
   * The stream is still arriving (a live capture): no end-of-stream finding (`finish-missing`, `finish-open-blocks`…)
   * is reported, since the end has not come yet. A later engine over the finished stream reports them.
   */
  readonly streaming?: boolean
  /**
   * The chunks are a window of a longer stream ({@link AttemptWindow}): the end-of-stream checks do not run on the
   * window's last chunk; the whole stream's findings outside the window and its end state are taken as given, so
   * the findings and the result equal the whole stream's.
   */
  readonly outside?: Pick<AttemptWindow, 'findings' | 'endFrom' | 'end' | 'startChecks' | 'thrown'>
}

const DEFAULT_CHECKPOINT_EVERY = 256

/**
 * Replays one stream to any position. The chunks are kept once; every `checkpointEvery` chunks the first pass
 * stores a snapshot of the assembler holding copies of the OPEN partials only: first-seen order only grows and a
 * frozen partial never changes again (docs/protocol.md §3 A1–A4), so both are taken from the final state on restore.
 * `seek(k)` restores the snapshot at or below k − 1 and pushes at most `checkpointEvery` chunks; stepping forward
 * reuses the live assembler instead.
 *
 * A snapshot costs O(open blocks), so the spacing grows to a quarter of the open-block count when that is larger:
 * checkpoint memory stays O(chunks) even for a delta-only stream with a million never-closed blocks.
 *
 * @example
 * const engine = new ReplayEngine(chunks)
 * engine.seek(41).partials[0]?.text // block 0's text after 41 chunks
 */
export class ReplayEngine {
  /** Read by position ({@link ChunkList}): a column-held list builds a chunk object only when asked for one. */
  readonly chunks: ChunkList
  readonly total: number
  /** Effect of each chunk, one byte each ({@link decodeEffect}). */
  readonly effectCodes: Uint8Array
  /** Every finding, sorted by position; end-of-stream ones last, visible only at k = total. */
  readonly findings: readonly Finding[]
  readonly ignored: readonly IgnoredChunk[]
  /** Per block index, in first-seen order. */
  readonly lives: readonly BlockLife[]
  /** Result at k = total. */
  readonly result: StreamResult
  /** Built over a stream still arriving ({@link ReplayOptions.streaming}): no end-of-stream findings yet. */
  readonly streaming: boolean
  /** Pushes done by seeks so far (tests count work with it). */
  pushes = 0
  /** A window's carried chunk whose push threw, outside the window ({@link seqAt}). */
  private readonly thrown: AttemptWindow['thrown']

  private readonly lifeOf = new Map<number, BlockLife>()
  private readonly checkpoints: readonly Checkpoint[]
  /** The state after the whole stream; never pushed to again (checkpoints restore frozen partials from it). */
  private readonly final: BlockAssembler
  private readonly perChunkFindings: number
  private live: { k: number; assembler: BlockAssembler; lastEffect: Effect | null }
  /** The read side of the live assembler, kept per block. */
  private readonly reads = new BlockReads((index) => this.lifeOf.get(index))
  private readonly memos = new Map<string, WeakMap<object, unknown>>()

  /** Builds synchronously; for long streams in a UI, drive a {@link ReplayBuilder} in slices and pass it here. */
  constructor(source: readonly SourcedChunk[] | ChunkList | ReplayBuilder, options: ReplayOptions = {}) {
    const builder = source instanceof ReplayBuilder ? source : new ReplayBuilder(source, options)
    builder.advance()
    const { pass } = builder
    this.chunks = builder.chunks
    this.total = builder.chunks.length
    // A pass begun before its stream's length was known sized its codes for the most it could hold.
    this.effectCodes =
      builder.effectCodes.length === this.total
        ? builder.effectCodes
        : builder.effectCodes.subarray(0, this.total)
    this.checkpoints = builder.checkpoints
    const outside = builder.outside
    if (outside === undefined) {
      this.findings = pass.checker.findings
      this.perChunkFindings =
        pass.checker.endFindingsFrom < 0 ? this.findings.length : pass.checker.endFindingsFrom
    } else {
      // Before the window, the window's own, after it (per chunk), then end-of-stream: the whole stream's order.
      const perChunk = outside.findings.slice(0, outside.endFrom)
      const before = perChunk.filter((finding) => finding.pos < 0)
      const after = perChunk.filter((finding) => finding.pos >= 0)
      this.findings = [
        ...before,
        ...pass.checker.findings,
        ...after,
        ...outside.findings.slice(outside.endFrom),
      ]
      this.perChunkFindings = before.length + pass.checker.findings.length + after.length
    }
    this.ignored = pass.ignored
    this.lives = [...builder.lives.values()]
    for (const life of this.lives) this.lifeOf.set(life.index, life)
    // A push that threw inside the window ends the stream there; otherwise the whole stream's end state is given.
    const end =
      outside === undefined || pass.assembler.failure !== undefined
        ? pass.assembler
        : BlockAssembler.fromState(outside.end)
    const read = readAssembler(end)
    this.thrown = outside?.thrown
    this.result = {
      ...read,
      // -1: the carried state or end says only that a push outside the window threw; `thrown` says which.
      ...(this.thrown !== undefined && read.errorPos === -1 ? { errorPos: this.thrown.pos } : {}),
      ignored: pass.ignored,
      findings: this.findings,
    }
    this.final = pass.assembler
    this.streaming = builder.streaming
    this.live = { k: 0, assembler: this.start(), lastEffect: null }
    this.reads.rebuild(this.live.assembler)
  }

  /** The state at position 0: empty, or the initial state the builder was given. */
  private start(): BlockAssembler {
    return BlockAssembler.restore(this.checkpoints[0]!.snapshot, this.final)
  }

  /**
   * A view's value derived from one of this engine's objects (a block life, a frozen block), computed once and kept
   * with the engine, so it goes when the engine goes and no view keeps a cache of its own.
   *
   * @example
   * engine.memo('id-changes', life, () => scanIdChanges(engine, life))
   */
  memo<T>(kind: string, key: object, compute: () => T): T {
    let memo = this.memos.get(kind)
    if (memo === undefined) this.memos.set(kind, (memo = new WeakMap()))
    if (!memo.has(key)) memo.set(key, compute())
    return memo.get(key) as T
  }

  effectAt(pos: number): EffectSummary {
    return decodeEffect(this.effectCodes[pos] ?? 0)
  }

  life(index: number): BlockLife | undefined {
    return this.lifeOf.get(index)
  }

  /**
   * The state after the first k chunks (k is clamped to 0…total). Equal to a fresh replay of those chunks. A step
   * forward is one push on the live assembler and rereads only the block it touched ({@link BlockReads}).
   */
  seek(target: number): ReplayFrame {
    const k = Math.min(this.total, Math.max(0, Math.trunc(target)))
    if (k === this.live.k) return this.frame(k, this.live.assembler, this.live.lastEffect)
    if (k === 0) {
      this.live = { k: 0, assembler: this.start(), lastEffect: null }
      this.reads.rebuild(this.live.assembler)
      return this.frame(0, this.live.assembler, null)
    }
    // Start at or below k − 1 so the last push yields chunk k − 1's effect; at most `every` pushes.
    const base = this.checkpointAtOrBelow(k - 1)
    const reuseLive = this.live.k < k && this.live.k >= base.pos
    const assembler = reuseLive ? this.live.assembler : BlockAssembler.restore(base.snapshot, this.final)
    let at = reuseLive ? this.live.k : base.pos
    let lastEffect: Effect | null = null
    const touched: number[] = []
    while (at < k) {
      lastEffect = assembler.push(this.chunks.chunkAt(at))
      if (reuseLive && 'index' in lastEffect) touched.push(lastEffect.index)
      this.pushes += 1
      at += 1
    }
    if (reuseLive) this.reads.update(assembler, touched)
    else this.reads.rebuild(assembler)
    this.live = { k, assembler, lastEffect }
    return this.frame(k, assembler, lastEffect)
  }

  private checkpointAtOrBelow(k: number): Checkpoint {
    // The first checkpoint is at 0, so one is always at or below k.
    const at = partitionPoint(this.checkpoints.length, (i) => this.checkpoints[i]!.pos <= k) - 1
    return this.checkpoints[Math.max(0, at)]!
  }

  /**
   * The seq of the chunk at `pos`, also for the one a window's carried end names as the chunk whose push threw
   * (`errorPos` outside the window, {@link AttemptWindow.thrown}).
   */
  seqAt(pos: number): number | undefined {
    return this.chunks.at(pos)?.seq ?? (pos === this.thrown?.pos ? this.thrown.seq : undefined)
  }

  private frame(k: number, assembler: BlockAssembler, lastEffect: Effect | null): ReplayFrame {
    const findingCount =
      k === this.total ? this.findings.length : upperBound(this.findings, this.perChunkFindings, k)
    const read = this.reads.read(assembler)
    // A push before the window threw: the carried state says only that (-1); the carried end says which chunk.
    const thrownBefore = read.errorPos === -1 && this.thrown !== undefined
    return {
      ...read,
      ...(thrownBefore ? { errorPos: this.thrown!.pos } : {}),
      k,
      total: this.total,
      last:
        k > 0 && lastEffect !== null
          ? { pos: k - 1, chunk: this.chunks.at(k - 1)!, effect: lastEffect }
          : null,
      findingCount,
      ignoredCount: upperBound(this.ignored, this.ignored.length, k),
    }
  }
}

type Checkpoint = { readonly pos: number; readonly snapshot: AssemblerSnapshot }

/**
 * The first pass of a {@link ReplayEngine}, resumable so a UI can build a million-chunk engine in slices between
 * frames (`advance(50_000)` until it returns true), with `processed / chunks.length` as progress.
 */
export class ReplayBuilder {
  readonly effectCodes: Uint8Array
  readonly lives = new Map<number, MutableLife>()
  readonly checkpoints: Checkpoint[]
  readonly pass: AssemblyPass
  readonly streaming: boolean
  readonly outside: ReplayOptions['outside']
  private sinceCheckpoint = 0

  readonly chunks: ChunkList

  constructor(chunks: readonly SourcedChunk[] | ChunkList, options: ReplayOptions = {}) {
    this.chunks = chunkListOf(chunks)
    const every = Math.max(1, options.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY)
    this.streaming = options.streaming === true
    this.outside = options.outside
    this.effectCodes = new Uint8Array(chunks.length)
    this.pass = new AssemblyPass(
      chunks,
      (pos, effect, current) => {
        this.effectCodes[pos] = encodeEffect(effect)
        if ('index' in effect) trackLife(this.lives, effect, pos, current)
        this.sinceCheckpoint += 1
        if (this.sinceCheckpoint >= every && this.sinceCheckpoint * 4 >= current.openCount) {
          this.checkpoints.push({ pos: pos + 1, snapshot: current.snapshot() })
          this.sinceCheckpoint = 0
        }
      },
      options.streaming === true || options.outside !== undefined,
    )
    const initial = options.initialState
    if (initial !== undefined) {
      this.pass.assembler.importState(initial)
      seedLives(this.lives, this.pass.assembler)
      const carried = options.outside?.startChecks
      if (carried !== undefined) this.pass.checker.importState(carried)
      else seedChecker(this.pass, this.chunks.at(0)?.seq ?? 0)
    }
    this.checkpoints = [{ pos: 0, snapshot: this.pass.assembler.snapshot() }]
  }

  get processed(): number {
    return this.pass.pos
  }

  /** Processes up to `count` more chunks; true when the pass is complete. */
  advance(count = Infinity): boolean {
    return this.pass.advance(count)
  }
}

type MutableLife = { -readonly [K in keyof BlockLife]: BlockLife[K] } & { touches: number[] }

function trackLife(
  lives: Map<number, MutableLife>,
  effect: Effect & { index: number },
  pos: number,
  assembler: BlockAssembler,
): void {
  let life = lives.get(effect.index)
  if (life === undefined) {
    life = {
      index: effect.index,
      order: lives.size,
      // Shown as text everywhere (lanes, cards): any value a block-start carried, as text that never throws.
      blockType: showValue(assembler.partial(effect.index)?.blockType ?? 'unknown'),
      implicit: effect.kind !== 'open',
      openedAt: pos,
      closedAt: null,
      touches: [],
      acceptedDeltas: 0,
    }
    lives.set(effect.index, life)
  }
  life.touches.push(pos)
  if (effect.kind === 'close') life.closedAt = pos
  if (effect.kind === 'append-text' || effect.kind === 'append-arguments') life.acceptedDeltas += 1
}

/** Lives for the blocks an initial state already holds (positions before the window clamp to 0). */
function seedLives(lives: Map<number, MutableLife>, assembler: BlockAssembler): void {
  for (const index of assembler.indexes) {
    const partial = assembler.partial(index)
    if (partial === undefined) continue
    lives.set(index, {
      index,
      order: lives.size,
      blockType: showValue(partial.blockType),
      implicit: false,
      openedAt: 0,
      closedAt: partial.block ? 0 : null,
      touches: [],
      // Unknown before the window; what matters is whether the deltas built anything (for `differs`).
      acceptedDeltas: partial.text !== '' || partial.toolCallArguments !== '' ? 1 : 0,
    })
  }
}

/**
 * For a window link made before the checks' memory travelled (docs/protocol.md §14): brings the checker to the
 * initial state by showing it the chunks that would have built it (a start per block, an
 * empty delta when the deltas built something, an end when frozen, usage, finish); what it reports meanwhile is
 * dropped: those findings belong to chunks before the window.
 */
function seedChecker(pass: AssemblyPass, seq: number): void {
  const { checker, assembler } = pass
  const before = checker.findings.length
  for (const index of assembler.indexes) {
    const partial = assembler.partial(index)
    if (partial === undefined) continue
    const { blockType } = partial
    checker.observe(
      { type: 'block-start', index, blockType },
      { kind: 'open', index, blockType },
      assembler,
      0,
      seq,
    )
    if (partial.text !== '' || partial.toolCallArguments !== '') {
      if (blockType === 'tool-call') {
        const chunk = {
          type: 'tool-call-delta',
          index,
          id: partial.toolCallId ?? '',
          argumentsDelta: '',
        } as const
        const effect = {
          kind: 'append-arguments',
          index,
          chars: 0,
          implicit: false,
          idChanged: false,
          nameChanged: false,
        } as const
        checker.observe(chunk, effect, assembler, 0, seq)
      } else {
        const type = blockType === 'reasoning' ? 'reasoning-delta' : 'text-delta'
        checker.observe(
          { type, index, text: '' },
          { kind: 'append-text', index, chars: 0, implicit: false },
          assembler,
          0,
          seq,
        )
      }
    }
    const block = partial.block
    if (block !== undefined)
      checker.observe(
        { type: 'block-end', index, block },
        { kind: 'close', index, implicit: false, block },
        assembler,
        0,
        seq,
      )
  }
  const usage = assembler.usage
  if (usage !== undefined) checker.observe({ type: 'usage', usage }, { kind: 'usage-set' }, assembler, 0, seq)
  if (assembler.hasFinish) {
    const reason = assembler.finish
    checker.observe({ type: 'finish', reason }, { kind: 'finish-set' }, assembler, 0, seq)
  }
  checker.findings.splice(before)
}

/** Number of items among the first `limit` whose position is below k. */
function upperBound(items: readonly { pos: number }[], limit: number, k: number): number {
  return partitionPoint(limit, (i) => items[i]!.pos < k)
}
