import { DEFAULT_EXAMPLE } from '../../examples'
import { isShareFragment } from '../../formats/share/shareLink'
import type { ChunkscopeState, ChunkscopeStore } from '../store'
import { sourceUrlParam } from './fetchSource'
import type { At, Open, OpenRequest } from './openSource'
import { formatPlace, parsePlace, type Place } from './urlState'

/**
 * Cursor moves replace the history entry once the cursor has rested this long, and at least every REPLACE_MAX_MS
 * while it keeps moving (playback). A replaceState costs the page milliseconds and the browser a repaint of its
 * address bar, so none runs between the steps of a run of key presses (browsers also throttle it).
 */
export const REPLACE_MS = 150
export const REPLACE_MAX_MS = 1000

/** What the router needs of the page: the address, the history, a timer. The browser passes `window`'s. */
export type RouterDeps = {
  readonly store: ChunkscopeStore
  readonly open: Open
  readonly location: { readonly hash: string; readonly search: string }
  readonly history: { push(hash: string): void; replace(hash: string): void }
  readonly setTimer: (run: () => void, ms: number) => () => void
}

export type Router = {
  /** Opens what the URL names (page load); resolves once it is on screen. */
  start(): Promise<void>
  /** Back/forward (`popstate`): go to the place the URL names now. */
  navigated(): Promise<void>
  /** The fragment changed without history (`hashchange`): only a pasted `#v5.` link is opened. */
  hashChanged(): Promise<void>
  dispose(): void
}

/**
 * Keeps the URL fragment equal to the place on screen (`#ex=seed&s=stream&k=4`), and goes back there on reload and
 * back/forward. A new source or stream is a history entry; cursor moves replace the current one, so Back leaves
 * the stream instead of undoing a thousand steps. A share link stays in the URL as it came (a reload re-opens it).
 *
 * @example
 * const router = createRouter({ store, open, location: window.location, history, setTimer })
 * void router.start()
 * window.addEventListener('popstate', () => void router.navigated())
 */
export function createRouter(deps: RouterDeps): Router {
  const { store, open, location, history } = deps
  let applying = false
  let disposed = false
  /** The `#v5.` fragment being opened or on screen: popstate and hashchange both fire for one navigation. */
  let openedLink: string | null = null
  let cancelRest: (() => void) | null = null
  let cancelLongest: (() => void) | null = null
  const stopReplacing = (): void => {
    cancelRest?.()
    cancelLongest?.()
    cancelRest = null
    cancelLongest = null
  }
  const replaceNow = (): void => {
    stopReplacing()
    if (!disposed) normalise()
  }

  const normalise = (): void => {
    const shown = placeOf(store.getState())
    if (shown !== null && formatPlace(shown) !== location.hash) history.replace(formatPlace(shown))
  }

  const apply = async (): Promise<void> => {
    const hash = location.hash
    if (isShareFragment(hash) && hash === openedLink) return
    applying = true
    try {
      if (isShareFragment(hash)) {
        openedLink = hash
        // A broken link still leaves a usable page: the default example, with the link's problem in the banner.
        const outcome = await open({ kind: 'link', fragment: hash }, { orElse: defaultExample() })
        if (outcome.kind === 'failed') openedLink = null
        return
      }
      openedLink = null
      const place = parsePlace(hash)
      const state = store.getState()
      if (sameSource(place, placeOf(state))) {
        if (place.stream !== undefined && place.stream !== state.streamKey)
          await state.actions.selectStream(place.stream, place.k)
        else if (place.k !== undefined) state.actions.seekTo(place.k)
        return
      }
      const request = requestFor(place, location.search)
      await open(request.open, request.orElse === undefined ? {} : { orElse: request.orElse })
    } finally {
      applying = false
      // The fragment becomes what is on screen now (the default example, a clamped cursor, …).
      if (!disposed) normalise()
    }
  }

  const unsubscribe = store.subscribe((state, previous) => {
    if (applying || disposed) return
    // Another source replaced the link: going Back to the link must open it again.
    if (state.origin !== previous.origin && state.origin?.kind !== 'link') openedLink = null
    const place = placeOf(state)
    if (place === null) return
    const hash = formatPlace(place)
    if (hash === location.hash) return
    if (state.origin !== previous.origin || state.streamKey !== previous.streamKey) {
      stopReplacing()
      history.push(hash)
    } else {
      cancelRest?.()
      cancelRest = deps.setTimer(replaceNow, REPLACE_MS)
      cancelLongest ??= deps.setTimer(replaceNow, REPLACE_MAX_MS)
    }
  })

  return {
    start: apply,
    navigated: apply,
    hashChanged: () => (isShareFragment(location.hash) ? apply() : Promise.resolve()),
    dispose() {
      disposed = true
      stopReplacing()
      unsubscribe()
    },
  }
}

/** The place the URL should name for what is on screen; null for a share link (the URL keeps the link). */
export function placeOf(state: ChunkscopeState): Place | null {
  const { origin, streamKey, k } = state
  if (origin === null || streamKey === null || origin.kind === 'link') return null
  const source: Place =
    origin.kind === 'example'
      ? { example: origin.id }
      : origin.kind === 'file'
        ? { file: origin.name }
        : origin.kind === 'live'
          ? { live: true }
          : { paste: true }
  return { ...source, stream: streamKey, k }
}

function sameSource(place: Place, current: Place | null): boolean {
  return (
    current !== null &&
    ((place.live === true && current.live === true) ||
      (place.example !== undefined && place.example === current.example) ||
      (place.file !== undefined && place.file === current.file) ||
      (place.paste === true && current.paste === true))
  )
}

const defaultExample = (): OpenRequest => ({ kind: 'example', id: DEFAULT_EXAMPLE.id })

/** The open request a place (and the page's query) names, and what to open instead if it fails. */
export function requestFor(place: Place, search: string): { open: OpenRequest; orElse?: OpenRequest } {
  const at: At = {
    ...(place.stream === undefined ? {} : { stream: place.stream }),
    ...(place.k === undefined ? {} : { k: place.k }),
  }
  // `#live`, or `?feed=http://127.0.0.1:8787` (what `chunkscope proxy` / `attach` print): the live captures.
  const feed = feedUrlParam(search)
  if (place.live === true || feed !== null)
    return { open: { kind: 'live', reconnect: true, ...(feed === null ? {} : { feed }), at } }
  // `?src=https://…`: fetched again on reload (the fragment then keeps only the stream and cursor).
  const src = sourceUrlParam(search)
  if (src !== null && place.example === undefined)
    return { open: { kind: 'url', url: src, at }, orElse: defaultExample() }
  const example: OpenRequest =
    place.example === undefined ? defaultExample() : { kind: 'example', id: place.example, at }
  // A file or a paste this page lacks: the example stays usable while the banner asks for the source by name.
  if (place.file !== undefined) return { open: { kind: 'remembered', name: place.file, at }, orElse: example }
  if (place.paste === true) return { open: { kind: 'pasted', at }, orElse: example }
  return { open: example }
}

/** `?feed=URL`: a live feed to subscribe to on load. */
export function feedUrlParam(search: string): string | null {
  const value = new URLSearchParams(search).get('feed')
  return value === null || value.trim() === '' ? null : value
}
