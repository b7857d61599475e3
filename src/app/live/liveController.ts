// Ties live captures (feeds, and the page's own browser captures) to the workbench store.
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ChunkscopeStore } from '../store'
import { streamKey } from '../../formats/streamRefs'
import {
  startBrowserCapture,
  type BrowserCapture,
  type BrowserCaptureOptions,
} from '../capture/browserCapture'
import { captureSink, openCaptureStore, type CaptureStore } from '../capture/captureStore'
import type { ChatRequest } from '../capture/chatRequest'
import { FeedClient, normaliseFeedUrl, type FeedDeps, type FeedStatus } from './feedClient'
import { LiveHub, type HubCapture } from './liveHub'

export type LiveViewState = {
  /** Every capture the page knows, in session order. */
  readonly captures: readonly HubCapture[]
  /** One entry per connected feed. */
  readonly feeds: readonly FeedStatus[]
  /** Ids of the browser captures this page is streaming now (they can be stopped). */
  readonly running: readonly string[]
  /** Why the page's own captures are not durable (no IndexedDB, a failed write), or null. */
  readonly storageProblem: string | null
}

export type LiveControllerOptions = {
  readonly feedDeps?: FeedDeps
  /** Durable storage for browser captures (IndexedDB in the page); none = memory only, said in the panel. */
  readonly openStore?: () => Promise<CaptureStore>
  /** Where the connected feeds' URLs survive a reload of this tab (the page passes sessionStorage). */
  readonly feedMemory?: { recall(): string[]; keep(urls: readonly string[]): void }
  /** Passed to each browser capture (tests inject fetch, sleep). */
  readonly captureOptions?: Partial<BrowserCaptureOptions>
  /** Schedules a flush after `ms` (tests flush by hand). */
  readonly schedule?: (run: () => void, ms: number) => void
}

/** Between two workbench updates at least this long, and twice what the last one cost (a big stream slows down). */
const MIN_FLUSH_MS = 80
const MAX_FLUSH_MS = 1000

/**
 * Owns the {@link LiveHub} and the feed connections. While the workbench shows the live source (`origin.kind ===
 * 'live'`), hub changes reach it at most every 80 ms (more when rebuilding costs more), so a fast stream costs a few
 * updates per second, not one per chunk. Another source on screen leaves the hub collecting in the background;
 * `show()` brings the live source back.
 */
export class LiveController {
  readonly hub = new LiveHub()
  readonly view: StoreApi<LiveViewState>
  private readonly feeds = new Map<string, FeedClient>()
  private readonly running = new Map<string, BrowserCapture>()
  private storePromise: Promise<CaptureStore | null> | null = null
  private restoring: Promise<number> | null = null
  private pending = false
  private lastCost = 0

  constructor(
    private readonly store: ChunkscopeStore,
    private readonly options: LiveControllerOptions = {},
  ) {
    this.view = createStore<LiveViewState>()(() => ({
      captures: [],
      feeds: [],
      running: [],
      storageProblem: null,
    }))
    this.hub.subscribe(() => this.schedule())
  }

  /** Puts the live source on screen (following the newest stream). */
  async show(): Promise<void> {
    await this.flush(true)
  }

  /** Connects to a feed (`chunkscope proxy` / `attach`); returns a plain-words problem for a bad URL. */
  connect(input: string): string | null {
    const normalised = normaliseFeedUrl(input)
    if ('error' in normalised) return normalised.error
    const { url } = normalised
    this.feeds.get(url)?.close()
    const client = new FeedClient(url, this.hub, () => this.publishFeeds(), this.options.feedDeps)
    this.feeds.set(url, client)
    client.open()
    this.publishFeeds()
    this.rememberFeeds()
    void this.show()
    return null
  }

  disconnect(url: string): void {
    const client = this.feeds.get(url)
    if (client === undefined) return
    client.close()
    this.feeds.delete(url)
    this.publishFeeds()
    this.rememberFeeds()
  }

  /** Connects again to the feeds this tab had connected before a reload (kept in sessionStorage, this tab only). */
  reconnect(): void {
    for (const url of this.options.feedMemory?.recall() ?? []) if (!this.feeds.has(url)) this.connect(url)
  }

  private rememberFeeds(): void {
    this.options.feedMemory?.keep([...this.feeds.keys()])
  }

  /** Selects a capture's newest stream in the workbench (showing the live source first if needed). */
  async select(captureId: string): Promise<void> {
    await this.flush(true)
    const capture = this.hub.captures().find((c) => c.capture.id === captureId)
    const session =
      capture === undefined ? undefined : this.store.getState().source?.sessions[capture.sessionIndex]
    const attempt = session?.streams.at(-1)
    if (capture === undefined || attempt === undefined) return
    await this.store.getState().actions.selectStream(streamKey(capture.sessionIndex, attempt))
  }

