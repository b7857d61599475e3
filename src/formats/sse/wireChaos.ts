import { ddmin } from '../../core/experiments/ddmin'
import { diffOutcomes, outcomeOf, type OutcomeDiff, type StreamOutcome } from '../../core/experiments/outcome'
import { deriveSeed, seededRandom } from '../../core/experiments/random'
import type { StreamChunk } from '../../core/protocol'
import { jsonEqual } from '../../core/jsonEqual'
import { chunksOfReads, type WirePipeline } from './wireReads'

/**
 * Chaos re-chunking of a raw wire body (docs/protocol.md §13): the same bytes (or the same events with other line
 * ends) delivered in other reads, each replay translated and assembled afresh and compared with one read of the
 * whole body. A split whose message or findings differ is shrunk (ddmin over its cuts) to the fewest cuts that
 * still differ, so the report leads with a one-cut reproducer.
 */
export type WireSplitKind =
  | 'bytes-1'
  | 'mid-utf8'
  | 'mid-escape'
  | 'crlf-halves'
  | 'event-edges'
  | 'merged-events'
  | 'random'
  | 'as-crlf'
  | 'as-crlf-bytes-1'
  | 'as-lf'

export const WIRE_SPLITS: Readonly<Record<WireSplitKind, string>> = {
  'bytes-1': 'every read 1 byte',
  'mid-utf8': 'a cut inside every multi-byte UTF-8 character',
  'mid-escape': 'a cut inside every JSON escape (\\n, \\", \\u00e9)',
  'crlf-halves': 'a cut between the CR and the LF of every CRLF',
  'event-edges': 'a cut at every line end and before every blank line',
  'merged-events': 'reads of 2–8 whole events each',
  random: 'random cuts, one per 64 bytes on average',
  'as-crlf': 'every LF line end written as CRLF, one read',
  'as-crlf-bytes-1': 'CRLF line ends, every read 1 byte',
  'as-lf': 'every CRLF written as LF, one read',
}

export type WireVariant = {
  readonly kind: WireSplitKind
  readonly description: string
  /** The bytes replayed (the body, or its re-encoding for `as-*`). */
  readonly cutCount: number
  /** Null when message and findings equal the one-read replay. */
  readonly diff: OutcomeDiff | null
  /** Whether the chunks themselves are the same. */
  readonly sameChunks: boolean
  /** The fewest cuts (byte offsets into the replayed bytes) that still differ; null when the variant agrees. */
  readonly minimal: null | {
    readonly cuts: readonly number[]
    readonly where: readonly string[]
    readonly diff: OutcomeDiff
    /** The shrinking stopped at its step budget before reaching a 1-minimal set. */
    readonly partial: boolean
  }
}

export type WireChaosReport = {
  readonly seed: number
  readonly bytes: number
  readonly baseline: StreamOutcome
  readonly baselineChunks: number
  /** Differing variants first, fewest minimal cuts first; then the agreeing ones. */
  readonly variants: readonly WireVariant[]
}

export type WireChaosOptions = {
  readonly seed: number
  /** Shrinking budget per differing variant (replays). */
  readonly maxShrinkSteps?: number
  readonly only?: readonly WireSplitKind[]
}

const LF = 10
const CR = 13

/**
 * @example
 * wireChaos(bytes, harnessPipeline('openai-sse'), { seed: 7 }).variants.filter((v) => v.diff !== null) // []
 */
export function wireChaos(
  body: Uint8Array,
  pipeline: WirePipeline,
  options: WireChaosOptions,
): WireChaosReport {
  const wholeChunks = chunksOfReads(pipeline, body, [])
  const baseline = outcomeOf(numbered(wholeChunks))
  const variants: WireVariant[] = []
  const kinds = Object.keys(WIRE_SPLITS) as WireSplitKind[]
  for (const [n, kind] of kinds.entries()) {
    if (options.only !== undefined && !options.only.includes(kind)) continue
    // Each kind draws from its own seed, so leaving kinds out does not change the others.
    const { bytes, cuts } = plan(kind, body, seededRandom(deriveSeed(options.seed, n)))
    if (cuts.length === 0 && bytes === body) continue
    const replay = (some: readonly number[]) => chunksOfReads(pipeline, bytes, some)
    const chunks = replay(cuts)
    const diff = diffOutcomes(baseline, outcomeOf(numbered(chunks)))
    let minimal: WireVariant['minimal'] = null
    if (diff !== null) {
      let steps = 0
      const budget = options.maxShrinkSteps ?? 400
      const shrunk = ddmin(
        cuts,
        (some) => diffOutcomes(baseline, outcomeOf(numbered(replay(some)))) !== null,
        {
          shouldStop: () => steps++ >= budget,
        },
      )
      const cutsLeft = shrunk.items
      minimal = {
        cuts: cutsLeft,
        where: cutsLeft.slice(0, 5).map((cut) => describeCut(bytes, cut)),
        diff: diffOutcomes(baseline, outcomeOf(numbered(replay(cutsLeft)))) ?? diff,
        partial: shrunk.cancelled,
      }
    }
    variants.push({
      kind,
      description: WIRE_SPLITS[kind],
      cutCount: cuts.length,
      diff,
      sameChunks: jsonEqual(chunks, wholeChunks),
      minimal,
    })
  }
  variants.sort((a, b) => rank(a) - rank(b))
  return { seed: options.seed, bytes: body.length, baseline, baselineChunks: wholeChunks.length, variants }
}

