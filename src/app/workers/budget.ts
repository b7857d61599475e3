import { chunksOf } from '../../core/chunkList'
import { ColumnChunkList, cutHeldStream } from '../../core/chunkStore'
import type { ColumnRows } from '../../core/columns'
import type { Attempt } from '../../core/session'
import type { Diagnostic, LoadedSource } from '../../formats/types'

/**
 * What the page opens of one input. The tab's memory follows what is decoded, not the input's bytes: each chunk
 * costs its objects, its effect byte and its timeline row; each distinct block index costs a life, a checkpointed
 * open partial, an entry in every replay frame and a lane. 48 MB of NDJSON that opens a new block per chunk took a
 * tab past 3 GB in 12 seconds, while a million chunks of a few hundred blocks open in about 1 GB. So the limits
 * count chunks, distinct block indexes and payload characters per stream, and bytes only for the input as a whole.
 * A stream over a limit is cut at the chunk that crosses it (the chunks before it replay exactly as they would in
 * the whole stream) and a diagnostic names the limit; the command line reads the whole input.
 */
export const BROWSER_LIMITS = {
  /** Bytes of a file or characters of pasted text; larger inputs are refused before they are read. */
  inputBytes: 128 * 1024 * 1024,
  chunksPerStream: 1_000_000,
  /** Every seek builds one frame entry per block seen: 20,000 keep a step back near 30 ms (50,000: ~90 ms). */
  blocksPerStream: 20_000,
  /**
   * UTF-16 units of the strings in the chunks (texts, argument pieces, ids, names, block-end payloads; not types),
   * plus one per nested value.
   */
  charsPerStream: 64 * 1024 * 1024,
} as const

export type BrowserLimits = { readonly [K in keyof typeof BROWSER_LIMITS]: number }

/** Every diagnostic about a cut stream starts with this, so the page can put the first one in its banner. */
export const CUT_PREFIX = 'over the browser limit: '

/** Why an input is refused before it is read (its size), or null when it may be read. */
export function refuseInput(
  size: number,
  name: string,
  limits: BrowserLimits = BROWSER_LIMITS,
): string | null {
  if (size <= limits.inputBytes) return null
  return `${name} is ${formatSize(size)}, over the browser limit of ${formatSize(limits.inputBytes)} per input; it was not opened. Read it with the command line instead: npx chunkscope inspect ${name}`
}

/**
 * Cuts every stream of `source` that crosses a limit to the chunks before the crossing, in place, and adds one
 * error diagnostic per cut stream naming the limit (first in the list, since they explain what is missing).
 *
 * @example
 * fitToBudget(loadSource(text)).diagnostics[0]?.message
 * // 'over the browser limit: stream "stream" was cut to its first 20,000 of 1,000,000 chunks: chunk 20,001 (seq 20000) opens block index number 20,001, and a stream may have at most 20,000 distinct block indexes here; …'
 */
export function fitToBudget(source: LoadedSource, limits: BrowserLimits = BROWSER_LIMITS): LoadedSource {
  if (limits === BROWSER_LIMITS && fitted.has(source)) return source
  const cuts: Diagnostic[] = []
  source.sessions.forEach((session, sessionIndex) => {
    for (const [streamIndex, attempt] of session.streams.entries()) {
      const cut = findCut(attempt, limits)
      if (cut === null) continue
      const total = chunksOf(attempt).length
      // A stream held as its events' rows stays so, cut to a prefix of them (no object per chunk).
      if (!cutHeldStream(session, streamIndex, cut.at)) attempt.chunks = chunksOf(attempt).slice(0, cut.at)
      const where = source.sessions.length > 1 ? `session ${sessionIndex + 1}, stream` : 'stream'
      cuts.push({
        severity: 'error',
        message: `${CUT_PREFIX}${where} "${attempt.id}" was cut to its first ${count(cut.at)} of ${count(total)} chunks: ${cut.why}; the rest is not shown (the command line reads it all: npx chunkscope inspect)`,
      })
    }
  })
  if (cuts.length > 0) source.diagnostics.unshift(...cuts)
  if (limits === BROWSER_LIMITS) fitted.add(source)
  return source
}

/**
 * Sources already fitted to {@link BROWSER_LIMITS}: the page's own check of a source the loading worker fitted
 * would walk every chunk again (a long task at a million chunks) to find nothing.
 */
const fitted = new WeakSet<LoadedSource>()

