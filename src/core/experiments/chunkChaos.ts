import type { AnyChunk, ContentBlock, SourcedChunk } from '../protocol'
import { diffOutcomes, outcomeOf, type OutcomeDiff, type StreamOutcome } from './outcome'
import { deriveSeed, seededRandom, type SeededRandom } from './random'

/**
 * Chaos variants of a chunk stream (docs/protocol.md §13): what another adapter, or the same one on another day,
 * could have sent for the same answer. Each variant is a pure function of the stream and its seed, so
 * `chunkVariant(chunks, kind, seed)` reproduces one from the seed the report prints.
 */
export type ChunkVariantKind =
  | 'split-deltas'
  | 'merge-deltas'
  | 'straggler'
  | 'duplicate-start'
  | 're-close'
  | 'usage-after-finish'
  | 'finish-before-end'

export const CHUNK_VARIANTS: Readonly<Record<ChunkVariantKind, string>> = {
  'split-deltas': 'every text, reasoning and argument delta re-split at random character boundaries',
  'merge-deltas': 'runs of deltas of one block merged into one delta',
  straggler: 'a delta injected after a block-end (a straggler)',
  'duplicate-start': 'a block-start sent twice',
  're-close': 'a block-end sent twice',
  'usage-after-finish': 'the usage chunk moved after the finish',
  'finish-before-end': 'the finish moved before the last block-end',
}

export type ChunkVariant = {
  readonly kind: ChunkVariantKind
  readonly seed: number
  /** What was done, in words: `block-start of block 1 (pos 4) sent twice`. */
  readonly description: string
  readonly chunks: SourcedChunk[]
  /** Null when message and findings are the original's. */
  readonly diff: OutcomeDiff | null
}

export type ChunkChaosReport = {
  readonly seed: number
  readonly baseline: StreamOutcome
  /** Variants that change the message first, then those that change only findings, then the rest. */
  readonly variants: readonly ChunkVariant[]
}

/**
 * @example
 * chunkChaos(attempt.chunks, { seed: 7 }).variants.filter((v) => v.diff?.message) // the variants that change blocks()
 */
export function chunkChaos(
  chunks: readonly SourcedChunk[],
  options: { readonly seed: number; readonly perKind?: number },
): ChunkChaosReport {
  const baseline = outcomeOf(chunks)
  const variants: ChunkVariant[] = []
  const kinds = Object.keys(CHUNK_VARIANTS) as ChunkVariantKind[]
  const perKind = options.perKind ?? 3
  for (const [k, kind] of kinds.entries()) {
    const seen = new Set<string>()
    for (let n = 0; n < perKind; n++) {
      const seed = deriveSeed(options.seed, k * 1000 + n)
      const made = chunkVariant(chunks, kind, seed)
      if (made === null || seen.has(made.description)) continue
      seen.add(made.description)
      variants.push({ kind, seed, ...made, diff: diffOutcomes(baseline, outcomeOf(made.chunks)) })
    }
  }
  const rank = (v: ChunkVariant) => (v.diff === null ? 2 : v.diff.message ? 0 : 1)
  variants.sort((a, b) => rank(a) - rank(b))
  return { seed: options.seed, baseline, variants }
}

