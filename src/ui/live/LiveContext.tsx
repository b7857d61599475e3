import { createContext, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { LiveController, LiveViewState } from '../../app/live/liveController'

const LiveContext = createContext<LiveController | null>(null)

export function LiveProvider({
  live,
  children,
}: {
  readonly live: LiveController
  readonly children: ReactNode
}) {
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>
}

/** The page's live controller: feeds, browser captures, the hub. */
export function useLive(): LiveController {
  const live = useContext(LiveContext)
  if (live === null) throw new Error('useLive outside <LiveProvider>')
  return live
}

/** An atomic selector over the live view (captures, feeds). */
export function useLiveView<T>(selector: (state: LiveViewState) => T): T {
  return useStore(useLive().view, selector)
}
