import { createContext, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { ChunkscopeStore, ChunkscopeStoreState } from '../app/store'

const StoreContext = createContext<ChunkscopeStore | null>(null)

export function StoreProvider({
  store,
  children,
}: {
  readonly store: ChunkscopeStore
  readonly children: ReactNode
}) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
}

/** The store itself, for actions and `subscribe` on hot paths (playback, scrubbing). */
export function useChunkscopeStore(): ChunkscopeStore {
  const store = useContext(StoreContext)
  if (store === null) throw new Error('useChunkscopeStore outside <StoreProvider>')
  return store
}

/** An atomic selector over the store (wrap with `useShallow` when it builds an object or array). */
export function useChunkscope<T>(selector: (state: ChunkscopeStoreState) => T): T {
  return useStore(useChunkscopeStore(), selector)
}
