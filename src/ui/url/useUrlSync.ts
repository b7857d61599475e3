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
      setTimer: (run, ms) => {
        const timer = window.setTimeout(run, ms)
        return () => window.clearTimeout(timer)
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
