import type { SqlJsStatic } from 'sql.js'
import { findExample } from '../../examples'
import { loadSource } from '../../formats/load'
import { withReferences } from '../../formats/reference/traceReference'
import { decodeShareLink, inspectShareLink, type DecodedLink } from '../../formats/share/shareLink'
import type { ChunkscopeStore, Origin } from '../store'
import { fetchSource } from './fetchSource'
import { recallFile, rememberFile } from './fileMemory'
import { loadInBackground, prepareLoadWorker, type LoadInput } from './loadClient'

/** Where to land in the opened source: a stream key and a cursor; absent = the first stream with chunks, at its end. */
export type At = { readonly stream?: string; readonly k?: number }

/**
 * Every way a source gets in, as one union (one function opens them all, so each reports progress and failures the
 * same way): a dropped or picked file, the file a `#f=` fragment names (remembered by this browser), pasted text,
 * a built-in example, a `#v5.` share link, a `?src=` address, the live captures (`#live`, `?feed=`, the Live button).
 */
export type OpenRequest =
  | { readonly kind: 'file'; readonly file: File; readonly at?: At }
  | { readonly kind: 'remembered'; readonly name: string; readonly at?: At }
  /** The place a reload names for pasted text (`#paste&s=…&k=…`): the text itself is never kept. */
  | { readonly kind: 'pasted'; readonly at?: At }
  | { readonly kind: 'text'; readonly text: string; readonly name?: string }
  | { readonly kind: 'example'; readonly id: string; readonly at?: At }
  | { readonly kind: 'link'; readonly fragment: string }
  | { readonly kind: 'url'; readonly url: string; readonly at?: At }
  | {
      readonly kind: 'live'
      /** A feed to connect first (`?feed=`); a bad URL is reported, the live captures open anyway. */
      readonly feed?: string
      /** Connect again to the feeds this tab had before a reload. */
      readonly reconnect?: boolean
      readonly at?: At
    }

export type OpenOptions = {
  /** Opened instead when the request fails, so the page stays usable; the failure is shown over it. */
  readonly orElse?: OpenRequest
}

/** `opened`; a failure in plain words (also shown in the store's error banner); or `superseded` by a newer open. */
export type OpenOutcome =
  | { readonly kind: 'opened' }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'superseded' }

export type Open = (request: OpenRequest, options?: OpenOptions) => Promise<OpenOutcome>

/** The part of the live controller opening needs (tests pass a stand-in). */
export type LiveEntrance = {
  restore(): Promise<number>
  reconnect(): void
  connect(url: string): string | null
  show(): Promise<void>
}

export type OpenDeps = {
  readonly store: ChunkscopeStore
  readonly live?: LiveEntrance
  /** Asks for an encrypted link's passphrase; null = cancelled. `problem` says why the last one was refused. */
  readonly askPassphrase?: (problem: string | null) => Promise<string | null>
  /** Where a picked file is kept for reload (IndexedDB by default). */
  readonly files?: { remember(file: File): Promise<void>; recall(name: string): Promise<File | null> }
  readonly fetch?: typeof fetch
  /** sql.js where there is no loading worker (Node); the worker starts its own. */
  readonly sqlJs?: () => Promise<SqlJsStatic>
}

type Failure = { readonly error: string }
type Step = 'opened' | Failure

/**
 * The one way in: `open(request)` reads the source (off the main thread for files and text), shows it in the store
 * and lands on `at`. Progress goes to the store's status bar; a failure becomes one message in its error banner
 * (after `orElse`, when given, is opened), whatever is on screen stays. Only the newest request lands: an older one
 * still reading is dropped when it finishes (STYLE.md: only the newest request runs).
 *
 * @example
 * const open = createOpener({ store, live, askPassphrase })
 * await open({ kind: 'file', file })
 * await open({ kind: 'link', fragment: location.hash }, { orElse: { kind: 'example', id: 'seed' } })
 */