  /**
   * Streams a chat completion from the page (throws {@link ChatRequestError} for a form the request builder refuses:
   * check it with `buildChatRequest` first). Every record is written to IndexedDB before the workbench sees it.
   */
  async startRequest(
    request: ChatRequest,
    policy: NonNullable<BrowserCaptureOptions['policy']>,
  ): Promise<string> {
    await this.restore()
    const store = await this.captureStore()
    const id = `browser-${new Date().toISOString().replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 6)}`
    const onSinkError = (error: unknown) =>
      this.view.setState({
        storageProblem: `this capture is no longer saved in the browser (${error instanceof Error ? error.message : String(error)}); what arrives is still shown`,
      })
    const capture = startBrowserCapture(request, {
      ...this.options.captureOptions,
      id,
      policy,
      sink: store === null ? { append: async () => {} } : captureSink(store, id),
      publish: (record) => this.hub.addRecords(id, [record]),
      onSummary: (summary) => {
        this.hub.upsertCapture(summary, { via: 'page' })
        if (store !== null) void store.putSummary(summary).catch(onSinkError)
      },
      onSinkError,
    })
    this.running.set(id, capture)
    this.publishRunning()
    await this.show()
    void capture.done.then(() => {
      this.running.delete(id)
      this.publishRunning()
    })
    return id
  }

  /** Stop: the request is aborted and the attempt ends `aborted`, keeping what arrived. */
  stop(captureId: string): void {
    this.running.get(captureId)?.stop()
  }

  /** Resolves when a running browser capture has ended (tests, and the request dialog's state). */
  async settled(captureId: string): Promise<void> {
    await this.running.get(captureId)?.done
  }

  /**
   * Brings back the browser captures saved in IndexedDB (after a reload): one that was streaming when the page
   * went away shows as it got, interrupted. Returns how many were restored. The page calls it at start, so saved
   * captures come first and a new one is always the newest.
   */
  restore(): Promise<number> {
    // Once per page, and before anything else is added: restored captures keep the first session indices.
    this.restoring ??= this.restoreNow()
    return this.restoring
  }

  private async restoreNow(): Promise<number> {
    const store = await this.captureStore()
    if (store === null) return 0
    const summaries = (await store.list()).reverse()
    for (const summary of summaries) {
      if (this.hub.has(summary.id)) continue
      this.hub.upsertCapture(summary, { via: 'page' })
      this.hub.addRecords(summary.id, await store.records(summary.id))
    }
    return summaries.length
  }

  /** Forgets the page's saved captures (IndexedDB) and every capture shown; feeds stay connected. */
  async clearSaved(): Promise<void> {
    const store = await this.captureStore()
    for (const { capture } of this.hub.captures()) {
      if (this.running.has(capture.id)) continue
      this.hub.remove(capture.id)
      await store?.remove(capture.id)
    }
  }

  private captureStore(): Promise<CaptureStore | null> {
    this.storePromise ??= (this.options.openStore ?? (() => openCaptureStore()))().catch((error: unknown) => {
      this.view.setState({
        storageProblem: `captures are kept in memory only: ${error instanceof Error ? error.message : String(error)}`,
      })
      return null
    })
    return this.storePromise
  }

  /** Sessions still arriving: a feed capture marked streaming, or a browser capture this page is running. */
  private streamingSessions(): Set<number> {
    const open = new Set<number>()
    for (const { capture, sessionIndex } of this.hub.captures()) {
      if (capture.state === 'streaming' && (capture.kind !== 'browser' || this.running.has(capture.id)))
        open.add(sessionIndex)
    }
    return open
  }

  private publishRunning(): void {
    this.view.setState({ running: [...this.running.keys()] })
  }

  dispose(): void {
    for (const capture of this.running.values()) capture.stop()
    for (const client of this.feeds.values()) client.close()
    this.feeds.clear()
  }

  private publishFeeds(): void {
    this.view.setState({ feeds: [...this.feeds.values()].map((client) => client.current) })
  }

  /** A hub change: the captures list and the workbench catch up at the next flush, not per record. */
  private schedule(): void {
    if (this.pending) return
    this.pending = true
    const ms = Math.min(MAX_FLUSH_MS, Math.max(MIN_FLUSH_MS, this.lastCost * 2))
    const schedule = this.options.schedule ?? ((run, wait) => setTimeout(run, wait))
    schedule(() => void this.flush(false), ms)
  }

  /** Sends the hub's source to the workbench when it shows live captures (or `force`s it to). */
  async flush(force: boolean): Promise<void> {
    this.pending = false
    this.view.setState({ captures: this.hub.captures() })
    if (!force && this.store.getState().origin?.kind !== 'live') return
    const started = performance.now()
    await this.store.getState().actions.showLive(this.hub.source(), this.streamingSessions())
    this.lastCost = performance.now() - started
  }
}

/** Feed URLs in this tab's sessionStorage: a reload reconnects them; another tab or a restart does not. */
export function sessionFeedMemory(): NonNullable<LiveControllerOptions['feedMemory']> {
  const SLOT = 'chunkscope.feeds'
  return {
    recall: () => {
      try {
        const value: unknown = JSON.parse(sessionStorage.getItem(SLOT) ?? '[]')
        return Array.isArray(value) ? value.filter((url): url is string => typeof url === 'string') : []
      } catch {
        return []
      }
    },
    keep: (urls) => {
      try {
        sessionStorage.setItem(SLOT, JSON.stringify(urls))
      } catch {
        // storage blocked: feeds are simply not reconnected after a reload
      }
    },
  }
}
