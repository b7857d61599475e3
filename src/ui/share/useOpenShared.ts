import { useCallback } from 'react'
import { fetchSource } from '../../app/open/fetchSource'
import { decodeShareLink, inspectShareLink } from '../../formats/share/shareLink'
import { useChunkscopeStore } from '../StoreContext'
import { useSourceLoader } from '../loading/useSourceLoader'
import { askPassphrase } from './passphrasePrompt'

type At = { stream?: string; k?: number }

/**
 * Opening what a URL points at: a `#v1.` share link (asking for the passphrase of an encrypted one, again after a
 * wrong one) or a `?src=` address (fetched with progress, then read like a dropped file). Both resolve with an
 * error in plain words, or null once the source is on screen; the caller decides what to show on failure.
 */
export function useOpenShared() {
  const store = useChunkscopeStore()
  const { load } = useSourceLoader()

  const openLink = useCallback(
    async (fragment: string): Promise<string | null> => {
      let encrypted = inspectShareLink(fragment)?.encrypted === true
      let problem: string | null = null
      for (;;) {
        let passphrase: string | undefined
        if (encrypted) {
          const answer = await askPassphrase(problem)
          if (answer === null)
            return 'the shared link was not opened: it is encrypted and no passphrase was given'
          passphrase = answer
        }
        const opened = await decodeShareLink(fragment, passphrase === undefined ? {} : { passphrase })
        if ('error' in opened) {
          if (opened.needsPassphrase === true || opened.wrongPassphrase === true) {
            encrypted = true
            problem = opened.wrongPassphrase === true ? `${opened.error}. Try again.` : null
            continue
          }
          return opened.error
        }
        const name = opened.payload.name ?? 'shared stream'
        await store.getState().actions.showSource(
          opened.source,
          {
            kind: 'link',
            name: `link: ${opened.sharedStream === null ? name : `${opened.sharedStream} of ${name}`}`,
            window: opened.window,
            redacted: opened.redacted !== null,
            encrypted: opened.encrypted,
          },
          {
            stream: opened.streamKey,
            k: opened.k,
            ...(opened.initialState === null ? {} : { initialState: opened.initialState }),
          },
        )
        return null
      }
    },
    [store],
  )

  const openUrl = useCallback(
    async (url: string, at: At = {}): Promise<string | null> => {
      const { startLoading, reportProgress } = store.getState().actions
      startLoading()
      const fetched = await fetchSource(url, {
        onProgress: ({ loaded, total }) =>
          reportProgress({ phase: 'reading', done: loaded, total: total ?? 0 }),
      })
      if ('error' in fetched) return fetched.error
      // A Blob goes through the loading worker and loadBytes, like a dropped file (zstd, zip, SQLite included).
      await load(
        { file: new Blob([fetched.bytes]), name: fetched.name },
        { kind: 'file', name: fetched.name },
        at,
      )
      return null
    },
    [store, load],
  )

  return { openLink, openUrl }
}