export function createOpener(deps: OpenDeps): Open {
  const { store } = deps
  const files = deps.files ?? { remember: rememberFile, recall: recallFile }
  prepareLoadWorker()
  let latest = 0
  /**
   * A place the URL named whose source this browser lacks (a `#f=` file it never saw, text pasted before a reload):
   * the next file of that name (or the next paste) opens there, so a copied address still lands where it pointed.
   */
  let awaited: { readonly name: string | null; readonly at: At } | null = null
  const landing = (name: string | null, at: At | undefined): At | undefined => {
    const claimed = awaited !== null && awaited.name === name ? awaited.at : undefined
    awaited = null
    return at ?? claimed
  }

  const actions = () => store.getState().actions

  /** Reads an input through the loading worker (or its Node twin) and shows it. */
  async function read(input: LoadInput, origin: Origin, at: At | undefined, current: () => boolean) {
    try {
      const source = await loadInBackground(
        input,
        (progress) => {
          if (current()) actions().reportProgress(progress)
        },
        deps.sqlJs === undefined ? {} : { sqlJs: deps.sqlJs },
      )
      if (!current()) return 'opened'
      // A trace export's reference finals go to the streams already open (docs/protocol.md §9, "A reference final"): the stream's
      // place and origin stay, its recorded messages are the trace's.
      // Not onto a built-in example: that is the page's default, not a stream the user opened.
      const open = store.getState().source
      const opened = store.getState().origin?.kind !== 'example'
      if (source.references !== undefined && open !== null && opened && open.sessions.length > 0) {
        const stream = store.getState().streamKey
        const place = stream === null ? {} : { stream, k: store.getState().k }
        await actions().showSource(withReferences(open, source), store.getState().origin ?? origin, place)
        return 'opened'
      }
      await actions().showSource(source, origin, at)
      return 'opened'
    } catch (error) {
      return {
        error: `could not load ${input.name}: ${error instanceof Error ? error.message : String(error)}`,
      }
    }
  }

  async function step(request: OpenRequest, current: () => boolean): Promise<Step> {
    switch (request.kind) {
      case 'file': {
        const { file } = request
        actions().startLoading()
        const shown = await read(
          { file, name: file.name },
          { kind: 'file', name: file.name },
          landing(file.name, request.at),
          current,
        )
        if (shown === 'opened') void files.remember(file)
        return shown
      }
      case 'remembered': {
        const file = await files.recall(request.name)
        if (file === null) {
          awaited = { name: request.name, at: request.at ?? {} }
          return {
            error: `${request.name} is not open in this browser (a link names a file, it does not carry it): drop it here to open ${placeWords(request.at)}`,
          }
        }
        awaited = null
        actions().startLoading()
        return read({ file, name: file.name }, { kind: 'file', name: file.name }, request.at, current)
      }
      case 'pasted':
        awaited = { name: null, at: request.at ?? {} }
        return {
          error: `the pasted text is gone (a reload does not keep pastes): paste it again to open ${placeWords(request.at)}`,
        }
      case 'text': {
        const name = request.name ?? 'pasted text'
        actions().startLoading()
        return read({ text: request.text, name }, { kind: 'paste', name }, landing(null, undefined), current)
      }
      case 'example': {
        const example = findExample(request.id)
        if (example === undefined) return { error: `there is no built-in example "${request.id}"` }
        // Examples are small: read them on the main thread, no worker round trip.
        await actions().showSource(
          loadSource(example.source(), example.title),
          { kind: 'example', id: request.id },
          request.at,
        )
        return 'opened'
      }
      case 'link':
        return openLink(request.fragment, current)
      case 'url': {
        actions().startLoading()
        const fetched = await fetchSource(request.url, {
          onProgress: ({ loaded, total }) => {
            if (current()) actions().reportProgress({ phase: 'reading', done: loaded, total: total ?? 0 })
          },
          ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
        })
        if ('error' in fetched) return fetched
        if (!current()) return 'opened'
        // A Blob goes through the loading worker and loadBytes, like a dropped file (zstd, zip, SQLite included).
        return read(
          { file: new Blob([fetched.bytes]), name: fetched.name },
          { kind: 'file', name: fetched.name },
          request.at,
          current,
        )
      }
      case 'live': {
        const live = deps.live
        if (live === undefined) return { error: 'live captures are not available here' }
        await live.restore()
        if (request.reconnect === true) live.reconnect()
        const problem = request.feed === undefined ? null : live.connect(request.feed)
        await live.show()
        if (request.at?.stream !== undefined && current())
          await actions().selectStream(request.at.stream, request.at.k)
        return problem === null ? 'opened' : { error: problem }
      }
    }
  }

  /** A `#v5.` link, asking for the passphrase of an encrypted one (and again after a wrong one). */
  async function openLink(fragment: string, current: () => boolean): Promise<Step> {
    let encrypted = inspectShareLink(fragment)?.encrypted === true
    let problem: string | null = null
    for (;;) {
      let passphrase: string | undefined
      if (encrypted) {
        const answer = deps.askPassphrase === undefined ? null : await deps.askPassphrase(problem)
        if (answer === null)
          return { error: 'the shared link was not opened: it is encrypted and no passphrase was given' }
        passphrase = answer
      }
      const opened = await decodeShareLink(fragment, passphrase === undefined ? {} : { passphrase })
      if ('error' in opened) {
        if (opened.needsPassphrase === true || opened.wrongPassphrase === true) {
          encrypted = true
          problem = opened.wrongPassphrase === true ? `${opened.error}. Try again.` : null
          continue
        }
        return opened
      }
      if (!current()) return 'opened'
      await actions().showSource(opened.source, linkOrigin(opened), {
        stream: opened.streamKey,
        k: opened.k,
        ...(opened.initialState === null ? {} : { initialState: opened.initialState }),
      })
      return 'opened'
    }
  }

  return async function open(request, options = {}) {
    const ticket = ++latest
    const current = () => ticket === latest
    const outcome = await step(request, current)
    if (!current()) return { kind: 'superseded' }
    if (outcome === 'opened') return { kind: 'opened' }
    if (options.orElse !== undefined) {
      const fallback = await open(options.orElse)
      if (fallback.kind === 'superseded' || latest !== ticket + 1) return { kind: 'superseded' }
    }
    actions().failLoading(outcome.error)
    return { kind: 'failed', error: outcome.error }
  }
}

/** "stream t1.s1.a1 at position 3": the transport's own words for the cursor (its "Position k / N" readout). */
export function placeWords(at: At | undefined): string {
  const stream = at?.stream === undefined ? 'it' : `stream ${at.stream}`
  return at?.k === undefined ? stream : `${stream} at position ${at.k}`
}

function linkOrigin(opened: DecodedLink): Origin {
  const name = opened.payload.name ?? 'shared stream'
  return {
    kind: 'link',
    name: `link: ${opened.sharedStream === null ? name : `${opened.sharedStream} of ${name}`}`,
    window: opened.window,
    redacted: opened.redacted !== null,
    encrypted: opened.encrypted,
  }
}
