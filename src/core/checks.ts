import { assembleOpen, type BlockAssembler } from './BlockAssembler'
import type { Effect } from './effects'
import { isStreamChunk, type AnyChunk, type ContentBlock } from './protocol'
import { jsonEqual } from './jsonEqual'
import { isJsonText } from './base/isJsonText'

export type Severity = 'error' | 'warning' | 'info'

/** The rule ids of docs/protocol.md §5. They are stable: tests, CLI output and the UI all use them. */
export const RULES = {
  'index-invalid': 'error',
  'index-order': 'error',
  'start-duplicate': 'error',
  'delta-without-start': 'warning',
  'delta-type-mismatch': 'error',
  'delta-after-end': 'error',
  'end-without-start': 'warning',
  'end-duplicate': 'error',
  'end-type-mismatch': 'error',
  'end-content-mismatch': 'warning',
  'blocks-overlap': 'info',
  'usage-missing': 'warning',
  'usage-duplicate': 'warning',
  'finish-missing': 'warning',
  'chunk-after-finish': 'error',
  'finish-open-blocks': 'error',
  'finish-reason-inconsistent': 'warning',
  'tool-arguments-invalid': 'warning',
  'tool-call-dropped': 'info',
  'tool-call-id-missing': 'warning',
  'replay-misaligned': 'warning',
  'unknown-block-type': 'error',
  'unknown-chunk': 'error',
  'end-without-block': 'error',
  'block-text-invalid': 'error',
  'replay-state-invalid': 'error',
  'recorded-mismatch': 'error',
  'wire-sequence': 'warning',
} as const satisfies Record<string, Severity>

export type RuleId = keyof typeof RULES

/**
 * The values a finding's message is made of, so that a UI can say it in another language: the browser renders
 * `finding.<rule>` from its catalogue with these (docs/i18n.md), the CLI and `--json` print `message` as it is.
 */
export type FindingParams = Readonly<Record<string, string | number>>

export type Finding = {
  readonly rule: RuleId
  readonly severity: Severity
  /** The seq of the chunk that shows it; for end-of-stream rules the last chunk's seq. */
  readonly seq: number
  readonly message: string
  /** What `message` says, as values (absent where a finding was read back from a share link). */
  readonly params?: FindingParams
  /** 0-based position of that chunk in the stream (what the UI seeks to). */
  readonly pos: number
}

/** {@link StreamChecker.exportState}: indexes as the chunks gave them (any JSON value), the rest counts. */
export type CheckerState = {
  readonly seen: readonly number[]
  readonly open: readonly number[]
  readonly started: readonly number[]
  readonly withDeltas: readonly number[]
  readonly usageCount: number
  readonly finishSeen: boolean
}

/** No chunk's index (a chunk may lack one: `undefined` must not look seen). */
const NO_INDEX = Symbol('no index')

const DELTA_BLOCK_TYPE = {
  'text-delta': 'text',
  'reasoning-delta': 'reasoning',
  'tool-call-delta': 'tool-call',
} as const

/**
 * Runs the checks of docs/protocol.md §5 alongside an assembler. Feed it every chunk right after the assembler's
 * push (with the effect that push returned), then call `end` once with the final assembler.
 *
 * @example
 * const checker = new StreamChecker()
 * const effect = assembler.push(chunk); checker.observe(chunk, effect, assembler, pos, seq)
 * const findings = checker.end(assembler)
 */
export class StreamChecker {
  readonly findings: Finding[] = []
  /** Where the end-of-stream findings begin in `findings` (its length until `end` runs). */
  endFindingsFrom = -1
  private readonly open = new Set<number>()
  /** Open blocks that a block-start opened: rule 6 (§2) concerns these; a delta-only stream never closes any. */
  private readonly started = new Set<number>()
  /** Blocks that accepted a delta (only whether any did matters, at their block-end). */
  private readonly withDeltas = new Set<number>()
  private readonly seen = new Set<number>()
  /**
   * The index of the previous chunk that had one, already in `seen` and (when `deltaSeen`) in `withDeltas`: runs of
   * chunks for one block skip the hashing (NaN never equals itself, so it always takes the sets' way).
   */
  private lastIndex: unknown = NO_INDEX
  private deltaSeen = false
  private finishSeen = false
  private usageCount = 0
  private lastSeq = 0
  private lastPos = -1

