import type { ChunkType } from '../../core/protocol'
import type { Lang } from '../i18n/lang'
import type { SliceApi } from './sliceApi'

export type Theme = 'system' | 'light' | 'dark'

export type TimelineFilter = {
  /** Chunk types shown; empty = all. */
  readonly types: readonly ChunkType[]
  /** Only chunks addressed to this index (usage/finish stay visible); null = all. */
  readonly index: number | null
  readonly search: string
  /** Collapse runs of consecutive deltas of one block into one row. */
  readonly collapseRuns: boolean
  /** Positions of run heads the user expanded again. */
  readonly expanded: readonly number[]
}

/** How the panels show the selected stream: the UI's own toggles, untouched by loading except the filter reset. */
export type ViewState = {
  readonly finalMode: 'cursor' | 'end'
  readonly theme: Theme
  readonly filter: TimelineFilter
  readonly helpOpen: boolean
  /** The interface language (`app/i18n/lang.ts`); the UI renders its catalogue. */
  readonly lang: Lang
}

export type ViewActions = {
  setFinalMode(mode: 'cursor' | 'end'): void
  setTheme(theme: Theme): void
  setFilter(patch: Partial<TimelineFilter>): void
  toggleRun(head: number): void
  setHelpOpen(open: boolean): void
  setLang(lang: Lang): void
}

export const initialFilter: TimelineFilter = {
  types: [],
  index: null,
  search: '',
  collapseRuns: false,
  expanded: [],
}

export function createViewSlice({ set, get }: SliceApi): { state: ViewState; actions: ViewActions } {
  return {
    state: { finalMode: 'cursor', theme: 'system', filter: initialFilter, helpOpen: false, lang: 'en' },
    actions: {
      setFinalMode(finalMode) {
        set({ finalMode })
      },
      setTheme(theme) {
        set({ theme })
      },
      setFilter(patch) {
        set({ filter: { ...get().filter, ...patch } })
      },
      toggleRun(head) {
        const expanded = get().filter.expanded
        set({
          filter: {
            ...get().filter,
            expanded: expanded.includes(head) ? expanded.filter((h) => h !== head) : [...expanded, head],
          },
        })
      },
      setHelpOpen(helpOpen) {
        set({ helpOpen })
      },
      setLang(lang) {
        set({ lang })
      },
    },
  }
}
