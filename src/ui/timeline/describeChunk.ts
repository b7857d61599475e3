import { assertNever } from '../../core/base/assertNever'
import { partitionPoint } from '../../core/base/partitionPoint'
import type { EffectSummary } from '../../core/effects'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import { visibleWhitespace } from '../chunkStyle'
import { markHiddenChars } from '../hiddenChars'
import { english, type T } from '../i18n/translate'
import { HUGE_GAP_MS } from '../metrics/buildMetrics'
import { chunkListOf, type ChunkList } from '../../core/chunkList'

/** Longest slice of model text a row preview shows; the cell truncates visually, this bounds the work. */
const PREVIEW_CHARS = 160

export type Tone = 'plain' | 'muted' | 'warning' | 'error'
export type Label = { readonly text: string; readonly tone: Tone }

const field = (chunk: AnyChunk, name: string): unknown => (chunk as Record<string, unknown>)[name]
/** Text for any value a chunk carries; never throws (an object with its own `toString` key cannot be `String()`ed). */
const str = (value: unknown): string => {
  if (typeof value === 'string') return value
  if (value == null) return ''
  try {
    return String(value)
  } catch {
    return jsonPreview(value)
  }
}
const quoted = (text: string): string =>
  `"${visibleWhitespace(text.slice(0, PREVIEW_CHARS))}${text.length > PREVIEW_CHARS ? '…' : ''}"`

/**
 * One line saying what a chunk carries, for a timeline row: quoted text with visible whitespace for deltas, the
 * tool call's id/name and argument piece, a block-end's block in short, usage numbers, the finish kind and code.
 * Bidirectional and zero-width characters anywhere in it (a tool name, a failure message) show as marks.
 */
export function payloadPreview(chunk: AnyChunk, t: T = english): string {
  return markHiddenChars(describePayload(chunk, t))
}

function describePayload(chunk: AnyChunk, t: T): string {
  switch (chunk.type) {
    case 'block-start':
      return str(field(chunk, 'blockType'))
    case 'text-delta':
    case 'reasoning-delta':
      return quoted(str(field(chunk, 'text')))
    case 'tool-call-delta': {
      const name = str(field(chunk, 'name'))
      const id = str(field(chunk, 'id'))
      return `${id === '' ? "id ''" : id}${name === '' ? '' : ` ${name}`} ${quoted(str(field(chunk, 'argumentsDelta')))}`
    }
    case 'block-end':
      return blockPreview(field(chunk, 'block'), t)
    case 'usage':
      return usagePreview(field(chunk, 'usage'), t)
    case 'finish':
      return finishPreview(chunk, t)
    default:
      return jsonPreview(chunk)
  }
}

function blockPreview(block: unknown, t: T): string {
  if (typeof block !== 'object' || block === null) return `${t('preview.noBlock')} ${jsonPreview(block)}`
  const b = block as Record<string, unknown>
  const type = str(b.type)
  if (type === 'text' || type === 'reasoning') return `${type} ${quoted(str(b.text))}`
  if (type === 'tool-call') return `${type} ${str(b.name)}(${str(b.id)}) ${quoted(str(b.arguments))}`
  return `${type} ${jsonPreview(block)}`
}

function usagePreview(usage: unknown, t: T): string {
  if (typeof usage !== 'object' || usage === null) return jsonPreview(usage)
  const u = usage as Record<string, unknown>
  const parts = [t('preview.in', { n: str(u.inputTokens) }), t('preview.out', { n: str(u.outputTokens) })]
  if (u.cacheReadTokens !== undefined) parts.push(t('preview.cacheRead', { n: str(u.cacheReadTokens) }))
  if (u.cacheWriteTokens !== undefined) parts.push(t('preview.cacheWrite', { n: str(u.cacheWriteTokens) }))
  if (u.reasoningTokens !== undefined) parts.push(t('preview.reasoning', { n: str(u.reasoningTokens) }))
  return parts.join(' · ')
}

