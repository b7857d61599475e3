import { BlockAssembler, assembleOpen, type PartialBlock } from './BlockAssembler'
import { jsonEqual } from './jsonEqual'
import { isRecord } from './base/isRecord'
import type { ContentBlock, SourcedChunk } from './protocol'
import type { Attempt } from './session'

/**
 * Where a stream stops agreeing with its recorded `assistant/message` (docs/protocol.md §6): the first chunk after
 * which some block's assembled content is no longer a prefix of the recorded block (text, reasoning, tool-call
 * arguments, id or name), or a block closes, is dropped or ends differently from the record. The cause is named
 * when it is one of the known ways a record and its chunks part (docs/protocol.md §3, §5).
 */
export type FirstDivergence = {
  /** Position of the chunk in the attempt. */
  readonly pos: number
  readonly seq: number
  /** Position of the block in the message (0 = its first block), as the recorded-mismatch text counts. */
  readonly block: number
  /** What differs first there: `text`, `arguments`, `id`, `name`, `type`, or `block` (an extra or missing one). */
  readonly field: string
  readonly cause: DivergenceCause | null
}

export type DivergenceCause =
  /** Chunks the message cites, or seqs between the attempt's chunks, are not in the log (`missing`, ranges). */
  | { readonly kind: 'seq-gap'; readonly missing: readonly (readonly [number, number])[] }
  /** A delta after the block's block-end (ignored, §3 A2) holds what the record has. */
  | { readonly kind: 'straggler'; readonly seq: number }
  /** The first block-end wins (§3 A3) but the record follows the deltas or a later close. */
  | { readonly kind: 'first-close-differs' }
  /** The finish is max-tokens: `blocks()` drops every tool call (§3 A5), the record kept one. */
  | { readonly kind: 'max-tokens-drop' }
  /** The block-end carries the same tool-call arguments as JSON, written differently. */
  | { readonly kind: 're-serialised-block-end' }
  /** A push threw here (§3): the harness assembled nothing to compare. */
  | { readonly kind: 'push-error' }

export type DivergenceInput = {
  readonly chunks: readonly SourcedChunk[]
  /** The recorded content. */
  readonly expected: readonly ContentBlock[]
  /** Compared with `interruptedBlocks()` rather than `blocks()`. */
  readonly interrupted?: boolean
  /** Seqs the message cites that are no event in the log. */
  readonly missing?: readonly number[]
}

/**
 * @example
 * firstDivergence({ chunks: attempt.chunks, expected: recorded.content, missing: recorded.citation.missing })
 * // { pos: 2, seq: 99, block: 0, field: 'text', cause: { kind: 'seq-gap', missing: [[6, 86], [88, 98]] } }
 */
export function firstDivergence(input: DivergenceInput): FirstDivergence | null {
  const { chunks, expected } = input
  const final = new BlockAssembler()
  for (const sourced of chunks) final.push(sourced.chunk)
  if (final.failure !== undefined) {
    const pos = Math.max(0, final.failure.pos)
    return { pos, seq: chunks[pos]?.seq ?? 0, block: 0, field: 'block', cause: { kind: 'push-error' } }
  }
  let all: readonly ContentBlock[]
  let compared: readonly ContentBlock[]
  try {
    all = final.assembled().all
    compared = input.interrupted === true ? final.interruptedBlocks() : final.blocks()
  } catch {
    return null
  }
  if (jsonEqual(compared, expected)) return null
  // Block position in first-seen order → position in the compared list (null: left out, e.g. dropped by max-tokens).
  const slot = subsequence(all, compared)
  const gaps = seqGaps(chunks, input.missing ?? [])
  const order = final.indexes
  const positionOf = new Map(order.map((index, position) => [index, position]))
  const assembler = new BlockAssembler()
  const firstTouch = new Map<number, number>()
  const at = (pos: number, block: number, field: string, cause: DivergenceCause | null) => ({
    pos,
    seq: chunks[pos]!.seq,
    block,
    field,
    cause,
  })
  for (let pos = 0; pos < chunks.length; pos++) {
    const { chunk, seq } = chunks[pos]!
    const effect = assembler.push(chunk)
    const reason = chunk.type === 'finish' ? (chunk as { reason?: { kind?: unknown } }).reason : undefined
    if (reason?.kind === 'max-tokens' && compared.length < all.length) {
      const kept = expected.some((block) => block.type === 'tool-call')
      if (kept) return at(pos, compared.length, 'block', { kind: 'max-tokens-drop' })
    }
    if (!('index' in effect)) continue
    const index = effect.index
    if (!firstTouch.has(index)) firstTouch.set(index, seq)
    const q = slot[positionOf.get(index) ?? -1]
    if (q === undefined || q === null) continue
    const want = expected[q]
    if (want === undefined) return at(pos, q, 'block', null)
    const partial = assembler.partial(index)
    if (partial === undefined) continue
    const gapCause = (): DivergenceCause | null => {
      const within = gaps.filter(([from, to]) => to >= firstTouch.get(index)! && from <= seq)
      return within.length > 0 ? { kind: 'seq-gap', missing: within } : null
    }
    if (effect.kind === 'close') {
      const block = partial.block!
      if (jsonEqual(block, want)) continue
      return at(
        pos,
        q,
        differingField(block, want),
        closeCause(chunks, partial, index, pos, want) ?? gapCause(),
      )
    }
    if (partial.block !== undefined) continue
    const field = openDifference(partial, want)
    if (field !== null) return at(pos, q, field, gapCause())
  }
  // Every chunk agreed as far as it went: the record has more blocks, or more in a block the stream never closed.
  const last = Math.max(0, chunks.length - 1)
  for (let q = 0; q < expected.length; q++) {
    const got = compared[q]
    if (got === undefined || !jsonEqual(got, expected[q])) {
      const missing = gaps.filter(([, to]) => to >= (chunks[0]?.seq ?? 0))
      const cause = missing.length > 0 ? ({ kind: 'seq-gap', missing } as const) : null
      return chunks.length === 0
        ? null
        : {
            pos: last,
            seq: chunks[last]!.seq,
            block: q,
            field: got ? differingField(got, expected[q]!) : 'block',
            cause,
          }
    }
  }
  return chunks.length === 0
    ? null
    : { pos: last, seq: chunks[last]!.seq, block: expected.length, field: 'block', cause: null }
}

