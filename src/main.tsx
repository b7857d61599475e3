import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createChunkscopeStore } from './app/store'
import { BROWSER_LIMITS } from './app/workers/budget'
import { LiveController, sessionFeedMemory } from './app/live/liveController'
import { createOpener } from './app/open/openSource'
import { askPassphrase } from './app/open/passphrasePrompt'
import { App } from './ui/App'
import { isNotesWindow } from './app/teach/presenterChannel'
import { NotesView } from './ui/teach/NotesView'
import { LiveProvider } from './ui/live/LiveContext'
import { OpenProvider } from './ui/OpenContext'
import { WhatIfProvider } from './ui/experiments/WhatIfContext'
import { StoreProvider } from './ui/StoreContext'
import './index.css'

const container = document.getElementById('root')
if (!container) throw new Error('index.html has no #root element')

// The UI benches' own build (`vite build --mode bench`) opens generated streams past the browser limits through a
// page hook (src/bench/pageHook.ts). Vite folds MODE at build time: the production build carries none of it.
const BENCH = import.meta.env.MODE === 'bench'
const store = createChunkscopeStore(
  BENCH ? { limits: { ...BROWSER_LIMITS, chunksPerStream: Infinity, charsPerStream: Infinity } } : {},
)
if (BENCH) void import('./bench/pageHook').then(({ installBenchHook }) => installBenchHook(store))
const live = new LiveController(store, { feedMemory: sessionFeedMemory() })
// Captures saved by this browser come back first (a reload mid-stream loses nothing already received).
void live.restore()
// Every entrance (drop, paste, examples, the URL, links, live) opens its source through this one function.
const open = createOpener({ store, live, askPassphrase })

createRoot(container).render(
  <StrictMode>
    <StoreProvider store={store}>
      <LiveProvider live={live}>
        <OpenProvider open={open}>
          <WhatIfProvider>{isNotesWindow(window.location.search) ? <NotesView /> : <App />}</WhatIfProvider>
        </OpenProvider>
      </LiveProvider>
    </StoreProvider>
  </StrictMode>,
)