function finishPreview(chunk: AnyChunk, t: T): string {
  const reason = field(chunk, 'reason')
  const r = typeof reason === 'object' && reason !== null ? (reason as Record<string, unknown>) : {}
  const failure =
    typeof r.failure === 'object' && r.failure !== null ? (r.failure as Record<string, unknown>) : null
  const parts = [str(r.kind) || t('preview.noReason')]
  if (failure !== null) parts.push(`${str(failure.code)}: ${str(failure.message).slice(0, PREVIEW_CHARS)}`)
  if (field(chunk, 'replayState') !== undefined) parts.push('+ replayState')
  return parts.join(' ')
}

function jsonPreview(value: unknown): string {
  let json: string
  try {
    json = JSON.stringify(value) ?? String(value)
  } catch {
    json = String(value)
  }
  return json.length > PREVIEW_CHARS ? `${json.slice(0, PREVIEW_CHARS)}…` : json
}

/**
 * The strings a chunk's payload is searched by: a delta's text (a tool-call delta's arguments, name and id), a
 * frozen block's type, text, arguments, name and id, and the preview of anything else. The timeline search's index
 * (`app/search/searchIndex.ts`) joins these, so the worker and {@link payloadMatcher} find the same chunks.
 */
export function searchFields(chunk: AnyChunk): readonly string[] {
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return [str(field(chunk, 'text'))]
    case 'tool-call-delta':
      return [str(field(chunk, 'argumentsDelta')), str(field(chunk, 'name')), str(field(chunk, 'id'))]
    case 'block-end': {
      const block = field(chunk, 'block')
      if (typeof block !== 'object' || block === null) return [payloadPreview(chunk)]
      const b = block as Record<string, unknown>
      return [str(b.type), str(b.text), str(b.arguments), str(b.name), str(b.id)]
    }
    default:
      return [payloadPreview(chunk)]
  }
}

/** Case-insensitive literal search over {@link searchFields}; null for an empty query. */
export function payloadMatcher(query: string): ((chunk: AnyChunk) => boolean) | null {
  if (query === '') return null
  const pattern = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu')
  return (chunk) => searchFields(chunk).some((value) => pattern.test(value))
}

/** The chunk's `index` when it carries a usable one (unknown chunks may carry anything). */
export function indexOf(chunk: AnyChunk): number | null {
  const index = field(chunk, 'index')
  return typeof index === 'number' ? index : null
}

/** What the chunk did to the assembly (docs/protocol.md §4), in the few words a timeline cell holds. */
export function effectLabel(effect: EffectSummary, chunk: AnyChunk, t: T = english): Label {
  return labelOf(effect, chunk, t, true)
}

/** `effectLabel`, with or without the appended character count (a collapsed run has no one count). */
function labelOf(effect: EffectSummary, chunk: AnyChunk, t: T, counted: boolean): Label {
  // An implicit open appends too: "open-implicit +5 chars" (the cell is narrow; the row's title says it in full).
  const append = t(effect.implicit ? 'effect.openImplicit' : 'effect.append')
  const chars = (text: unknown): string =>
    counted ? `${append} ${t('effect.chars', { count: str(text).length })}` : append
  switch (effect.kind) {
    case 'open':
      return { text: t('effect.open'), tone: 'plain' }
    case 'append-text':
      return { text: chars(field(chunk, 'text')), tone: 'plain' }
    case 'append-arguments':
      return { text: chars(field(chunk, 'argumentsDelta')), tone: 'plain' }
    case 'close':
      return { text: t(effect.implicit ? 'effect.openImplicitClose' : 'effect.close'), tone: 'plain' }
    case 'ignored-duplicate-start':
      return { text: t('effect.ignoredDuplicateStart'), tone: 'error' }
    case 'ignored-straggler':
      return { text: t('effect.ignoredStraggler'), tone: 'error' }
    case 'ignored-reclose':
      return { text: t('effect.ignoredReclose'), tone: 'error' }
    case 'usage-set':
      return { text: t('effect.usageSet'), tone: 'plain' }
    case 'usage-replaced':
      return { text: t('effect.usageReplaced'), tone: 'warning' }
    case 'finish-set':
      return { text: t('effect.finishSet'), tone: 'plain' }
    case 'finish-replaced':
      return { text: t('effect.finishReplaced'), tone: 'warning' }
    case 'unknown-chunk':
      return { text: t('effect.unknownChunk'), tone: 'error' }
    case 'push-error':
      return { text: t('effect.pushError'), tone: 'error' }
    case 'close-without-block':
      return { text: t('effect.closeWithoutBlock'), tone: 'error' }
    case 'after-error':
      return { text: t('effect.afterError'), tone: 'muted' }
    default:
      return assertNever(effect.kind, 'effectLabel')
  }
}