  /**
   * A finding at the chunk last observed (for the end-of-stream rules, the stream's last chunk). A method rather
   * than a closure built per call: a 100 MB log pushes millions of chunks through `observe`.
   */
  private add(rule: RuleId, message: string, params: FindingParams = {}): void {
    const { lastSeq: seq, lastPos: pos } = this
    this.findings.push({ rule, severity: RULES[rule], seq, message, params, pos })
  }

  /**
   * What the checks remember of the chunks so far, as plain JSON: a window link carries it beside the assembler's
   * state (docs/protocol.md §14), since the assembler alone does not say which open blocks a block-start opened
   * (rule `finish-open-blocks`), which took only empty deltas (`end-content-mismatch`), how many usage chunks came
   * (`usage-duplicate`), or that a falsy `block` left a block open (`blocks-overlap`).
   */
  exportState(): CheckerState {
    return {
      seen: [...this.seen],
      open: [...this.open],
      started: [...this.started],
      withDeltas: [...this.withDeltas],
      usageCount: this.usageCount,
      finishSeen: this.finishSeen,
    }
  }

  /** Continues from an exported state (its findings are not repeated: they belong to the chunks before). */
  importState(state: CheckerState): void {
    for (const [target, items] of [
      [this.seen, state.seen],
      [this.open, state.open],
      [this.started, state.started],
      [this.withDeltas, state.withDeltas],
    ] as const) {
      target.clear()
      for (const item of items) target.add(item)
    }
    this.usageCount = state.usageCount
    this.finishSeen = state.finishSeen
    this.lastIndex = NO_INDEX
    this.deltaSeen = false
  }