/** Records that `source` was fitted to the browser limits (the worker's readInput fits every source it sends). */
export function markFitted(source: LoadedSource): LoadedSource {
  fitted.add(source)
  return source
}

/** The first diagnostic about a cut stream, for the page's banner. */
export function cutNotice(source: LoadedSource): string | null {
  return source.diagnostics.find((d) => d.message.startsWith(CUT_PREFIX))?.message ?? null
}

function findCut(attempt: Attempt, limits: BrowserLimits): { at: number; why: string } | null {
  const chunks = chunksOf(attempt)
  const indexes = new Set<unknown>()
  /** The last index added to `indexes`: a block's chunks mostly come in a row, and one comparison is cheaper. */
  let last: unknown
  let chars = 0
  // Chunks held as numbers are counted from their columns, without building them, a run of rows of one batch at a
  // time: with a row lookup, a division and a remainder per chunk the check of a million chunks took 50–90 ms of
  // the loading worker's tail, after the parse and before the page gets the source (bench/README.md, the load bench).
  const held = chunks instanceof ColumnChunkList ? chunks : null
  // Only worded once a limit is crossed: toLocaleString per chunk would cost seconds for a million (and a closure
  // per chunk, garbage).
  const where = (i: number) => `chunk ${count(i + 1)} (seq ${chunks.seqAt(i)})`
  for (let i = 0; i < chunks.length;) {
    let end = i + 1
    let batch: ColumnRows | null = null
    let at = 0
    if (held !== null) {
      const row = held.row(i)
      batch = held.rows.batch(row)
      at = held.rows.within(row)
      end = i + held.span(i)
    }
    for (; i < end; i++, at++) {
      if (i >= limits.chunksPerStream)
        return { at: i, why: `a stream may have at most ${count(limits.chunksPerStream)} chunks here` }
      let index: unknown
      // Such a chunk's members are a number index (cost 1) and its strings.
      const length = batch === null ? -1 : batch.stringsLength(at)
      let cost = length + 1
      if (length >= 0) index = batch!.index(at)
      else {
        const chunk = chunks.chunkAt(i)
        index = (chunk as { index?: unknown }).index
        cost = payloadCost(chunk)
      }
      if (index !== undefined && index !== last && !indexes.has(index)) {
        if (indexes.size >= limits.blocksPerStream)
          return {
            at: i,
            why: `${where(i)} opens block index number ${count(indexes.size + 1)}, and a stream may have at most ${count(limits.blocksPerStream)} distinct block indexes here`,
          }
        indexes.add(index)
        last = index
      }
      chars += cost
      if (chars > limits.charsPerStream)
        return {
          at: i,
          why: `${where(i)} brings the stream's payload to ${count(chars)} characters and values, and a stream may carry at most ${count(limits.charsPerStream)} here`,
        }
    }
  }
  return null
}

/**
 * What a chunk's payload costs: the length of every string in it at any depth, plus one per nested value (an array
 * of a million numbers costs memory too). Walked with an explicit stack, so deep nesting cannot overflow it; the
 * `type` fields are left out (a word from a fixed set).
 */
function payloadCost(chunk: unknown): number {
  if (typeof chunk === 'string') return chunk.length
  if (typeof chunk !== 'object' || chunk === null) return 0
  let cost = 0
  pending.length = 0
  pending.push(chunk)
  for (let root = true; pending.length > 0; root = false) {
    const value = pending.pop()!
    if (!root) cost += 1
    if (Array.isArray(value)) for (const item of value) cost += leafCost(item)
    else
      for (const key in value) if (key !== 'type') cost += leafCost((value as Record<string, unknown>)[key])
  }
  return cost
}

/** Objects still to walk: one array for every call, so a flat chunk (nearly every one) allocates nothing. */
const pending: object[] = []

/** A member's cost: a string its length, any other value 1; an object is queued (it costs 1 when walked). */
function leafCost(value: unknown): number {
  if (typeof value === 'string') return value.length
  if (typeof value !== 'object' || value === null) return 1
  pending.push(value)
  return 0
}

/** One formatter for every count (toLocaleString builds one per call: milliseconds each). */
let counts: Intl.NumberFormat | null = null
const count = (n: number): string => (counts ??= new Intl.NumberFormat('en')).format(n)

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / (1024 * 1024))} MiB`
  return `${Math.round(bytes / 1024)} KiB`
}
