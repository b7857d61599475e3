import { useEffect } from 'react'
import { openPresenterChannel } from '../../app/teach/presenterChannel'
import type { ChunkscopeStoreState } from '../../app/store'
import { translate } from '../i18n/translate'
import { useChunkscopeStore } from '../StoreContext'
import { buildNotesState } from './buildNotesState'

/**
 * The presenting window's side of the notes channel: posts the notes at every cursor move, stream or language change
 * (and when a notes window says hello), and steps when the notes window asks. Through `store.subscribe`, so the
 * presenting window renders nothing more for it.
 */
export function usePresenterBroadcast(): void {
  const store = useChunkscopeStore()
  useEffect(() => {
    const notesOf = (s: ChunkscopeStoreState) =>
      s.engine === null || s.frame === null
        ? null
        : buildNotesState(s.engine, s.frame, s.source?.lesson, s.streamKey, s.lang, (key, params) =>
            translate(s.lang, key, params),
          )
    const channel = openPresenterChannel((message) => {
      if (message.type === 'hello') post(store.getState())
      if (message.type === 'step') store.getState().actions.stepBy(message.delta)
    })
    const post = (s: ChunkscopeStoreState) => {
      const state = notesOf(s)
      if (state !== null) channel?.post({ type: 'state', state })
    }
    post(store.getState())
    const unsubscribe = store.subscribe((s, before) => {
      if (s.frame !== before.frame || s.lang !== before.lang || s.source !== before.source) post(s)
    })
    return () => {
      unsubscribe()
      channel?.close()
    }
  }, [store])
}
