import { CHUNK_TYPES, type SourcedChunk, type TokenUsage } from '../../core/protocol'
import { english, type T } from '../i18n/translate'
import { chunkListOf, type ChunkList } from '../../core/chunkList'

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
  /** The last usage chunk's (docs/protocol.md §3 A5: last wins). */
  readonly usage: TokenUsage | null
  /** Characters streamed in text, reasoning and arguments deltas. */
  readonly characters: number
  /** The first token (§1): a text/reasoning delta with text, or a tool-call delta with arguments or a name. */
  readonly firstToken: { readonly pos: number; readonly seq: number } | null
  readonly timing: Timing
}

/**
 * Stream metrics in one pass over the chunks (docs/protocol.md §11). Times are data, not truth (§6): null and zero
 * times are skipped, negative and huge gaps excluded, and when too little is left the timing says so in words.
 *
 * @example
 * buildMetrics(engine.chunks).timing
 * // { usable: false, reason: 'times in this log are not a usable timeline: 4 zero times — showing counts only' }
 */
export function buildMetrics(list: readonly SourcedChunk[] | ChunkList, t: T = english): StreamMetrics {
  const counter = new MetricsCounter(list)
  counter.countTo(counter.chunks.length)
  return counter.result(t)
}

/**
 * {@link buildMetrics}'s one pass, resumable: `countTo` carries the count on to a position, so a million chunks
 * can be counted over short tasks while the page stays responsive; `result` once `done` is exactly what
 * `buildMetrics` returns.
 */
export class MetricsCounter {
  readonly chunks: ChunkList
  /** Chunks counted so far: positions [0, next). */
  next = 0
  // Counted in a typed array by a switch, not a Map per chunk: this runs once over up to a million chunks.
  private readonly known = new Float64Array(CHUNK_TYPES.length)
  private readonly other = new Map<string, number>()
  private readonly toolIndexes = new Set<number>()
  private usage: TokenUsage | null = null
  private characters = 0
  private firstToken: { pos: number; seq: number } | null = null
  private readonly clock: ClockReader

  constructor(list: readonly SourcedChunk[] | ChunkList) {
    this.chunks = chunkListOf(list)
    this.clock = new ClockReader(this.chunks.length)
  }

  get done(): boolean {
    return this.next >= this.chunks.length
  }

  /** Counts the chunks from `next` up to `end` (exclusive, at most the stream's length). */
  countTo(end: number): void {
    const { chunks, known, toolIndexes, clock } = this
    const stop = Math.min(end, chunks.length)
    for (let pos = this.next; pos < stop; pos++) {
      const chunk = chunks.chunkAt(pos)
      let token = false
      switch (chunk.type) {
        case 'block-start':
          known[0]! += 1
          if (chunk['blockType'] === 'tool-call') toolIndexes.add(chunk['index'] as number)
          break
        case 'text-delta':
        case 'reasoning-delta': {
          known[chunk.type === 'text-delta' ? 1 : 2]! += 1
          const text = typeof chunk['text'] === 'string' ? chunk['text'] : ''
          this.characters += text.length
          token = text.length > 0
          break
        }
        case 'tool-call-delta': {
          known[3]! += 1
          const args = typeof chunk['argumentsDelta'] === 'string' ? chunk['argumentsDelta'] : ''
          this.characters += args.length
          token = args.length > 0 || (typeof chunk['name'] === 'string' && chunk['name'] !== '')
          toolIndexes.add(chunk['index'] as number)
          break
        }
        case 'block-end':
          known[4]! += 1
          if ((chunk['block'] as { type?: unknown } | null)?.type === 'tool-call')
            toolIndexes.add(chunk['index'] as number)
          break
        case 'usage':
          known[5]! += 1
          this.usage = (chunk['usage'] as TokenUsage | undefined) ?? null
          break
        case 'finish':
          known[6]! += 1
          break
        default:
          this.other.set(chunk.type, (this.other.get(chunk.type) ?? 0) + 1)
      }
      if (token && this.firstToken === null) this.firstToken = { pos, seq: chunks.seqAt(pos) }
      clock.observe(pos, chunks.timeAt(pos))
    }
    this.next = Math.max(this.next, stop)
  }

