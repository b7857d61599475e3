import { useEffect } from 'react'
import { createRouter } from '../../app/open/router'
import { whenQuiet } from '../idleSlices'
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
      // Then in idle time, and not while keys or clicks keep coming: replaceState blocked the page for 0.4–150 ms
      // in the views bench (a shared machine), and one landing between a key press and the frame that shows it
      // adds that to the step's key-to-paint (README.md, "Budgets"). Playback (no input) still replaces every
      // REPLACE_MAX_MS; a run of key presses replaces once it stops.
      setTimer: (run, ms) => {
        let cancelQuiet = () => {}
        const timer = window.setTimeout(() => {
          cancelQuiet = whenQuiet(run, 1000, Number.POSITIVE_INFINITY)
        }, ms)
        return () => {
          window.clearTimeout(timer)
          cancelQuiet()
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
