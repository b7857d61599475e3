import { useEffect, useRef } from 'react'

const ITEMS = '[role="menuitem"]:not([disabled]), [role="menuitemcheckbox"]:not([disabled])'

/**
 * A ref for a `<details>` used as a menu (WAI-ARIA APG "menu button"): opening it focuses the first item; ↑/↓ move
 * between items (wrapping), Home/End go to the first/last; Escape, a click outside, or choosing an item close it (unless the item is marked `data-keeps-menu-open`) —
 * which a native `<details>` does not do by itself — and Escape and choosing return focus to its summary, so the
 * keyboard user is where they started. On the summary, ↓ opens the menu too.
 */
export function useDetailsMenu() {
  const menu = useRef<HTMLDetailsElement>(null)
  useEffect(() => {
    const details = menu.current
    if (details === null) return
    const items = () => [...details.querySelectorAll<HTMLElement>(ITEMS)]
    const summary = () => details.querySelector('summary')
    const close = (event: Event) => {
      if (!details.open) return
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !details.contains(event.target as Node)) {
        details.open = false
        if (event instanceof KeyboardEvent) summary()?.focus()
      }
    }
    const onToggle = () => {
      // Only a keyboard-opened menu moves focus into it; a pointer user keeps the pointer's place.
      if (details.open && details.matches(':has(summary:focus-visible)')) items()[0]?.focus()
    }
    const onKey = (event: KeyboardEvent) => {
      const list = items()
      if (!details.open) {
        if (event.key === 'ArrowDown' && event.target === summary()) {
          event.preventDefault()
          details.open = true
          list[0]?.focus()
        }
        return
      }
      const at = list.indexOf(document.activeElement as HTMLElement)
      const next =
        event.key === 'ArrowDown'
          ? (at + 1) % list.length
          : event.key === 'ArrowUp'
            ? (at - 1 + list.length) % list.length
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? list.length - 1
                : null
      if (next === null || list.length === 0) return
      event.preventDefault()
      // The workbench's own ←/→/Home/End must not also move the cursor while the menu has the keys.
      event.stopPropagation()
      list[next]?.focus()
    }
    const onChoose = (event: MouseEvent) => {
      const item = (event.target as HTMLElement).closest('[role="menuitem"]')
      // An item that reports its outcome inside the menu (Copy as bug report: "Copied to the clipboard") keeps it
      // open, so the outcome is seen; Escape or a click outside still close it.
      if (item === null || !details.open || item.hasAttribute('data-keeps-menu-open')) return
      details.open = false
      summary()?.focus()
    }
    document.addEventListener('keydown', close)
    document.addEventListener('pointerdown', close)
    details.addEventListener('toggle', onToggle)
    details.addEventListener('keydown', onKey)
    details.addEventListener('click', onChoose)
    return () => {
      document.removeEventListener('keydown', close)
      document.removeEventListener('pointerdown', close)
      details.removeEventListener('toggle', onToggle)
      details.removeEventListener('keydown', onKey)
      details.removeEventListener('click', onChoose)
    }
  }, [])
  return menu
}
