import type { ChunkType } from '../core/protocol'
import { markHiddenChars } from './hiddenChars'

/**
 * One accent per chunk type, used the same way in timeline badges, lanes and block cards (DESIGN.md). Red is kept
 * for errors and ignored chunks, amber for warnings, so no chunk type uses them.
 */
export const CHUNK_STYLE: Record<
  ChunkType,
  { readonly label: string; readonly badge: string; readonly fill: string }
> = {
  'block-start': {
    label: 'block-start',
    badge: 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100',
    fill: '#64748b',
  },
  'text-delta': {
    label: 'text-delta',
    badge: 'bg-sky-100 text-sky-900 dark:bg-sky-900/60 dark:text-sky-100',
    fill: '#0ea5e9',
  },
  'reasoning-delta': {
    label: 'reasoning-delta',
    badge: 'bg-violet-100 text-violet-900 dark:bg-violet-900/60 dark:text-violet-100',
    fill: '#8b5cf6',
  },
  'tool-call-delta': {
    label: 'tool-call-delta',
    badge: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/60 dark:text-emerald-100',
    fill: '#10b981',
  },
  'block-end': {
    label: 'block-end',
    badge: 'bg-slate-700 text-white dark:bg-slate-300 dark:text-slate-900',
    fill: '#334155',
  },
  usage: {
    label: 'usage',
    badge: 'bg-teal-100 text-teal-900 dark:bg-teal-900/60 dark:text-teal-100',
    fill: '#14b8a6',
  },
  finish: {
    label: 'finish',
    badge: 'bg-indigo-100 text-indigo-900 dark:bg-indigo-900/60 dark:text-indigo-100',
    fill: '#6366f1',
  },
}

/** Block types share the accent of the delta that fills them. */
export const BLOCK_ACCENT: Record<
  string,
  { readonly border: string; readonly fill: string; readonly text: string }
> = {
  // `text` is the accent as type: a shade with 4.5:1 on the card (the 500 fills are for bars, not letters).
  text: {
    border: 'border-l-sky-500 dark:border-l-sky-400',
    fill: '#0ea5e9',
    text: 'text-sky-700 dark:text-sky-300',
  },
  reasoning: {
    border: 'border-l-violet-500 dark:border-l-violet-400',
    fill: '#8b5cf6',
    text: 'text-violet-700 dark:text-violet-300',
  },
  'tool-call': {
    border: 'border-l-emerald-500 dark:border-l-emerald-400',
    fill: '#10b981',
    text: 'text-emerald-700 dark:text-emerald-300',
  },
}
export const OTHER_ACCENT = {
  border: 'border-l-slate-400 dark:border-l-slate-500',
  fill: '#94a3b8',
  text: 'text-slate-700 dark:text-slate-300',
}

export const UNKNOWN_BADGE = 'bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100'

/**
 * Makes whitespace visible in a payload preview: · for space (␠ is missing from many monospace fonts), ↵ for
 * newline, ⇥ for tab; and bidirectional and zero-width characters as ⟨RLO⟩-style marks (`hiddenChars.ts`), so a
 * preview shows the characters in the order they are, never reordered.
 */
export function visibleWhitespace(text: string): string {
  return markHiddenChars(
    text.replaceAll(' ', '·').replaceAll('\n', '↵').replaceAll('\t', '⇥').replaceAll('\r', '␍'),
  )
}
