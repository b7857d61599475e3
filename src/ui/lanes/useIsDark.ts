import { useSyncExternalStore } from 'react'
import { useChunkscope } from '../StoreContext'

const QUERY = '(prefers-color-scheme: dark)'

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(QUERY)
  media.addEventListener('change', onChange)
  return () => media.removeEventListener('change', onChange)
}

/** Whether the page is dark right now: the theme switch's choice, or the OS setting under "system". */
export function useIsDark(): boolean {
  const theme = useChunkscope((s) => s.theme)
  const systemDark = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  )
  return theme === 'dark' || (theme === 'system' && systemDark)
}
