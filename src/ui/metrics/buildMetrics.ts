import { CHUNK_TYPES, type SourcedChunk, type TokenUsage } from '../../core/protocol'

/** A gap longer than this between two chunks of one stream is a broken clock, not a stall (§6: times lie). */
export const HUGE_GAP_MS = 10 * 60_000
/** The gap chart's resolution: long streams are bucketed, each bar the longest gap in its bucket. */
export const MAX_BUCKETS = 120

export type GapBucket = {
  /** Positions [from, to) of the chunks whose gap (to the previous timed chunk) falls in this bucket. */
  readonly from: number
  readonly to: number
  /** Longest usable gap in the bucket and the position of its chunk; null when the bucket has none. */
  readonly max: number | null
  readonly maxPos: number
  /** Gaps left out of timing (negative or over {@link HUGE_GAP_MS}). */
  readonly excluded: number
}

export type Timing =
  | {
      readonly usable: false
      /** In words: why no time figure is shown. */
      readonly reason: string
    }
  | {
      readonly usable: true
      /** What was left out, in words; null when every gap is usable. */
      readonly excluded: string | null
      /** From the first chunk's time to the first token's; null (with `ttftNote`) when it cannot be measured. */
      readonly ttftMs: number | null
      readonly ttftNote: string | null
      /** last − first; with exclusions, the sum of the usable gaps. */
      readonly durationMs: number
      readonly tokensPerSecond: number | null
      readonly charsPerSecond: number | null
      readonly maxGap: { readonly ms: number; readonly pos: number; readonly seq: number }
      readonly medianGapMs: number
      readonly buckets: readonly GapBucket[]
    }

export type StreamMetrics = {
  readonly chunks: number
  /** Chunk counts by type: the seven in protocol order (zeros included), then unknown types as met. */
  readonly byType: readonly { readonly type: string; readonly count: number; readonly known: boolean }[]
  /** Distinct tool-call block indexes (opened by a start, a delta or an end). */
  readonly toolCalls: number
  /** The last usage chunk's (PROTOCOL.md §3 A5: last wins). */
  readonly usage: TokenUsage | null
  /** Characters streamed in text, reasoning and arguments deltas. */
  readonly characters: number
  /** The first token (§1): a text/reasoning delta with text, or a tool-call delta with arguments or a name. */
  readonly firstToken: { readonly pos: number; readonly seq: number } | null
  readonly timing: Timing
}

/**
 * Stream metrics in one pass over the chunks (PROTOCOL.md §11). Times are data, not truth (§6): null and zero
 * times are skipped, negative and huge gaps excluded, and when too little is left the timing says so in words.
 *
 * @example
 * buildMetrics(engine.chunks).timing
 * // { usable: false, reason: 'times in this log are not a usable timeline: 4 zero times — showing counts only' }
 */
export function buildMetrics(chunks: readonly SourcedChunk[]): StreamMetrics {
  const counts = new Map<string, number>(CHUNK_TYPES.map((type) => [type, 0]))
  const toolIndexes = new Set<number>()
  let usage: TokenUsage | null = null
  let characters = 0
  let firstToken: { pos: number; seq: number } | null = null
  const clock = new ClockReader(chunks.length)

  for (let pos = 0; pos < chunks.length; pos++) {
    const { chunk, seq, time } = chunks[pos]!
    counts.set(chunk.type, (counts.get(chunk.type) ?? 0) + 1)
    let token = false
    switch (chunk.type) {
      case 'text-delta':
      case 'reasoning-delta': {
        const text = typeof chunk['text'] === 'string' ? chunk['text'] : ''
        characters += text.length
        token = text.length > 0
        break
      }
      case 'tool-call-delta': {
        const args = typeof chunk['argumentsDelta'] === 'string' ? chunk['argumentsDelta'] : ''
        characters += args.length
        token = args.length > 0 || (typeof chunk['name'] === 'string' && chunk['name'] !== '')
        toolIndexes.add(chunk['index'] as number)
        break
      }
      case 'block-start':
        if (chunk['blockType'] === 'tool-call') toolIndexes.add(chunk['index'] as number)
        break
      case 'block-end':
        if ((chunk['block'] as { type?: unknown } | null)?.type === 'tool-call')
          toolIndexes.add(chunk['index'] as number)
        break
      case 'usage':
        usage = (chunk['usage'] as TokenUsage | undefined) ?? null
        break
    }
    if (token && firstToken === null) firstToken = { pos, seq }
    clock.observe(pos, seq, time)
  }

  const known = new Set<string>(CHUNK_TYPES)
  const byType = [...counts].map(([type, count]) => ({ type, count, known: known.has(type) }))
  const outputTokens = usage?.outputTokens ?? null
  return {
    chunks: chunks.length,
    byType,
    toolCalls: toolIndexes.size,
    usage,
    characters,
    firstToken,
    timing: clock.timing(
      chunks.length,
      firstToken === null ? null : { pos: firstToken.pos, time: chunks[firstToken.pos]!.time },
      outputTokens,
      characters,
    ),
  }
}

