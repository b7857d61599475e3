import { useEffect, useRef } from 'react'

/**
 * A ref for a `<details>` used as a menu, closed by Escape (focus returns to its summary) or a click outside —
 * which a native `<details>` does not do by itself.
 */
export function useDetailsMenu() {
  const menu = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    const close = (event: Event) => {
      const details = menu.current
      if (details === null || !details.open) return
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !details.contains(event.target as Node)) {
        details.open = false
        if (event instanceof KeyboardEvent) details.querySelector('summary')?.focus()
      }
    }
    document.addEventListener('keydown', close)
    document.addEventListener('pointerdown', close)
    return () => {
      document.removeEventListener('keydown', close)
      document.removeEventListener('pointerdown', close)
    }
  }, [])
  return menu
}
