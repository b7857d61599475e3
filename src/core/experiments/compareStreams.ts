import { BlockAssembler } from '../BlockAssembler'
import type { RuleId } from '../checks'
import { jsonEqual } from '../jsonEqual'
import type { ContentBlock, SourcedChunk } from '../protocol'
import { diffOutcomes, outcomeOf, type OutcomeDiff, type StreamOutcome } from './outcome'

/**
 * Two recordings of a stream side by side (docs/protocol.md §13): their blocks aligned by first-seen position,
 * what differs in each, how each was chunked and timed, and the §5 rules that fire in one and not the other.
 */
export type StreamTiming = {
  readonly chunks: number
  readonly deltas: number
  readonly characters: number
  /** First chunk → first token (a delta with text, arguments or a name, §11); null without usable times. */
  readonly ttftMs: number | null
  readonly durationMs: number | null
  readonly medianGapMs: number | null
  readonly maxGapMs: number | null
  readonly charsPerSecond: number | null
}

export type BlockSide = {
  readonly type: string
  /** Text, reasoning or tool-call arguments: what the deltas build. */
  readonly content: string
  readonly deltas: number
  readonly block: ContentBlock
}

export type BlockComparison = {
  readonly position: number
  readonly a: BlockSide | null
  readonly b: BlockSide | null
  /** null when the blocks are equal; else the first field that differs (`block` when one side has none). */
  readonly field: string | null
  /** Characters of `content` both share from the start. */
  readonly commonPrefix: number
}

export type StreamComparison = {
  readonly a: { readonly outcome: StreamOutcome; readonly timing: StreamTiming }
  readonly b: { readonly outcome: StreamOutcome; readonly timing: StreamTiming }
  /** B against A: null when message and findings agree. */
  readonly diff: OutcomeDiff | null
  readonly blocks: readonly BlockComparison[]
  /** Rule → count, for rules that fire more often in A (resp. B). */
  readonly onlyA: readonly { readonly rule: RuleId; readonly count: number }[]
  readonly onlyB: readonly { readonly rule: RuleId; readonly count: number }[]
}

/**
 * @example
 * compareStreams(broken.chunks, fixed.chunks).blocks.filter((b) => b.field !== null) // the blocks that differ
 */
export function compareStreams(a: readonly SourcedChunk[], b: readonly SourcedChunk[]): StreamComparison {
  const outcomeA = outcomeOf(a)
  const outcomeB = outcomeOf(b)
  const left = sidesOf(a)
  const right = sidesOf(b)
  const blocks: BlockComparison[] = []
  for (let position = 0; position < Math.max(left.length, right.length); position++) {
    const x = left[position] ?? null
    const y = right[position] ?? null
    blocks.push({
      position,
      a: x,
      b: y,
      field: fieldOf(x, y),
      commonPrefix: prefix(x?.content ?? '', y?.content ?? ''),
    })
  }
  const excess = (p: StreamOutcome, q: StreamOutcome) =>
    Object.entries(p.rules)
      .map(([rule, count]) => ({ rule: rule as RuleId, count: count - (q.rules[rule] ?? 0) }))
      .filter((entry) => entry.count > 0)
  return {
    a: { outcome: outcomeA, timing: timingOf(a) },
    b: { outcome: outcomeB, timing: timingOf(b) },
    diff: diffOutcomes(outcomeA, outcomeB),
    blocks,
    onlyA: excess(outcomeA, outcomeB),
    onlyB: excess(outcomeB, outcomeA),
  }
}

/** Every block in first-seen order (tool calls that max-tokens drops included), with its delta count. */
function sidesOf(chunks: readonly SourcedChunk[]): BlockSide[] {
  const assembler = new BlockAssembler()
  const deltas = new Map<number, number>()
  for (const { chunk } of chunks) {
    const effect = assembler.push(chunk)
    if (chunk.type.endsWith('-delta') && 'index' in effect)
      deltas.set(effect.index, (deltas.get(effect.index) ?? 0) + 1)
  }
  let all: readonly ContentBlock[]
  try {
    all = assembler.assembled().all
  } catch {
    // An open block of an unknown type makes the read side throw (§3): what a cancel would keep is still there.
    try {
      all = assembler.interruptedBlocks()
    } catch {
      all = []
    }
  }
  const order = assembler.indexes
  return all.map((block, position) => {
    const fields = block as Readonly<Record<string, unknown>>
    const content = block.type === 'tool-call' ? fields['arguments'] : fields['text']
    return {
      type: block.type,
      content: typeof content === 'string' ? content : JSON.stringify(content ?? null),
      deltas: deltas.get(order[position] ?? -1) ?? 0,
      block,
    }
  })
}

function fieldOf(a: BlockSide | null, b: BlockSide | null): string | null {
  if (a === null || b === null) return 'block'
  if (jsonEqual(a.block, b.block)) return null
  if (a.type !== b.type) return 'type'
  const x = a.block as Readonly<Record<string, unknown>>
  const y = b.block as Readonly<Record<string, unknown>>
  for (const key of ['text', 'arguments', 'id', 'name']) if (!jsonEqual(x[key], y[key])) return key
  return 'block'
}

function prefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** A gap longer than this is a broken clock, not a stall (§6: times lie; the Metrics panel uses the same bound). */
const HUGE_GAP_MS = 10 * 60_000

/** Times are data, not truth (§6): null and zero times are skipped, negative and huge gaps left out. */
export function timingOf(chunks: readonly SourcedChunk[]): StreamTiming {
  let deltas = 0
  let characters = 0
  let last: number | null = null
  let elapsed = 0
  let ttft: number | null = null
  let tokenSeen = false
  const gaps: number[] = []
  for (const { chunk, time } of chunks) {
    const fields = chunk as Readonly<Record<string, unknown>>
    const piece = chunk.type === 'tool-call-delta' ? fields['argumentsDelta'] : fields['text']
    const isDelta = chunk.type.endsWith('-delta')
    if (isDelta) deltas += 1
    if (isDelta && typeof piece === 'string') characters += piece.length
    const isToken =
      isDelta &&
      ((typeof piece === 'string' && piece !== '') ||
        (typeof fields['name'] === 'string' && fields['name'] !== ''))
    if (time !== null && Number.isFinite(time) && time > 0) {
      const gap = last === null ? null : time - last
      if (gap !== null && gap >= 0 && gap <= HUGE_GAP_MS) {
        gaps.push(gap)
        elapsed += gap
      }
      last = time
      if (isToken && !tokenSeen) ttft = elapsed
    }
    if (isToken) tokenSeen = true
  }
  const usable = gaps.length > 0
  const sorted = gaps.sort((x, y) => x - y)
  return {
    chunks: chunks.length,
    deltas,
    characters,
    ttftMs: usable ? ttft : null,
    durationMs: usable ? elapsed : null,
    medianGapMs: usable ? sorted[Math.floor(sorted.length / 2)]! : null,
    maxGapMs: usable ? sorted.at(-1)! : null,
    charsPerSecond: usable && elapsed > 0 ? (characters * 1000) / elapsed : null,
  }
}