/** Collects the gaps between consecutive timed chunks and classifies them. */
class ClockReader {
  missing = 0
  zero = 0
  timed = 0
  negative: { ms: number; seq: number }[] = []
  huge: { ms: number; seq: number }[] = []
  /** Usable gaps and the position of the chunk each ends at. */
  readonly gaps: Float64Array
  readonly gapPos: Int32Array
  readonly gapSeq: Float64Array
  valid = 0
  /** Position of the first chunk ending an excluded gap, or Infinity. */
  firstExcludedPos = Infinity
  first: { pos: number; time: number } | null = null
  last: { pos: number; time: number } | null = null
  readonly excludedAt: number[] = []

  constructor(size: number) {
    this.gaps = new Float64Array(Math.max(0, size - 1))
    this.gapPos = new Int32Array(Math.max(0, size - 1))
    this.gapSeq = new Float64Array(Math.max(0, size - 1))
  }

  observe(pos: number, seq: number, time: number | null): void {
    if (time === null || !Number.isFinite(time)) {
      this.missing += 1
      return
    }
    // Epoch 0 is no moment of a real stream: the harness's fixtures write 0 for "no time".
    if (time === 0) {
      this.zero += 1
      return
    }
    this.timed += 1
    const previous = this.last
    this.last = { pos, time }
    if (previous === null) {
      this.first = { pos, time }
      return
    }
    const gap = time - previous.time
    if (gap < 0 || gap > HUGE_GAP_MS) {
      if (gap < 0) this.negative.push({ ms: gap, seq })
      else this.huge.push({ ms: gap, seq })
      this.excludedAt.push(pos)
      if (pos < this.firstExcludedPos) this.firstExcludedPos = pos
      return
    }
    this.gaps[this.valid] = gap
    this.gapPos[this.valid] = pos
    this.gapSeq[this.valid] = seq
    this.valid += 1
  }