  /** The metrics of the whole stream; call once `done`. */
  result(t: T = english): StreamMetrics {
    const { chunks, known, usage, characters, firstToken } = this
    const byType = [
      ...CHUNK_TYPES.map((type, position) => ({ type, count: known[position]!, known: true })),
      ...[...this.other].map(([type, count]) => ({ type, count, known: false })),
    ]
    const outputTokens = usage?.outputTokens ?? null
    return {
      chunks: chunks.length,
      byType,
      toolCalls: this.toolIndexes.size,
      usage,
      characters,
      firstToken,
      timing: this.clock.timing(
        chunks,
        firstToken === null ? null : { pos: firstToken.pos, time: chunks.timeAt(firstToken.pos) },
        outputTokens,
        characters,
        t,
      ),
    }
  }
}

type Excluded = { count: number; worstMs: number; worstPos: number }

/** Collects the gaps between consecutive timed chunks and classifies them; no allocation per chunk. */
class ClockReader {
  missing = 0
  zero = 0
  timed = 0
  readonly negative: Excluded = { count: 0, worstMs: 0, worstPos: -1 }
  readonly huge: Excluded = { count: 0, worstMs: 0, worstPos: -1 }
  /** Usable gaps and the position of the chunk each ends at. */
  readonly gaps: Float64Array
  readonly gapPos: Int32Array
  valid = 0
  /** Position of the first chunk ending an excluded gap, or Infinity. */
  firstExcludedPos = Infinity
  readonly excludedAt: number[] = []
  firstPos = -1
  firstTime = 0
  lastTime = 0

  constructor(size: number) {
    this.gaps = new Float64Array(Math.max(0, size - 1))
    this.gapPos = new Int32Array(Math.max(0, size - 1))
  }

  observe(pos: number, time: number | null): void {
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
    const previous = this.lastTime
    this.lastTime = time
    if (this.firstPos < 0) {
      this.firstPos = pos
      this.firstTime = time
      return
    }
    const gap = time - previous
    if (gap < 0 || gap > HUGE_GAP_MS) {
      const kind = gap < 0 ? this.negative : this.huge
      kind.count += 1
      if (Math.abs(gap) > Math.abs(kind.worstMs)) {
        kind.worstMs = gap
        kind.worstPos = pos
      }
      this.excludedAt.push(pos)
      if (pos < this.firstExcludedPos) this.firstExcludedPos = pos
      return
    }
    this.gaps[this.valid] = gap
    this.gapPos[this.valid] = pos
    this.valid += 1
  }

