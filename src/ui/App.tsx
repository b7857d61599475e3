import { useEffect, useState, type ReactNode } from 'react'
import { TimelineOrAdapter } from './adapter/TimelineOrAdapter'
import { BlocksPanel } from './blocks/BlocksPanel'
import { ExperimentsPanel } from './experiments/ExperimentsPanel'
import { IgnoredPanel } from './blocks/IgnoredPanel'
import { FindingsPanel } from './findings/FindingsPanel'
import { useLangSync } from './i18n/useLangSync'
import { useT } from './i18n/useT'
import { Lanes } from './lanes/Lanes'
import { LivePanel } from './live/LivePanel'
import { Resizer } from './layout/Resizer'
import { DropZone } from './loading/DropZone'
import { StatusBar } from './loading/StatusBar'
import { Toolbar } from './loading/Toolbar'
import { FinalMessagePanel } from './message/FinalMessagePanel'
import { MetricsPanel } from './metrics/MetricsPanel'
import { Outline } from './outline/Outline'
import { useChunkscope } from './StoreContext'
import { HelpDialog } from './transport/HelpDialog'
import { Transport } from './transport/Transport'
import { useKeyboard } from './transport/useKeyboard'
import { usePlayback } from './transport/usePlayback'
import { useUrlSync } from './url/useUrlSync'
import { PresenterView } from './teach/PresenterView'
import { usePresenterSettings } from './teach/usePresenterSettings'

type Sizes = { left: number; right: number; bottom: number; lanes: number }
/** Defaults fit 1440×900; on a short screen the lanes and the message pane start smaller. */
const DEFAULT_SIZES: Sizes =
  typeof window !== 'undefined' && window.innerHeight < 850
    ? { left: 240, right: 380, bottom: 190, lanes: 84 }
    : { left: 260, right: 400, bottom: 220, lanes: 120 }

function useSizes(): [Sizes, (patch: Partial<Sizes>) => void] {
  const [sizes, setSizes] = useState<Sizes>(() => {
    try {
      return {
        ...DEFAULT_SIZES,
        ...(JSON.parse(localStorage.getItem('chunkscope.panes') ?? '{}') as Partial<Sizes>),
      }
    } catch {
      return DEFAULT_SIZES
    }
  })
  useEffect(() => localStorage.setItem('chunkscope.panes', JSON.stringify(sizes)), [sizes])
  return [sizes, (patch) => setSizes((current) => ({ ...current, ...patch }))]
}

/** The workbench: one page of resizable panes around the selected stream (DESIGN.md). */
export function App() {
  const t = useT()
  useLangSync()
  useUrlSync()
  useKeyboard()
  usePlayback()
  const live = useChunkscope((s) => s.origin?.kind === 'live')
  const [sizes, resize] = useSizes()
  const [drawer, setDrawer] = useState(false)
  usePresenterSettings()
  const presenter = useChunkscope((s) => s.presenter)

  if (presenter)
    return (
      <Root className="flex h-screen flex-col overflow-hidden bg-white text-slate-900 dark:bg-slate-900 dark:text-slate-100">
        <StatusBar />
        <PresenterView />
        <DropZone />
        <HelpDialog />
      </Root>
    )

  return (
    // Below the wide layout the blocks sit under the timeline, so the page needs more height before a panel is
    // squeezed: on a short screen (200% zoom: 720×450 CSS px) the page scrolls instead.
    <Root className="flex h-screen min-h-[46rem] flex-col overflow-hidden bg-white text-slate-900 wide:min-h-[40rem] dark:bg-slate-900 dark:text-slate-100">
      <Toolbar
        outlineOpen={drawer}
        onToggleOutline={() => setDrawer(!drawer)}
        onLive={() => setDrawer(true)}
      />
      <StatusBar />
      <div className="relative flex min-h-0 flex-1">
        <aside
          aria-label={t('app.sidebar')}
          style={{ width: sizes.left }}
          className={`${drawer ? 'absolute inset-y-0 left-0 z-20 flex shadow-xl' : 'hidden'} min-h-0 shrink-0 flex-col border-r border-slate-200 bg-white wide:static wide:flex wide:shadow-none dark:border-slate-700 dark:bg-slate-900`}
        >
          {live && <LivePanel />}
          <Outline />
          <FindingsPanel />
        </aside>
        <div className="hidden wide:flex">
          <Resizer
            axis="x"
            label="Resize sidebar"
            value={sizes.left}
            min={160}
            max={600}
            onChange={(left) => resize({ left })}
          />
        </div>
        <main className="flex min-h-0 min-w-0 flex-1 flex-col wide:flex-row">
          {/* Below the wide breakpoint the blocks sit under the timeline: the timeline keeps two thirds. */}
          <div className="flex min-h-0 min-w-0 flex-[2] flex-col">
            <div style={{ height: `min(${sizes.lanes}px, 18vh)` }} className="shrink-0 overflow-hidden">
              <Lanes />
            </div>
            <Resizer
              axis="y"
              label="Resize lanes"
              value={sizes.lanes}
              min={48}
              max={400}
              onChange={(lanes) => resize({ lanes })}
            />
            <TimelineOrAdapter />
          </div>
          <div className="hidden wide:flex">
            <Resizer
              axis="x"
              label="Resize blocks"
              value={sizes.right}
              min={240}
              max={900}
              sign={-1}
              onChange={(right) => resize({ right })}
            />
          </div>
          <div
            style={{ ['--right' as string]: `${sizes.right}px` }}
            className="flex min-h-[12rem] flex-1 flex-col border-t border-slate-200 wide:min-h-0 wide:w-(--right) wide:flex-none wide:border-t-0 wide:border-l dark:border-slate-700"
          >
            <BlocksPanel />
            <IgnoredPanel />
            <ExperimentsPanel />
          </div>
        </main>
      </div>
      <Transport />
      <Resizer
        axis="y"
        label="Resize final message"
        value={sizes.bottom}
        min={80}
        max={700}
        sign={-1}
        onChange={(bottom) => resize({ bottom })}
      />
      <div style={{ height: `min(${sizes.bottom}px, 30vh)` }} className="flex min-h-0 shrink-0">
        <FinalMessagePanel />
        <div className="flex w-[min(20rem,45vw)] shrink-0 border-l border-slate-200 wide:w-[30rem] dark:border-slate-700">
          <MetricsPanel />
        </div>
      </div>
      <DropZone />
      <HelpDialog />
    </Root>
  )
}

/**
 * The page's root, with the app's idle signal for e2e and the benches: `data-state` is "loading" until a source is
 * on screen, while one loads and until all its panels show. A component of its own, so that the signal's changes
 * re-render only this element: the workbench inside is the same element passed in.
 */
function Root({ className, children }: { readonly className: string; readonly children: ReactNode }) {
  const loading = useChunkscope((s) => s.status === 'loading' || s.origin === null || s.showing !== 'all')
  const opensEnded = useChunkscope((s) => s.opensEnded)
  return (
    <div data-state={loading ? 'loading' : 'idle'} data-opens={opensEnded} className={className}>
      {children}
    </div>
  )
}
