import { useCallback, useEffect, useState } from 'react'

/**
 * Full screen through the Fullscreen API; when the browser refuses (a permissions policy, an iframe, no API) the
 * presenter view fills the window instead and says so (`refused`).
 */
export function useFullscreen(): { active: boolean; refused: boolean; toggle: () => void } {
  const [native, setNative] = useState(
    () => typeof document !== 'undefined' && document.fullscreenElement !== null,
  )
  const [fallback, setFallback] = useState(false)
  useEffect(() => {
    const onChange = () => setNative(document.fullscreenElement !== null)
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])
  const toggle = useCallback(() => {
    if (fallback) return setFallback(false)
    if (document.fullscreenElement !== null) {
      void document.exitFullscreen().catch(() => undefined)
      return
    }
    const request = document.documentElement.requestFullscreen?.bind(document.documentElement)
    if (request === undefined || document.fullscreenEnabled === false) return setFallback(true)
    request().catch(() => setFallback(true))
  }, [fallback])
  return { active: native || fallback, refused: fallback, toggle }
}
