import { createContext, useContext, type ReactNode } from 'react'
import type { Open } from '../app/open/openSource'

const OpenContext = createContext<Open | null>(null)

export function OpenProvider({ open, children }: { readonly open: Open; readonly children: ReactNode }) {
  return <OpenContext.Provider value={open}>{children}</OpenContext.Provider>
}

/** The page's one way in (`app/open/openSource.ts`): every entrance opens its source through it. */
export function useOpen(): Open {
  const open = useContext(OpenContext)
  if (open === null) throw new Error('useOpen outside <OpenProvider>')
  return open
}