/** One variant from its seed; null when the stream has nothing to vary that way (no block-end for a straggler). */
export function chunkVariant(
  chunks: readonly SourcedChunk[],
  kind: ChunkVariantKind,
  seed: number,
): { chunks: SourcedChunk[]; description: string } | null {
  const random = seededRandom(seed)
  const list = chunks.map((sourced) => sourced.chunk)
  const positions = (type: string) => list.flatMap((chunk, pos) => (chunk.type === type ? [pos] : []))
  const pick = (ps: number[]) => (ps.length === 0 ? null : ps[random.int(ps.length)]!)
  switch (kind) {
    case 'split-deltas': {
      let pieces = 0
      const out = chunks.flatMap((sourced) => {
        const split = splitDelta(sourced.chunk, random)
        pieces += split.length - 1
        return split.map((chunk) => ({ ...sourced, chunk }))
      })
      return pieces === 0
        ? null
        : { chunks: numbered(out), description: `${pieces} more delta piece${pieces === 1 ? '' : 's'}` }
    }
    case 'merge-deltas': {
      const out: SourcedChunk[] = []
      let merged = 0
      for (const sourced of chunks) {
        const last = out.at(-1)
        const joined = last !== undefined ? joinDeltas(last.chunk, sourced.chunk) : null
        if (joined !== null) {
          out[out.length - 1] = { ...last!, chunk: joined }
          merged += 1
        } else out.push(sourced)
      }
      return merged === 0
        ? null
        : { chunks: numbered(out), description: `${merged} deltas merged into the one before` }
    }
    case 'straggler': {
      const pos = pick(positions('block-end'))
      if (pos === null) return null
      const end = list[pos] as { index: number; block: ContentBlock }
      const straggler = deltaFor(end.index, end.block)
      return {
        chunks: insertAt(chunks, pos + 1, straggler),
        description: `a ${straggler.type} for block ${end.index} after its block-end (pos ${pos})`,
      }
    }
    case 'duplicate-start':
    case 're-close': {
      const pos = pick(positions(kind === 'duplicate-start' ? 'block-start' : 'block-end'))
      if (pos === null) return null
      const chunk = list[pos]!
      return {
        chunks: insertAt(chunks, pos + 1, chunk),
        description: `${chunk.type} of block ${String(get(chunk, 'index'))} (pos ${pos}) sent twice`,
      }
    }
    case 'usage-after-finish': {
      const usage = positions('usage')
      const finish = positions('finish').at(-1)
      const pos = usage.filter((p) => finish !== undefined && p < finish).at(-1)
      if (pos === undefined || finish === undefined) return null
      const moved = chunks.filter((_, i) => i !== pos)
      moved.splice(finish, 0, chunks[pos]!)
      return {
        chunks: numbered(moved),
        description: `usage (pos ${pos}) moved after the finish (pos ${finish})`,
      }
    }
    case 'finish-before-end': {
      const finish = positions('finish').at(-1)
      const end = positions('block-end')
        .filter((p) => finish !== undefined && p < finish)
        .at(-1)
      if (finish === undefined || end === undefined) return null
      const moved = chunks.filter((_, i) => i !== finish)
      moved.splice(end, 0, chunks[finish]!)
      return {
        chunks: numbered(moved),
        description: `finish (pos ${finish}) moved before the block-end at pos ${end}`,
      }
    }
  }
}

/** A delta cut at 1–3 random character (code point) boundaries; a tool call's name stays on its first piece. */
function splitDelta(chunk: AnyChunk, random: SeededRandom): AnyChunk[] {
  const field =
    chunk.type === 'tool-call-delta' ? 'argumentsDelta' : chunk.type.endsWith('-delta') ? 'text' : null
  const value = field === null ? undefined : get(chunk, field)
  if (field === null || typeof value !== 'string') return [chunk]
  const chars = Array.from(value)
  if (chars.length < 2) return [chunk]
  const cuts = [...new Set(Array.from({ length: 1 + random.int(3) }, () => 1 + random.int(chars.length - 1)))]
  cuts.sort((a, b) => a - b)
  const bounds = [0, ...cuts, chars.length]
  return bounds.slice(1).map((end, i) => {
    const piece = { ...chunk, [field]: chars.slice(bounds[i], end).join('') }
    if (i > 0 && chunk.type === 'tool-call-delta') delete (piece as Record<string, unknown>)['name']
    return piece
  })
}

function joinDeltas(a: AnyChunk, b: AnyChunk): AnyChunk | null {
  if (a.type !== b.type || get(a, 'index') !== get(b, 'index')) return null
  const field =
    a.type === 'tool-call-delta'
      ? 'argumentsDelta'
      : a.type === 'text-delta' || a.type === 'reasoning-delta'
        ? 'text'
        : null
  if (field === null) return null
  const left = get(a, field)
  const right = get(b, field)
  if (typeof left !== 'string' || typeof right !== 'string') return null
  // A later piece carrying its own id or name would set them again (§3): merging would hide that.
  if (a.type === 'tool-call-delta' && (get(a, 'id') !== get(b, 'id') || 'name' in b)) return null
  return { ...a, [field]: left + right } as AnyChunk
}

function get(chunk: AnyChunk, key: string): unknown {
  return (chunk as Readonly<Record<string, unknown>>)[key]
}

/** The delta a block of this type would get: text for text, reasoning for reasoning, arguments for a tool call. */
function deltaFor(index: number, block: ContentBlock): AnyChunk {
  if (block.type === 'reasoning') return { type: 'reasoning-delta', index, text: ' (late)' }
  if (block.type === 'tool-call')
    return { type: 'tool-call-delta', index, id: String(block['id']), argumentsDelta: ' ' }
  return { type: 'text-delta', index, text: ' (late)' }
}

function insertAt(chunks: readonly SourcedChunk[], pos: number, chunk: AnyChunk): SourcedChunk[] {
  const out = [...chunks]
  out.splice(pos, 0, { seq: -1, time: chunks[pos - 1]?.time ?? null, chunk })
  return numbered(out)
}

/** Variants are new streams: numbered 0, 1, 2… so no seq gap or duplicate seq reads as a finding. */
function numbered(chunks: readonly SourcedChunk[]): SourcedChunk[] {
  return chunks.map((sourced, seq) => ({ ...sourced, seq }))
}