  timing(
    chunks: ChunkList,
    firstToken: { pos: number; time: number | null } | null,
    outputTokens: number | null,
    characters: number,
    t: T,
  ): Timing {
    const total = chunks.length
    const excludedCount = this.negative.count + this.huge.count
    const problems = [
      count(t, 'metrics.negativeGaps', this.negative.count),
      count(t, 'metrics.hugeGaps', this.huge.count),
      count(t, 'metrics.zeroTimes', this.zero),
      count(t, 'metrics.untimedChunks', this.missing),
    ].filter((text) => text !== '')
    const unusable = (why: string): Timing => ({
      usable: false,
      reason: t('metrics.unusable', { why }),
    })
    if (total === 0) return { usable: false, reason: t('metrics.noChunks') }
    if (total === 1) return { usable: false, reason: t('metrics.singleChunk') }
    if (this.missing === total) return { usable: false, reason: t('metrics.noTimes') }
    if (this.valid === 0 || excludedCount > this.valid) {
      return unusable(problems.length > 0 ? problems.join(t('metrics.listSeparator')) : t('metrics.fewTimed'))
    }
    const gaps = this.gaps.subarray(0, this.valid)
    let maxIndex = 0
    let sum = 0
    for (let i = 0; i < gaps.length; i++) {
      sum += gaps[i]!
      if (gaps[i]! > gaps[maxIndex]!) maxIndex = i
    }
    if (sum === 0 && excludedCount === 0) {
      return unusable(t('metrics.oneTime', { count: this.timed }))
    }
    const durationMs = excludedCount === 0 ? this.lastTime - this.firstTime : sum
    let ttftMs: number | null = null
    let ttftNote: string | null = null
    if (firstToken === null) ttftNote = t('metrics.ttft.noToken')
    else if (this.firstPos !== 0) ttftNote = t('metrics.ttft.firstUntimed')
    else if (firstToken.time === null || firstToken.time === 0) ttftNote = t('metrics.ttft.tokenUntimed')
    else if (this.firstExcludedPos <= firstToken.pos) ttftNote = t('metrics.ttft.excludedBefore')
    else ttftMs = firstToken.time - this.firstTime
    const seconds = durationMs / 1000
    const seqAt = (pos: number) => chunks.seqAt(pos)
    const excluded = [
      describeWorst(t, this.negative, seqAt, 'metrics.negativeGaps'),
      describeWorst(t, this.huge, seqAt, 'metrics.hugeGaps'),
      count(t, 'metrics.zeroTimes', this.zero),
      count(t, 'metrics.untimedChunks', this.missing),
    ].filter((text) => text !== '')
    const maxPos = this.gapPos[maxIndex]!
    return {
      usable: true,
      excluded:
        excluded.length === 0
          ? null
          : t(excludedCount > 0 ? 'metrics.leftOutSummed' : 'metrics.leftOut', {
              list: excluded.join(t('metrics.listSeparator')),
            }),
      ttftMs,
      ttftNote,
      durationMs,
      tokensPerSecond: outputTokens !== null && seconds > 0 ? outputTokens / seconds : null,
      charsPerSecond: seconds > 0 ? characters / seconds : null,
      maxGap: { ms: gaps[maxIndex]!, pos: maxPos, seq: seqAt(maxPos) },
      medianGapMs: median(gaps),
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

function describeWorst(t: T, gaps: Excluded, seqAt: (pos: number) => number, key: CountKey): string {
  if (gaps.count === 0) return ''
  const worst = t('metrics.worstAt', { ms: formatSigned(gaps.worstMs), seq: String(seqAt(gaps.worstPos)) })
  return `${count(t, key, gaps.count)} ${worst}`
}

/** The median by selection on a copy (O(n) on average): sorting a million gaps took a fifth of a second. */
export function median(values: Float64Array): number {
  const n = values.length
  if (n === 0) return 0
  const copy = Float64Array.from(values)
  const upper = select(copy, n >> 1)
  if (n % 2 === 1) return upper
  // After selecting index n/2 everything before it is ≤ it: the lower middle is their maximum.
  let lower = -Infinity
  for (let i = 0; i < n >> 1; i++) if (copy[i]! > lower) lower = copy[i]!
  return (lower + upper) / 2
}

/** Hoare's selection: reorders `a` so that a[k] is the k-th smallest, smaller ones before it. */
function select(a: Float64Array, k: number): number {
  let left = 0
  let right = a.length - 1
  while (left < right) {
    const pivot = a[(left + right) >> 1]!
    let i = left
    let j = right
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        const swap = a[i]!
        a[i] = a[j]!
        a[j] = swap
        i++
        j--
      }
    }
    if (k <= j) right = j
    else if (k >= i) left = i
    else break
  }
  return a[k]!
}

type CountKey = 'metrics.negativeGaps' | 'metrics.hugeGaps' | 'metrics.zeroTimes' | 'metrics.untimedChunks'

function count(t: T, key: CountKey, value: number): string {
  return value === 0 ? '' : t(key, { count: value })
}

/** `−960,585,284` with a real minus sign. */
export function formatSigned(value: number): string {
  const text = Math.abs(value).toLocaleString('en-US')
  return value < 0 ? `−${text}` : text
}
