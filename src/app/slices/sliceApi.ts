import type { StoreApi } from 'zustand/vanilla'
import type { ChunkscopeStoreState } from '../store'

/** What each slice gets from the store (zustand's slices pattern): the whole state to read, any part to set. */
export type SliceApi = {
  readonly set: StoreApi<ChunkscopeStoreState>['setState']
  readonly get: StoreApi<ChunkscopeStoreState>['getState']
}