  timing(
    total: number,
    firstToken: { pos: number; time: number | null } | null,
    outputTokens: number | null,
    characters: number,
  ): Timing {
    const excludedCount = this.negative.length + this.huge.length
    const problems = [
      count(this.negative.length, 'negative gap'),
      count(this.huge.length, 'gap over 10 min', 'gaps over 10 min'),
      count(this.zero, 'zero time'),
      count(this.missing, 'chunk without a time', 'chunks without a time'),
    ].filter((text) => text !== '')
    const unusable = (why: string): Timing => ({
      usable: false,
      reason: `times in this log are not a usable timeline: ${why} — showing counts only`,
    })
    if (total === 0) return { usable: false, reason: 'no chunks, no timeline' }
    if (total === 1) return { usable: false, reason: 'a single chunk has no timeline' }
    if (this.missing === total)
      return { usable: false, reason: 'no chunk carries a time — showing counts only' }
    if (this.valid === 0 || excludedCount > this.valid) {
      return unusable(problems.length > 0 ? problems.join(', ') : 'fewer than two timed chunks')
    }
    const gaps = this.gaps.subarray(0, this.valid)
    let maxIndex = 0
    let sum = 0
    for (let i = 0; i < gaps.length; i++) {
      sum += gaps[i]!
      if (gaps[i]! > gaps[maxIndex]!) maxIndex = i
    }
    if (sum === 0 && excludedCount === 0) {
      return unusable(`all ${this.timed} timed chunks share one time`)
    }
    const durationMs = excludedCount === 0 ? this.last!.time - this.first!.time : sum
    let ttftMs: number | null = null
    let ttftNote: string | null = null
    if (firstToken === null) ttftNote = 'no first token in this stream'
    else if (this.first?.pos !== 0) ttftNote = 'the first chunk has no time'
    else if (firstToken.time === null || firstToken.time === 0) ttftNote = 'the first token has no time'
    else if (this.firstExcludedPos <= firstToken.pos)
      ttftNote = 'an excluded gap comes before the first token'
    else ttftMs = firstToken.time - this.first.time
    const sorted = Float64Array.from(gaps).sort()
    const median =
      sorted.length % 2 === 1
        ? sorted[(sorted.length - 1) / 2]!
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
    const seconds = durationMs / 1000
    const excluded = [
      describeWorst(this.negative, 'negative gap'),
      describeWorst(this.huge, 'gap over 10 min', 'gaps over 10 min'),
      count(this.zero, 'zero time'),
      count(this.missing, 'chunk without a time', 'chunks without a time'),
    ].filter((text) => text !== '')
    return {
      usable: true,
      excluded:
        excluded.length === 0
          ? null
          : `left out of timing: ${excluded.join(', ')}${excludedCount > 0 ? '; duration sums the usable gaps' : ''}`,
      ttftMs,
      ttftNote,
      durationMs,
      tokensPerSecond: outputTokens !== null && seconds > 0 ? outputTokens / seconds : null,
      charsPerSecond: seconds > 0 ? characters / seconds : null,
      maxGap: { ms: gaps[maxIndex]!, pos: this.gapPos[maxIndex]!, seq: this.gapSeq[maxIndex]! },
      medianGapMs: median,
      buckets: bucketGaps(total, this),
    }
  }
}

function bucketGaps(total: number, clock: ClockReader): GapBucket[] {
  const slots = total - 1
  const size = Math.min(MAX_BUCKETS, slots)
  const max = new Float64Array(size).fill(-1)
  const maxPos = new Int32Array(size)
  const excluded = new Int32Array(size)
  const bucketOf = (pos: number) => Math.min(size - 1, Math.floor(((pos - 1) * size) / slots))
  for (let i = 0; i < clock.valid; i++) {
    const bucket = bucketOf(clock.gapPos[i]!)
    if (clock.gaps[i]! > max[bucket]!) {
      max[bucket] = clock.gaps[i]!
      maxPos[bucket] = clock.gapPos[i]!
    }
  }
  for (const pos of clock.excludedAt) {
    const bucket = bucketOf(pos)
    excluded[bucket] = (excluded[bucket] ?? 0) + 1
  }
  return Array.from({ length: size }, (_, b) => ({
    from: 1 + Math.ceil((b * slots) / size),
    to: 1 + Math.ceil(((b + 1) * slots) / size),
    max: max[b]! < 0 ? null : max[b]!,
    maxPos: maxPos[b]!,
    excluded: excluded[b]!,
  }))
}

function describeWorst(gaps: readonly { ms: number; seq: number }[], one: string, many?: string): string {
  if (gaps.length === 0) return ''
  const worst = gaps.reduce((a, b) => (Math.abs(b.ms) > Math.abs(a.ms) ? b : a))
  return `${count(gaps.length, one, many)} (${formatSigned(worst.ms)} ms at seq ${worst.seq})`
}

function count(value: number, one: string, many = `${one}s`): string {
  return value === 0 ? '' : `${value} ${value === 1 ? one : many}`
}

/** `−960,585,284` with a real minus sign. */
export function formatSigned(value: number): string {
  const text = Math.abs(value).toLocaleString('en-US')
  return value < 0 ? `−${text}` : text
}
