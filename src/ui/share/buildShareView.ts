import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import type { LoadedSource } from '../../formats/types'
import type { ShareInput, ShareScope } from '../../formats/share/payload'
import { FULL_REDACTION, isRedacting, redactChunks, type RedactionOptions } from '../../formats/share/redact'
import type { MeasuredOption } from '../../formats/share/shareOptions'
import { LINK_LIMITS } from '../../formats/share/shareLink'
import { windowAround } from '../../formats/share/window'

/** What the user picked in the Share dialog. */
export type ShareChoice = {
  readonly scope: 'session' | 'stream' | 'window'
  /** Chunks in the window around the cursor (scope `window`). */
  readonly windowSize: number
  readonly redact: RedactionOptions
}

export const WINDOW_SIZES = { min: 1, max: 20_000, initial: 200 } as const

/** The window a choice cuts: positions [from, to) of a stream of `total`, placed around cursor k. */
export function choiceWindow(choice: ShareChoice, k: number, total: number): { from: number; to: number } {
  return windowAround(k, total, clampWindowSize(choice.windowSize))
}

export function clampWindowSize(size: number): number {
  if (!Number.isFinite(size)) return WINDOW_SIZES.initial
  return Math.max(WINDOW_SIZES.min, Math.min(WINDOW_SIZES.max, Math.trunc(size)))
}

/** The engine-side options for a choice (`buildSharePayload(input, scopeOf(…))`). */
export function scopeOf(choice: ShareChoice, input: Pick<ShareInput, 'k' | 'attempt'>): ShareScope {
  const redact = isRedacting(choice.redact) ? { redact: choice.redact } : {}
  if (choice.scope === 'window')
    return { window: choiceWindow(choice, input.k, input.attempt.chunks.length), ...redact }
  return { scope: choice.scope, ...redact }
}

/** Whether the source is a harness log (so "whole session" and "drop non-chunk events" mean something). */
export function isSessionLog(source: LoadedSource, sessionIndex: number): boolean {
  const session = source.sessions[sessionIndex]
  return session !== undefined && (session.header !== null || session.events.length > 0)
}

/** A measured option turned back into a choice, so "Use" in the sizes list selects it. */
export function choiceOf(option: MeasuredOption, windowSize: number): ShareChoice {
  const scope = option.id.startsWith('session')
    ? 'session'
    : option.id.startsWith('window')
      ? 'window'
      : 'stream'
  const redact = option.options.redact ?? { text: false, arguments: false, events: false }
  return { scope, windowSize, redact }
}

export type LengthTone = 'ok' | 'warn' | 'error'

export type LengthView = {
  readonly tone: LengthTone
  /** "1,734 characters" */
  readonly chars: string
  readonly limits: readonly { readonly label: string; readonly approx: string; readonly fits: boolean }[]
}

/**
 * How a link's length reads against the limits people paste into: green when even chat tools take it, amber when
 * only trackers or browsers do, red over the browser maximum (share the file instead).
 */
export function lengthView(chars: number): LengthView {
  const limits = LINK_LIMITS.map((limit) => ({
    label: limit.label,
    approx: approx(limit.chars),
    fits: chars <= limit.chars,
  }))
  const tone: LengthTone = limits[0]!.fits ? 'ok' : limits[limits.length - 1]!.fits ? 'warn' : 'error'
  return { tone, chars: `${chars.toLocaleString('en')} characters`, limits }
}

/** From most to least information: what a suggestion prefers when several options fit the same limit. */
const PREFERENCE: readonly MeasuredOption['id'][] = [
  'session',
  'stream',
  'window',
  'session-redacted',
  'stream-redacted',
  'window-redacted',
]

/**
 * The option to suggest: under the tightest limit any option fits (chat tools, then trackers, then browsers), the
 * one carrying the most (whole session before this attempt before a window; unredacted before redacted). When the
 * user asked for redaction only redacted options are suggested. Null when nothing fits even browsers.
 */
export function suggestOption(
  options: readonly MeasuredOption[],
  redacting = false,
): { readonly option: MeasuredOption; readonly limit: string } | null {
  const allowed = options.filter((option) => !redacting || option.id.endsWith('-redacted'))
  const ranked = [...allowed].sort((a, b) => PREFERENCE.indexOf(a.id) - PREFERENCE.indexOf(b.id))
  for (const limit of LINK_LIMITS) {
    const option = ranked.find((candidate) => candidate.length.chars <= limit.chars)
    if (option !== undefined) return { option, limit: `${limit.label} (${approx(limit.chars)})` }
  }
  return null
}

/**
 * A few chunks before the cursor as the link's reader would get them (redacted with `redact`), one line each:
 * `#12 text-delta 1 {"text":"xxxx xx"}`. Only the fields after `type` are printed.
 */
export function previewLines(
  chunks: readonly SourcedChunk[],
  k: number,
  redact: RedactionOptions = FULL_REDACTION,
  count = 8,
  width = 160,
): string[] {
  const to = Math.max(Math.min(chunks.length, k), Math.min(chunks.length, count))
  const from = Math.max(0, to - count)
  return redactChunks(chunks.slice(from, to), redact).map(
    (sourced, i) => `#${from + i} ${chunkLine(sourced.chunk, width)}`,
  )
}

function chunkLine(chunk: AnyChunk, width: number): string {
  const { type, ...rest } = chunk as { type: unknown } & Record<string, unknown>
  const line = `${String(type)} ${JSON.stringify(rest)}`
  return line.length > width ? `${line.slice(0, width - 1)}…` : line
}

/** "window: chunks 4,850–5,050 of 90,000" (positions, end exclusive, as the link's window). */
export function windowLabel(window: { from: number; to: number; total: number }): string {
  const n = (x: number) => x.toLocaleString('en')
  return `window: chunks ${n(window.from)}–${n(window.to)} of ${n(window.total)}`
}

/** A limit as people say it: "~2,000", "2 MiB". */
function approx(chars: number): string {
  return chars >= 1024 * 1024 ? `${chars / (1024 * 1024)} MiB` : `~${chars.toLocaleString('en')}`
}
