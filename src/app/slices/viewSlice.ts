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
  /** Teaching: the presenter view (large type, narration, blocks in the middle; ui/teach/). */
  readonly presenter: boolean
  /** The presenter view's type size, a factor of the browser's (persisted by ui/teach/usePresenterSettings.ts). */
  readonly fontScale: number
  /** Teaching: ask the class what the next chunk will do before it is applied. */
  readonly predict: boolean
}

export type ViewActions = {
  setFinalMode(mode: 'cursor' | 'end'): void
  setTheme(theme: Theme): void
  setFilter(patch: Partial<TimelineFilter>): void
  toggleRun(head: number): void
  setHelpOpen(open: boolean): void
  setLang(lang: Lang): void
  togglePresenter(): void
  setFontScale(scale: number): void
  togglePredict(): void
}

/** The presenter's type sizes: from the browser's own up to three times it. */
export const FONT_SCALES = [1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const
export const DEFAULT_FONT_SCALE = 1.5

export const initialFilter: TimelineFilter = {
  types: [],
  index: null,
  search: '',
  collapseRuns: false,
  expanded: [],
}

export function createViewSlice({ set, get }: SliceApi): { state: ViewState; actions: ViewActions } {
  return {
    state: {
      finalMode: 'cursor',
      theme: 'system',
      filter: initialFilter,
      helpOpen: false,
      lang: 'en',
      presenter: false,
      fontScale: DEFAULT_FONT_SCALE,
      predict: false,
    },
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
      togglePresenter() {
        set({ presenter: !get().presenter })
      },
      setFontScale(scale) {
        const nearest = FONT_SCALES.reduce((a, b) => (Math.abs(b - scale) < Math.abs(a - scale) ? b : a))
        set({ fontScale: nearest })
      },
      togglePredict() {
        set({ predict: !get().predict })
      },
    },
  }
}