/** Each block of the message that differs from the record, with the fields that differ, for the finding's text. */
export function differingBlocks(
  assembled: readonly ContentBlock[],
  expected: readonly ContentBlock[],
): { readonly block: number; readonly type: string; readonly fields: readonly string[] }[] {
  const out: { block: number; type: string; fields: string[] }[] = []
  for (let q = 0; q < Math.max(assembled.length, expected.length); q++) {
    const got = assembled[q]
    const want = expected[q]
    if (got === undefined || want === undefined) {
      out.push({ block: q, type: (got ?? want)!.type, fields: [got === undefined ? 'missing' : 'extra'] })
      continue
    }
    if (jsonEqual(got, want)) continue
    if (got.type !== want.type) {
      out.push({ block: q, type: want.type, fields: ['type'] })
      continue
    }
    const fields = FIELDS.filter((field) => !jsonEqual(fieldOf(got, field), fieldOf(want, field)))
    out.push({ block: q, type: want.type, fields: fields.length > 0 ? fields : ['other fields'] })
  }
  return out
}

/** The words for a cause, for findings and `lint`. */
export function describeCause(cause: DivergenceCause | null): string {
  if (cause === null) return 'cause unknown'
  switch (cause.kind) {
    case 'seq-gap':
      return `seqs ${cause.missing.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`)).join(', ')} missing from the log`
    case 'straggler':
      return `a straggler at seq ${cause.seq} (ignored after the block-end) holds what was recorded`
    case 'first-close-differs':
      return 'the first block-end wins, and it differs from what was recorded'
    case 'max-tokens-drop':
      return 'finish max-tokens drops every tool call; the record kept one'
    case 're-serialised-block-end':
      return 'the block-end re-serialises the same arguments differently'
    case 'push-error':
      return 'a push threw here'
  }
}

function closeCause(
  chunks: readonly SourcedChunk[],
  frozen: Readonly<PartialBlock>,
  blockIndex: number,
  closedAt: number,
  record: ContentBlock,
): DivergenceCause | null {
  const block: unknown = frozen.block
  let streamed: ContentBlock | null = null
  try {
    // What the deltas alone built: an open partial assembles by blockType (§3), ignoring the block.
    streamed = assembleOpen(frozen, blockIndex)
  } catch {
    streamed = null
  }
  if (streamed !== null && jsonEqual(streamed, record)) return { kind: 'first-close-differs' }
  // A block-end's `block` may be any truthy JSON value (`5`, docs/protocol.md §3), a record block too.
  const blockText = isRecord(block) ? block['text'] : undefined
  let text = typeof blockText === 'string' ? blockText : null
  for (let later = closedAt + 1; later < chunks.length; later++) {
    const next = chunks[later]!.chunk
    if (!('index' in next) || next.index !== blockIndex) continue
    if (next.type === 'block-end' && jsonEqual(next.block, record)) return { kind: 'first-close-differs' }
    if ((next.type === 'text-delta' || next.type === 'reasoning-delta') && text !== null) {
      text += next.text
      if (isRecord(record) && (record as Record<string, unknown>)['text'] === text)
        return { kind: 'straggler', seq: firstStraggler(chunks, blockIndex, closedAt) }
    }
  }
  if (
    isRecord(block) &&
    block['type'] === 'tool-call' &&
    isRecord(record) &&
    record.type === 'tool-call' &&
    sameJson(block as ContentBlock, record)
  )
    return { kind: 're-serialised-block-end' }
  return null
}

function firstStraggler(chunks: readonly SourcedChunk[], blockIndex: number, closedAt: number): number {
  for (let later = closedAt + 1; later < chunks.length; later++) {
    const next = chunks[later]!.chunk
    if ('index' in next && next.index === blockIndex && next.type !== 'block-end') return chunks[later]!.seq
  }
  return chunks[closedAt]!.seq
}

const FIELDS = ['text', 'id', 'name', 'arguments'] as const

function fieldOf(block: ContentBlock, field: string): unknown {
  return (block as Record<string, unknown>)[field]
}

function differingField(got: ContentBlock, want: ContentBlock): string {
  if (got.type !== want.type) return 'type'
  return FIELDS.find((field) => !jsonEqual(fieldOf(got, field), fieldOf(want, field))) ?? 'block'
}

/** The first field of an open block that is no longer a prefix of (or equal to, for id/name) the record. */
function openDifference(
  partial: {
    blockType: string
    text: string
    toolCallArguments: string
    toolCallId?: string
    toolCallName?: string
  },
  want: ContentBlock,
): string | null {
  if (partial.blockType !== want.type) return 'type'
  if (want.type === 'tool-call') {
    const call = want as ContentBlock & { id?: unknown; name?: unknown; arguments?: unknown }
    if (partial.toolCallId !== undefined && partial.toolCallId !== call.id) return 'id'
    if (partial.toolCallName !== undefined && partial.toolCallName !== call.name) return 'name'
    if (typeof call.arguments === 'string' && !call.arguments.startsWith(partial.toolCallArguments))
      return 'arguments'
    return null
  }
  const text = (want as { text?: unknown }).text
  if (typeof text === 'string' && !text.startsWith(partial.text)) return 'text'
  return null
}

function sameJson(a: ContentBlock, b: ContentBlock): boolean {
  const x = a as { id?: unknown; name?: unknown; arguments?: unknown }
  const y = b as { id?: unknown; name?: unknown; arguments?: unknown }
  if (
    x.id !== y.id ||
    x.name !== y.name ||
    typeof x.arguments !== 'string' ||
    typeof y.arguments !== 'string'
  )
    return false
  try {
    return x.arguments !== y.arguments && jsonEqual(JSON.parse(x.arguments), JSON.parse(y.arguments))
  } catch {
    return false
  }
}

/** Map each block of `all` to its position in `kept` (a subsequence of it), null when left out. */
function subsequence(all: readonly ContentBlock[], kept: readonly ContentBlock[]): (number | null)[] {
  const out: (number | null)[] = []
  let j = 0
  for (const block of all) {
    if (j < kept.length && jsonEqual(block, kept[j])) out.push(j++)
    else out.push(null)
  }
  return out
}

/** Missing seqs as ranges: the message's cited seqs absent from the log, and holes between the attempt's chunks. */
export function seqGaps(chunks: readonly SourcedChunk[], missing: readonly number[]): [number, number][] {
  const seqs = new Set<number>(missing)
  for (let i = 1; i < chunks.length; i++) {
    const before = chunks[i - 1]!.seq
    const after = chunks[i]!.seq
    // Only holes the message cites count when it cites any: other events (tool results, …) sit between chunks.
    if (missing.length === 0 && after - before > 1 && after - before < 1_000_000)
      for (let s = before + 1; s < after; s++) seqs.add(s)
  }
  const sorted = [...seqs].sort((a, b) => a - b)
  const ranges: [number, number][] = []
  for (const seq of sorted) {
    const last = ranges.at(-1)
    if (last !== undefined && last[1] === seq - 1) last[1] = seq
    else ranges.push([seq, seq])
  }
  return ranges
}

/**
 * The first divergence of an attempt from its recorded message; null when it matches or has none. A window of a
 * stream (a share link) carries the whole stream's, positions counted from the window's first chunk.
 */
export function attemptDivergence(attempt: Attempt): FirstDivergence | null {
  if (attempt.window !== undefined) return attempt.window.divergence ?? null
  const recorded = attempt.recorded
  if (recorded === null) return null
  return firstDivergence({
    chunks: attempt.chunks,
    expected: recorded.content,
    interrupted: recorded.interrupted,
    missing: recorded.citation.missing,
  })
}

/**
 * `; blocks 0 (reasoning: text), 1 (tool-call: id, name, arguments) differ; first divergence at seq 99, block 0
 * text: seqs 6–86, 88–98 missing from the log` — every differing block when more than one does, then where the
 * stream first parts from the record and why when known. Empty when there is nothing to add.
 */
export function describeMismatch(
  comparison: {
    readonly assembled: readonly ContentBlock[] | null
    readonly expected: readonly ContentBlock[]
  },
  divergence: FirstDivergence | null,
): string {
  const parts: string[] = []
  const blocks =
    comparison.assembled === null ? [] : differingBlocks(comparison.assembled, comparison.expected)
  if (blocks.length > 1)
    parts.push(
      `blocks ${blocks.map((d) => `${d.block} (${d.type}: ${d.fields.join(', ')})`).join(', ')} differ`,
    )
  if (divergence !== null) {
    const where = `block ${divergence.block}${divergence.field === 'block' ? '' : ` ${divergence.field}`}`
    const why = divergence.cause === null ? '' : `: ${describeCause(divergence.cause)}`
    parts.push(`first divergence at seq ${divergence.seq}, ${where}${why}`)
  }
  return parts.length === 0 ? '' : `; ${parts.join('; ')}`
}
