import { useEffect } from 'react'
import { DEFAULT_EXAMPLE } from '../../examples'
import { sourceUrlParam } from '../../app/open/fetchSource'
import { isShareFragment } from '../../formats/share/shareLink'
import type { ChunkscopeState } from '../../app/store'
import { formatPlace, parsePlace, type Place } from '../../app/open/urlState'
import { useChunkscopeStore } from '../StoreContext'
import { useLive } from '../live/LiveContext'
import { useSourceLoader } from '../loading/useSourceLoader'
import { useOpenShared } from '../share/useOpenShared'
import { recallFile } from '../../app/open/fileMemory'

const REPLACE_MS = 150

function placeOf(state: ChunkscopeState): Place | null {
  const { origin, streamKey, k } = state
  // A share link stays in the URL as it came (a reload re-opens it); the cursor on it is kept in memory only.
  if (origin === null || streamKey === null || origin.kind === 'link') return null
  const source =
    origin.kind === 'example'
      ? { example: origin.id }
      : origin.kind === 'file'
        ? { file: origin.name }
        : origin.kind === 'live'
          ? { live: true as const }
          : {}
  return { ...source, stream: streamKey, k }
}

/**
 * Keeps the URL fragment equal to the place on screen (`#ex=seed&s=stream&k=4`), and goes back there on reload and
 * back/forward. A new source or stream is a history entry; cursor moves replace the current one, so Back leaves
 * the stream instead of undoing a thousand steps.
 */
export function useUrlSync(): void {
  const store = useChunkscopeStore()
  const { load, openExample } = useSourceLoader()
  const { openLink, openUrl } = useOpenShared()
  const live = useLive()

  useEffect(() => {
    let applying = false
    let disposed = false
    /** The `#v1.` fragment being opened or on screen: popstate and hashchange both fire for one navigation. */
    let openedLink: string | null = null
    const apply = async (place: Place) => {
      const hash = window.location.hash
      if (isShareFragment(hash) && hash === openedLink) return
      applying = true
      try {
        if (isShareFragment(hash)) {
          openedLink = hash
          const error = await openLink(hash)
          // Unmounted, or a newer navigation took over (its passphrase prompt cancelled this one's): leave it be.
          if (error === null || disposed || window.location.hash !== hash) return
          openedLink = null
          // The page stays usable: the default example, with the link's problem in the error banner.
          await openExample(DEFAULT_EXAMPLE.id)
          store.getState().actions.failLoading(error)
          return
        }
        openedLink = null
        const state = store.getState()
        const current = placeOf(state)
        const at = {
          ...(place.stream === undefined ? {} : { stream: place.stream }),
          ...(place.k === undefined ? {} : { k: place.k }),
        }
        const sameSource =
          current !== null &&
          ((place.live === true && current.live === true) ||
            (place.example !== undefined && place.example === current.example) ||
            (place.file !== undefined && place.file === current.file))
        if (sameSource) {
          if (place.stream !== undefined && place.stream !== state.streamKey)
            await state.actions.selectStream(place.stream, place.k)
          else if (place.k !== undefined) state.actions.seekTo(place.k)
          return
        }
        // `#live`, or `?feed=http://127.0.0.1:8787` (what `chunkscope proxy` / `attach` print): the live captures.
        const feed = feedUrlParam(window.location.search)
        if (place.live === true || feed !== null) {
          await live.restore()
          live.reconnect()
          if (feed !== null) {
            const problem = live.connect(feed)
            if (problem !== null) store.getState().actions.failLoading(problem)
          }
          await live.show()
          if (place.stream !== undefined) await store.getState().actions.selectStream(place.stream, place.k)
          return
        }
        // `?src=https://…`: fetched again on reload (the fragment then keeps only the stream and cursor).
        const src = sourceUrlParam(window.location.search)
        if (src !== null && place.example === undefined) {
          const error = await openUrl(src, at)
          if (error !== null) {
            await openExample(DEFAULT_EXAMPLE.id)
            store.getState().actions.failLoading(error)
          }
          return
        }
        if (place.file !== undefined) {
          const file = await recallFile(place.file)
          if (file !== null) {
            await load({ file, name: file.name }, { kind: 'file', name: file.name }, at)
            return
          }
          store
            .getState()
            .actions.failLoading(`${place.file} is no longer remembered by this browser: open it again`)
        }
        await openExample(place.example ?? DEFAULT_EXAMPLE.id, place.example !== undefined ? at : {})
      } finally {
        applying = false
        // Normalise the fragment to what is on screen now (the default example, a clamped cursor, …).
        const shown = placeOf(store.getState())
        if (shown !== null && formatPlace(shown) !== window.location.hash) {
          window.history.replaceState(null, '', formatPlace(shown))
        }
      }
    }

    void apply(parsePlace(window.location.hash))

    // Cursor moves replace the entry at most every REPLACE_MS (replaceState costs milliseconds and browsers
    // throttle it); a new source or stream pushes an entry at once.
    let pending = 0
    const replaceSoon = () => {
      if (pending !== 0) return
      pending = window.setTimeout(() => {
        pending = 0
        const place = placeOf(store.getState())
        if (place !== null && formatPlace(place) !== window.location.hash) {
          window.history.replaceState(null, '', formatPlace(place))
        }
      }, REPLACE_MS)
    }
    const unsubscribe = store.subscribe((state, previous) => {
      if (applying) return
      // Another source replaced the link: going Back to the link must open it again.
      if (state.origin !== previous.origin && state.origin?.kind !== 'link') openedLink = null
      const place = placeOf(state)
      if (place === null) return
      const hash = formatPlace(place)
      if (hash === window.location.hash) return
      const moved = state.origin !== previous.origin || state.streamKey !== previous.streamKey
      if (moved) {
        window.clearTimeout(pending)
        pending = 0
        window.history.pushState(null, '', hash)
      } else replaceSoon()
    })
    const onPop = () => void apply(parsePlace(window.location.hash))
    // A link pasted into the address bar of an open page changes only the fragment.
    const onHash = () => {
      if (isShareFragment(window.location.hash)) onPop()
    }
    window.addEventListener('popstate', onPop)
    window.addEventListener('hashchange', onHash)
    return () => {
      disposed = true
      window.clearTimeout(pending)
      unsubscribe()
      window.removeEventListener('popstate', onPop)
      window.removeEventListener('hashchange', onHash)
    }
  }, [store, load, openExample, openLink, openUrl, live])
}

/** `?feed=URL`: a live feed to subscribe to on load. */
export function feedUrlParam(search: string): string | null {
  const value = new URLSearchParams(search).get('feed')
  return value === null || value.trim() === '' ? null : value
}
