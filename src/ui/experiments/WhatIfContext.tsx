import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react'
import { useWhatIf, type WhatIf } from './useWhatIf'

const WhatIfContext = createContext<WhatIf | null>(null)

/**
 * One what-if session for the whole workbench (docs/protocol.md §13): the Experiments panel and the timeline's row
 * menu edit the same history. Ctrl+Z / Ctrl+Shift+Z (⌘ on a Mac) undo and redo an edit while a what-if is active,
 * except in a text field, where they keep their own meaning.
 */
export function WhatIfProvider({ children }: { readonly children: ReactNode }) {
  const whatIf = useWhatIf()
  const latest = useRef(whatIf)
  useEffect(() => {
    latest.current = whatIf
  })
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 'z') return
      const target = event.target as HTMLElement | null
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return
      const { session, undo, redo } = latest.current
      if (session === null) return
      const redoing = event.shiftKey
      if (redoing ? session.history.undone.length === 0 : session.history.done.length === 0) return
      event.preventDefault()
      if (redoing) redo()
      else undo()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [])
  return <WhatIfContext.Provider value={whatIf}>{children}</WhatIfContext.Provider>
}

/** The workbench's what-if session; null outside a WhatIfProvider (the timeline then offers no edits). */
export function useWhatIfContext(): WhatIf | null {
  return useContext(WhatIfContext)
}