  observe(chunk: AnyChunk, effect: Effect, assembler: BlockAssembler, pos: number, seq: number): void {
    this.lastSeq = seq
    this.lastPos = pos
    // The harness's agent loop stopped at the push that threw: it never checks, or even reads, what follows.
    if (effect.kind === 'after-error') return
    if (this.finishSeen)
      this.add('chunk-after-finish', `${show(chunk.type)} after the stream's finish`, {
        type: show(chunk.type),
      })
    if (effect.kind === 'unknown-chunk' || effect.kind === 'push-error' || !isStreamChunk(chunk)) {
      const why = isStreamChunk(chunk)
        ? `a ${chunk.type} the harness cannot read`
        : 'not one of the seven chunk types'
      const error = 'error' in effect ? effect.error : ''
      this.add(
        'unknown-chunk',
        `${why}: the harness's push throws "${error}" here, so its agent loop reads no further chunk and the attempt ends in that error`,
        { known: isStreamChunk(chunk) ? 'yes' : 'no', type: show(chunk.type), error },
      )
      return
    }
    if (chunk.type === 'usage') {
      this.usageCount += 1
      if (this.usageCount > 1)
        this.add('usage-duplicate', `usage chunk #${this.usageCount}; the last one wins`, {
          n: this.usageCount,
        })
      return
    }
    if (chunk.type === 'finish') {
      const kind = chunk.reason?.kind
      if ((kind === 'stop' || kind === 'tool-calls' || kind === 'max-tokens') && this.started.size > 0) {
        this.add('finish-open-blocks', `finish ${kind} while ${describeOpen(this.started)} still open`, {
          reason: kind,
          ...openParams(this.started),
        })
      }
      this.finishSeen = true
      return
    }

    const index = chunk.index
    const validIndex = Number.isSafeInteger(index) && index >= 0
    if (!validIndex)
      this.add('index-invalid', `index ${JSON.stringify(index)} is not a non-negative integer`, {
        index: String(JSON.stringify(index)),
      })
    const isNew = index !== this.lastIndex && !this.seen.has(index)
    if (index !== this.lastIndex) {
      this.lastIndex = index
      this.deltaSeen = false
    }
    if (isNew) {
      if (validIndex && index !== this.seen.size) {
        this.add(
          'index-order',
          `block ${show(index)} opened where block ${this.seen.size} was expected next`,
          {
            index: show(index),
            expected: this.seen.size,
          },
        )
      }
      if (this.open.size > 0) {
        this.add('blocks-overlap', `block ${show(index)} opens while ${describeOpen(this.open)} still open`, {
          index: show(index),
          ...openParams(this.open),
        })
      }
      this.seen.add(index)
      this.open.add(index)
      if (chunk.type === 'block-start') this.started.add(index)
    }
    const partial = assembler.partial(index)

    switch (chunk.type) {
      case 'block-start':
        if (!isNew)
          this.add('start-duplicate', `second block-start for block ${show(index)}; ignored`, {
            index: show(index),
          })
        return
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta': {
        if (isNew)
          this.add(
            'delta-without-start',
            `block ${show(index)} begins with a ${chunk.type} (no block-start)`,
            {
              index: show(index),
              type: chunk.type,
            },
          )
        if (effect.kind === 'ignored-straggler') {
          this.add('delta-after-end', `${chunk.type} for block ${show(index)} after its block-end; ignored`, {
            type: chunk.type,
            index: show(index),
          })
          return
        }
        if (!this.deltaSeen) {
          this.withDeltas.add(index)
          this.deltaSeen = true
        }
        const expected = DELTA_BLOCK_TYPE[chunk.type]
        if (partial && partial.blockType !== expected) {
          const lost =
            partial.blockType === 'tool-call' ? ' (its text is lost: tool calls assemble from arguments)' : ''
          this.add(
            'delta-type-mismatch',
            `${chunk.type} into ${show(partial.blockType)} block ${show(index)}${lost}`,
            {
              type: chunk.type,
              blockType: show(partial.blockType),
              index: show(index),
              lost: lost === '' ? 'no' : 'yes',
            },
          )
        }
        return
      }
      case 'block-end': {
        if (effect.kind === 'ignored-reclose') {
          this.add('end-duplicate', `second block-end for block ${show(index)}; ignored (first close wins)`, {
            index: show(index),
          })
          return
        }
        if (effect.kind === 'close-without-block') {
          this.add(
            'end-without-block',
            `block-end for block ${show(index)} carries ${show(chunk.block)} as its block; the harness tests \`if (partial.block)\`, so block ${show(index)} stays open and assembles from its deltas`,
            { index: show(index), block: show(chunk.block) },
          )
          return
        }
        const closedType: unknown = (chunk.block as { type?: unknown }).type
        const closedText: unknown = (chunk.block as { text?: unknown }).text
        if ((closedType === 'text' || closedType === 'reasoning') && typeof closedText !== 'string') {
          this.add(
            'block-text-invalid',
            `block-end for block ${show(index)}: a ${closedType} block whose text is ${show(closedText)}, not a string; the harness's interruptedBlocks() throws on it, so a cancel after this chunk keeps nothing`,
            { index: show(index), blockType: closedType, text: show(closedText) },
          )
        }
        this.open.delete(index)
        this.started.delete(index)
        if (isNew)
          this.add('end-without-start', `block-end for block ${show(index)}, never seen before`, {
            index: show(index),
          })
        if (!partial) return
        if (chunk.block.type !== partial.blockType) {
          this.add(
            'end-type-mismatch',
            `block-end type ${show(chunk.block.type)} for a ${show(partial.blockType)} block ${show(index)}`,
            { endType: show(chunk.block.type), blockType: show(partial.blockType), index: show(index) },
          )
        }
        if (this.withDeltas.has(index)) {
          const streamed = tryAssembleOpen(partial, index)
          if (streamed !== null && !jsonEqual(streamed, chunk.block)) {
            // Still the rule's warning (docs/protocol.md §5), but said plainly when the arguments only differ in
            // how their JSON is written: a route that re-serialises the parsed input (pi-ai's, §9) closes every
            // tool call the provider streamed with spaces this way, and the reader should not hunt for a change.
            const formatting = argumentsFormattingOnly(streamed, chunk.block)
            this.add(
              'end-content-mismatch',
              formatting
                ? `block-end for block ${show(index)} has the arguments its deltas built, as JSON written another way; the block-end wins`
                : `block-end for block ${show(index)} differs from what its deltas built; the block-end wins`,
              { index: show(index), formatting: formatting ? 'yes' : 'no' },
            )
          }
        }
        return
      }
    }
  }

  /**
   * Whether deltas of `deltaType` into block `index` would each pass {@link observe} without a finding: the block
   * was seen and is open with that type, its index is valid, no finish came. All they change then is which block
   * the last chunk had, that it had a delta, and the last seq ({@link skipQuiet}): a packed row's members are taken
   * whole instead of observed one by one.
   */
  takesQuietly(deltaType: keyof typeof DELTA_BLOCK_TYPE, index: unknown, assembler: BlockAssembler): boolean {
    if (this.finishSeen || !Number.isSafeInteger(index) || (index as number) < 0) return false
    if (!this.seen.has(index as number)) return false
    const partial = assembler.partial(index as number)
    return partial !== undefined && !partial.block && partial.blockType === DELTA_BLOCK_TYPE[deltaType]
  }

  /**
   * Deltas into block `index` that {@link takesQuietly} vouched for, taken whole: what observing each does. The last
   * of them was at `pos`, seq `seq`.
   */
  skipQuiet(index: number, pos: number, seq: number): void {
    if (index !== this.lastIndex) {
      this.lastIndex = index
      this.deltaSeen = false
    }
    if (!this.deltaSeen) {
      this.withDeltas.add(index)
      this.deltaSeen = true
    }
    this.lastPos = pos
    this.lastSeq = seq
  }

  /** End-of-stream rules, evaluated on the final state; their seq is the last chunk's. */
  end(assembler: BlockAssembler): Finding[] {
    const pos = this.lastPos
    this.endFindingsFrom = this.findings.length
    // A push threw: the harness's attempt ended in that error (reported at its chunk), not at a stream end.
    if (pos < 0 || assembler.failure !== undefined) return this.findings
    if (!assembler.hasFinish)
      this.add('finish-missing', 'the stream ends without a finish chunk; it reads as stop')
    else if (this.usageCount === 0) this.add('usage-missing', 'the stream has a finish but no usage chunk')

    let assembled
    try {
      assembled = assembler.assembled()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (message.startsWith('cannot assemble')) this.add('unknown-block-type', message, { error: message })
      else
        this.add(
          'replay-state-invalid',
          `reading the result throws "${message}": the finish's replayState.blocks is not an array`,
          { error: message },
        )
      return this.findings
    }
    const finish = assembler.finish
    const toolCalls = assembled.all.filter((block) => block.type === 'tool-call')
    if (finish.kind === 'tool-calls' && toolCalls.length === 0) {
      this.add('finish-reason-inconsistent', 'finish tool-calls but the message has no tool-call block', {
        variant: 'none',
        count: 0,
      })
    } else if (finish.kind === 'stop' && assembler.hasFinish && toolCalls.length > 0) {
      this.add(
        'finish-reason-inconsistent',
        `finish stop but the message has ${toolCalls.length} tool-call block(s)`,
        { variant: 'stop', count: toolCalls.length },
      )
    }
    const dropped = assembled.all.length - assembled.blocks.length
    if (dropped > 0)
      this.add('tool-call-dropped', `max-tokens dropped ${dropped} tool-call block(s)`, { count: dropped })

    for (const [position, index] of assembler.indexes.entries()) {
      const block = assembled.all[position]
      if (block?.type !== 'tool-call') continue
      const partial = assembler.partial(index)
      const call = block as ContentBlock & { id?: unknown; arguments?: unknown }
      const synthesized =
        partial !== undefined && partial.block === undefined && partial.toolCallId === undefined
      if (call.id === '' || synthesized) {
        this.add(
          'tool-call-id-missing',
          `tool call in block ${show(index)} has ${synthesized ? `the synthesized id ${show(call.id)}` : 'an empty id'}`,
          { index: show(index), synthesized: synthesized ? 'yes' : 'no', id: show(call.id) },
        )
      }
      if (dropped > 0) continue // only kept blocks are checked for arguments
      if (!isJsonText(call.arguments)) {
        this.add(
          'tool-arguments-invalid',
          `tool call in block ${show(index)}: arguments are not valid JSON`,
          {
            index: show(index),
          },
        )
      }
    }
    const envelope = assembler.rawReplayState
    if (envelope?.blocks !== undefined && envelope.blocks.length !== assembled.all.length) {
      this.add(
        'replay-misaligned',
        `replayState has ${envelope.blocks.length} block entries for ${assembled.all.length} blocks; discarded`,
        { entries: envelope.blocks.length, blocks: assembled.all.length },
      )
    }
    return this.findings
  }
}

