import { useEffect } from 'react'
import { useChunkscopeStore } from '../StoreContext'

/** The workbench's keys, listed by the `?` dialog; one table so the dialog and the handler cannot drift apart. */
export const KEYS: readonly { readonly keys: string; readonly action: string }[] = [
  { keys: '← / →', action: 'Previous / next chunk' },
  { keys: 'Shift+← / Shift+→', action: 'Previous / next block boundary (a block opens or closes)' },
  { keys: 'Home / End', action: 'First (nothing applied) / last (everything applied)' },
  { keys: 'Space', action: 'Play / pause' },
  { keys: '/', action: 'Search the timeline payloads (Enter / Shift+Enter: next / previous match)' },
  { keys: '↑ / ↓, PgUp / PgDn', action: 'In the timeline: move the cursor row by row or page by page' },
  { keys: 'Enter', action: 'In the timeline: expand or collapse a run of deltas' },
  { keys: '↑ / ↓ / ← / →', action: 'In the outline: move through turns, steps and attempts; Enter selects' },
  { keys: '?', action: 'Show this list' },
  { keys: 'Esc', action: 'Close a dialog or menu' },
  { keys: 'Ctrl/Cmd+V', action: 'Paste a stream anywhere on the page' },
  { keys: 'Tab', action: 'Move between controls (focus is always visible)' },
]

/** True when the key belongs to what has focus (typing in a field, a button's own Space). */
function ownedByTarget(event: KeyboardEvent): boolean {
  const target = event.target
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag === 'INPUT')
    return (
      !['checkbox', 'radio', 'button', 'range'].includes((target as HTMLInputElement).type) ||
      event.key === ' '
    )
  if (event.key === ' ' && (tag === 'BUTTON' || target.getAttribute('role') === 'button')) return true
  return target.getAttribute('role') === 'separator' && event.key.startsWith('Arrow')
}

export function useKeyboard(): void {
  const store = useChunkscopeStore()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
      if (ownedByTarget(event)) return
      const state = store.getState()
      const act = state.actions
      const handled = (() => {
        switch (event.key) {
          case 'ArrowRight':
            if (event.shiftKey) act.stepToBoundary(1)
            else act.stepBy(1)
            return true
          case 'ArrowLeft':
            if (event.shiftKey) act.stepToBoundary(-1)
            else act.stepBy(-1)
            return true
          case 'Home':
            act.seekTo(0)
            return true
          case 'End':
            act.seekTo(state.engine?.total ?? 0)
            return true
          case ' ':
            act.togglePlay()
            return true
          case '/': {
            const search = document.querySelector<HTMLInputElement>('[data-search="timeline"]')
            search?.focus()
            search?.select()
            return search !== null
          }
          case '?':
            act.setHelpOpen(true)
            return true
          case 'Escape':
            if (!state.helpOpen) return false
            act.setHelpOpen(false)
            return true
          default:
            return false
        }
      })()
      if (handled) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [store])
}
