import { useEffect } from 'react'
import { FONT_SCALES } from '../../app/slices/viewSlice'
import type { MessageKey } from '../i18n/translate'
import { useChunkscopeStore } from '../StoreContext'

/** The workbench's keys, listed by the `?` dialog; one table so the dialog and the handler cannot drift apart. */
export const KEYS: readonly { readonly keys: string; readonly action: MessageKey }[] = [
  { keys: '← / →', action: 'keys.step' },
  { keys: 'Shift+← / Shift+→', action: 'keys.boundary' },
  { keys: 'Home / End', action: 'keys.ends' },
  { keys: 'Space', action: 'keys.play' },
  { keys: '/', action: 'keys.search' },
  { keys: '↑ / ↓, PgUp / PgDn', action: 'keys.timelineRows' },
  { keys: 'Enter', action: 'keys.timelineRun' },
  { keys: '↑ / ↓ / ← / →', action: 'keys.outline' },
  { keys: 'W / S, + / −, Ctrl+wheel', action: 'keys.lanesZoom' },
  { keys: 'A / D, Shift+wheel', action: 'keys.lanesPan' },
  { keys: 'Shift+← / →', action: 'keys.lanesRange' },
  { keys: 'P', action: 'keys.presenter' },
  { keys: '+ / −', action: 'keys.fontScale' },
  { keys: '?', action: 'keys.help' },
  { keys: 'Esc', action: 'keys.escape' },
  { keys: 'Ctrl/Cmd+V', action: 'keys.paste' },
  { keys: 'Tab', action: 'keys.tab' },
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
          case 'p':
          case 'P':
            act.togglePresenter()
            return true
          case '+':
          case '=':
          case '-':
          case '−': {
            if (!state.presenter) return false
            const at = FONT_SCALES.indexOf(state.fontScale as (typeof FONT_SCALES)[number])
            const next = FONT_SCALES[at + (event.key === '+' || event.key === '=' ? 1 : -1)]
            if (next !== undefined) act.setFontScale(next)
            return true
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
