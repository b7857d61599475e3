import { useEffect, useLayoutEffect } from 'react'
import { useChunkscope } from '../StoreContext'

/** localStorage key of the presenter's type size. */
export const FONT_SCALE_KEY = 'chunkscope.fontScale'

/**
 * Restores the presenter's type size from this browser, saves each change, and while presenting scales the root
 * font size: the workbench sizes its type in rem, so every panel grows with it (and with the browser's zoom).
 */
export function usePresenterSettings(): void {
  const presenter = useChunkscope((s) => s.presenter)
  const fontScale = useChunkscope((s) => s.fontScale)
  const { setFontScale } = useChunkscope((s) => s.actions)
  useLayoutEffect(() => {
    try {
      const saved = Number(localStorage.getItem(FONT_SCALE_KEY))
      if (saved > 0) setFontScale(saved)
    } catch {
      // Storage disabled: the default size.
    }
  }, [setFontScale])
  useEffect(() => {
    try {
      localStorage.setItem(FONT_SCALE_KEY, String(fontScale))
    } catch {
      // Not remembered, still applied.
    }
  }, [fontScale])
  useLayoutEffect(() => {
    const root = document.documentElement
    root.style.fontSize = presenter ? `${fontScale * 100}%` : ''
    return () => {
      root.style.fontSize = ''
    }
  }, [presenter, fontScale])
}
