import { useCallback } from 'react'
import { findExample } from '../../examples'
import { loadSource } from '../../formats/load'
import { loadInBackground, type LoadInput } from '../../app/open/loadClient'
import type { Origin } from '../../app/store'
import { useChunkscopeStore } from '../StoreContext'
import { rememberFile } from '../../app/open/fileMemory'

/** The ways a source gets in: a file (drop or "Open file"), pasted text, a built-in example. */
export function useSourceLoader() {
  const store = useChunkscopeStore()

  const load = useCallback(
    async (input: LoadInput, origin: Origin, at?: { stream?: string; k?: number }) => {
      const { startLoading, reportProgress, failLoading, showSource } = store.getState().actions
      startLoading()
      try {
        const source = await loadInBackground(input, reportProgress)
        await showSource(source, origin, at)
      } catch (error) {
        failLoading(`could not load ${input.name}: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
    [store],
  )

  const openFile = useCallback(
    async (file: File) => {
      await load({ file, name: file.name }, { kind: 'file', name: file.name })
      void rememberFile(file)
    },
    [load],
  )

  const openText = useCallback(
    (text: string, name = 'pasted text') => load({ text, name }, { kind: 'paste', name }),
    [load],
  )

  const openExample = useCallback(
    async (id: string, at?: { stream?: string; k?: number }) => {
      const example = findExample(id)
      if (example === undefined) {
        store.getState().actions.failLoading(`there is no built-in example "${id}"`)
        return
      }
      // Examples are small: read them on the main thread, no worker round trip.
      await store
        .getState()
        .actions.showSource(loadSource(example.source(), example.title), { kind: 'example', id }, at)
    },
    [store],
  )

  return { load, openFile, openText, openExample }
}