function rank(variant: WireVariant): number {
  return variant.minimal === null ? Number.MAX_SAFE_INTEGER : variant.minimal.cuts.length
}

function numbered(chunks: readonly StreamChunk[]) {
  return chunks.map((chunk, seq) => ({ seq, time: null, chunk }))
}

/** The bytes to replay and where to cut them. */
function plan(
  kind: WireSplitKind,
  body: Uint8Array,
  random: ReturnType<typeof seededRandom>,
): { bytes: Uint8Array; cuts: number[] } {
  const all = (bytes: Uint8Array) => Array.from({ length: Math.max(0, bytes.length - 1) }, (_, i) => i + 1)
  switch (kind) {
    case 'bytes-1':
      return { bytes: body, cuts: all(body) }
    case 'mid-utf8':
      // A continuation byte (10xxxxxx) starts no character: cutting before it splits one.
      return { bytes: body, cuts: offsets(body, (b) => (b & 0xc0) === 0x80) }
    case 'mid-escape': {
      const cuts: number[] = []
      for (let i = 0; i < body.length - 1; i++) {
        if (body[i] !== 92 /* \ */) continue
        cuts.push(i + 1)
        if (body[i + 1] === 117 /* u */) for (let k = 2; k <= 5 && i + k < body.length; k++) cuts.push(i + k)
        i += 1
      }
      return { bytes: body, cuts }
    }
    case 'crlf-halves':
      return { bytes: body, cuts: offsets(body, (b, i) => b === LF && body[i - 1] === CR) }
    case 'event-edges':
      return { bytes: body, cuts: offsets(body, (_, i) => body[i - 1] === LF || body[i - 1] === CR) }
    case 'merged-events': {
      const ends = eventEnds(body)
      const cuts: number[] = []
      for (let i = 2 + random.int(7); i < ends.length; i += 2 + random.int(7)) cuts.push(ends[i]!)
      return { bytes: body, cuts }
    }
    case 'random': {
      const set = new Set<number>()
      const count = Math.floor(body.length / 64)
      for (let i = 0; i < count; i++) set.add(1 + random.int(Math.max(1, body.length - 1)))
      return { bytes: body, cuts: [...set].sort((a, b) => a - b) }
    }
    case 'as-crlf':
      return { bytes: toCrlf(body), cuts: [] }
    case 'as-crlf-bytes-1': {
      const bytes = toCrlf(body)
      return { bytes, cuts: all(bytes) }
    }
    case 'as-lf':
      return { bytes: toLf(body), cuts: [] }
  }
}

function offsets(body: Uint8Array, at: (byte: number, i: number) => boolean): number[] {
  const out: number[] = []
  for (let i = 1; i < body.length; i++) if (at(body[i]!, i)) out.push(i)
  return out
}

/** Offsets just after each blank line (an event's end). */
function eventEnds(body: Uint8Array): number[] {
  const out: number[] = []
  for (let i = 1; i < body.length; i++) if (body[i] === LF && body[i - 1] === LF) out.push(i + 1)
  if (out.length === 0)
    for (let i = 3; i < body.length; i++)
      if (body[i] === LF && body[i - 1] === CR && body[i - 2] === LF) out.push(i + 1)
  return out
}

function toCrlf(body: Uint8Array): Uint8Array {
  const out: number[] = []
  for (let i = 0; i < body.length; i++) {
    if (body[i] === LF && body[i - 1] !== CR) out.push(CR)
    out.push(body[i]!)
  }
  return Uint8Array.from(out)
}

function toLf(body: Uint8Array): Uint8Array {
  return body.filter((byte, i) => !(byte === CR && body[i + 1] === LF))
}

/** `byte 1234 (line 5, column 17): inside "é" (2-byte UTF-8)`, `… between CR and LF`, `… after "\"`. */
export function describeCut(bytes: Uint8Array, cut: number): string {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < cut; i++)
    if (bytes[i] === LF || (bytes[i] === CR && bytes[i + 1] !== LF)) {
      line += 1
      lineStart = i + 1
    }
  const at = `byte ${cut} (line ${line}, column ${cut - lineStart + 1})`
  const next = bytes[cut]!
  if ((next & 0xc0) === 0x80) {
    let start = cut
    while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--
    let end = cut
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++
    const char = new TextDecoder().decode(bytes.subarray(start, end))
    return `${at}: inside ${JSON.stringify(char)} (${end - start}-byte UTF-8)`
  }
  if (bytes[cut - 1] === CR && next === LF) return `${at}: between CR and LF`
  if (bytes[cut - 1] === 92) return `${at}: after a backslash (inside a JSON escape)`
  if (bytes[cut - 1] === LF) return `${at}: after a line end`
  return at
}
