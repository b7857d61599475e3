import { useEffect } from 'react'
import { createRouter } from '../../app/open/router'
import { useOpen } from '../OpenContext'
import { useChunkscopeStore } from '../StoreContext'

/** Binds the URL router (`app/open/router.ts`) to the window: its address, history and navigation events. */
export function useUrlSync(): void {
  const store = useChunkscopeStore()
  const open = useOpen()

  useEffect(() => {
    const router = createRouter({
      store,
      open,
      location: window.location,
      history: {
        push: (hash) => window.history.pushState(null, '', hash),
        replace: (hash) => window.history.replaceState(null, '', hash),
      },
      // Then in idle time: replaceState takes milliseconds, and a timer firing between a key press and the frame
      // that shows it would add them to that step's key-to-paint (README.md, "Budgets").
      setTimer: (run, ms) => {
        let idle = 0
        const timer = window.setTimeout(() => {
          idle = window.requestIdleCallback(run, { timeout: 1000 })
        }, ms)
        return () => {
          window.clearTimeout(timer)
          window.cancelIdleCallback(idle)
        }
      },
    })
    void router.start()
    const onPop = () => void router.navigated()
    // A link pasted into the address bar of an open page changes only the fragment.
    const onHash = () => void router.hashChanged()
    window.addEventListener('popstate', onPop)
    window.addEventListener('hashchange', onHash)
    return () => {
      router.dispose()
      window.removeEventListener('popstate', onPop)
      window.removeEventListener('hashchange', onHash)
    }
  }, [store, open])
}