/**
 * Time since the previous chunk: "—" when either time is unknown (bare chunk files) or for the first chunk;
 * negative gaps are kept and flagged, they happen in real logs (docs/protocol.md §6: order by seq, show time as data),
 * and so are gaps longer than a broken clock's bound (the metrics' {@link HUGE_GAP_MS}), in the largest unit that
 * reads at a glance: a log whose clock jumped decades shows "20665d", not "29758313m".
 */
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

export function gapLabel(list: readonly SourcedChunk[] | ChunkList, pos: number): Label {
  const chunks = chunkListOf(list)
  const previous = pos > 0 && pos <= chunks.length ? chunks.timeAt(pos - 1) : null
  const current = pos >= 0 && pos < chunks.length ? chunks.timeAt(pos) : null
  if (previous === null || current === null) return { text: '—', tone: 'muted' }
  const gap = current - previous
  const size = Math.abs(gap)
  const sign = gap < 0 ? '−' : ''
  const text =
    size < 1000
      ? `${sign}${size}ms`
      : size < 60_000
        ? `${sign}${(size / 1000).toFixed(1)}s`
        : size < HOUR_MS
          ? `${sign}${Math.round(size / 60_000)}m`
          : size < 2 * DAY_MS
            ? `${sign}${(size / HOUR_MS).toFixed(1)}h`
            : `${sign}${Math.round(size / DAY_MS)}d`
  return { text, tone: gap < 0 || size >= HUGE_GAP_MS ? 'warning' : 'plain' }
}

/** The shared effect of a collapsed run of `count` chunks: "4 × append", "3 × ignored: straggler". */
export function runEffectLabel(effect: EffectSummary, count: number, t: T = english): Label {
  const { text, tone } = labelOf(effect, { type: '' }, t, false)
  return { text: t('effect.run', { count, effect: text }), tone }
}

/**
 * Seqs missing from the log just before the chunk at `pos`: the recorded message cites them, the log lacks them
 * (trimmed or lost, docs/protocol.md §6), so what they carried never reached the assembler. Null when none.
 *
 * @example
 * missingBefore(chunks, 1, [6, 7, 8]) // { text: '⋯', title: 'seqs 6–8 missing from the log (cited by …)' }
 */
export function missingBefore(
  list: readonly SourcedChunk[] | ChunkList,
  pos: number,
  missing: readonly number[],
  t: T = english,
): { readonly text: string; readonly title: string } | null {
  const chunks = chunkListOf(list)
  if (pos < 0 || pos >= chunks.length || missing.length === 0) return null
  const seq = chunks.seqAt(pos)
  const after = pos === 0 ? -Infinity : chunks.seqAt(pos - 1)
  const low = lowerBound(missing, after + 1)
  const high = lowerBound(missing, seq)
  const count = high - low
  if (count <= 0) return null
  const from = missing[low]!
  const to = missing[high - 1]!
  const title =
    count === to - from + 1
      ? from === to
        ? t('timeline.missingOne', { from })
        : t('timeline.missingRange', { from, to })
      : t('timeline.missingCount', { count })
  return { text: '⋯', title }
}

function lowerBound(sorted: readonly number[], value: number): number {
  return partitionPoint(sorted.length, (i) => sorted[i]! < value)
}