/** "block 3 is" / "blocks 0, 1 are" / "blocks 0, 1, 2, … (20000 in all) are": bounded, whatever the count. */
function describeOpen(open: ReadonlySet<number>): string {
  if (open.size === 1) return `block ${show([...open][0])} is`
  const shown: number[] = []
  for (const index of open) {
    if (shown.length === 3) break
    shown.push(index)
  }
  return `blocks ${shown.map(show).join(', ')}${open.size > 3 ? `, … (${open.size} in all)` : ''} are`
}

/** `describeOpen` as values: the count, the first three indexes shown, and whether more were left out. */
function openParams(open: ReadonlySet<number>): FindingParams {
  const shown: string[] = []
  for (const index of open) {
    if (shown.length === 3) break
    shown.push(show(index))
  }
  return { count: open.size, blocks: shown.join(', '), more: open.size > 3 ? 'yes' : 'no' }
}

/** Any value a chunk carries, as message text that never throws (an object with its own `toString` key would). */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return typeof value
  }
}

const show = showValue

/**
 * Whether two tool-call blocks differ only in how their arguments' JSON is written: every other field equal, and
 * both arguments JSON text of equal values (`{"a": 1}` and `{"a":1}`), or no arguments streamed (an empty or blank
 * delta, as Anthropic streams a tool that takes none) and `{}` stored.
 */
function argumentsFormattingOnly(streamed: ContentBlock, ended: unknown): boolean {
  if (streamed.type !== 'tool-call' || typeof ended !== 'object' || ended === null) return false
  const end = ended as Record<string, unknown>
  const args: unknown = (streamed as { readonly arguments?: unknown }).arguments
  if (end['type'] !== 'tool-call' || typeof end['arguments'] !== 'string' || typeof args !== 'string')
    return false
  if (!jsonEqual({ ...streamed, arguments: '' }, { ...end, arguments: '' })) return false
  try {
    const stored: unknown = JSON.parse(end['arguments'])
    if (args.trim() === '') return jsonEqual(stored, {})
    return jsonEqual(JSON.parse(args), stored)
  } catch {
    return false
  }
}

function tryAssembleOpen(partial: Parameters<typeof assembleOpen>[0], index: number): ContentBlock | null {
  try {
    return assembleOpen(partial, index)
  } catch {
    return null
  }
}
