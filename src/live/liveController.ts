// Ties live captures (feeds, and the page's own browser captures) to the workbench store (issue 6).
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ChunkscopeStore } from '../store/store'
import { streamKey } from '../store/streamRefs'
import { FeedClient, normaliseFeedUrl, type FeedDeps, type FeedStatus } from './feedClient'
import { LiveHub, type HubCapture } from './liveHub'

export type LiveViewState = {
  /** Every capture the page knows, in session order. */
  readonly captures: readonly HubCapture[]
  /** One entry per connected feed. */
  readonly feeds: readonly FeedStatus[]
}

export type LiveControllerOptions = {
  readonly feedDeps?: FeedDeps
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
  private pending = false
  private lastCost = 0

  constructor(
    private readonly store: ChunkscopeStore,
    private readonly options: LiveControllerOptions = {},
  ) {
    this.view = createStore<LiveViewState>()(() => ({ captures: [], feeds: [] }))
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
    void this.show()
    return null
  }

  disconnect(url: string): void {
    const client = this.feeds.get(url)
    if (client === undefined) return
    client.close()
    this.feeds.delete(url)
    this.publishFeeds()
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

  dispose(): void {
    for (const client of this.feeds.values()) client.close()
    this.feeds.clear()
  }

  private publishFeeds(): void {
    this.view.setState({ feeds: [...this.feeds.values()].map((client) => client.current) })
  }

  private schedule(): void {
    this.view.setState({ captures: this.hub.captures() })
    if (this.pending) return
    this.pending = true
    const ms = Math.min(MAX_FLUSH_MS, Math.max(MIN_FLUSH_MS, this.lastCost * 2))
    const schedule = this.options.schedule ?? ((run, wait) => setTimeout(run, wait))
    schedule(() => void this.flush(false), ms)
  }

  /** Sends the hub's source to the workbench when it shows live captures (or `force`s it to). */
  async flush(force: boolean): Promise<void> {
    this.pending = false
    if (!force && this.store.getState().origin?.kind !== 'live') return
    const started = performance.now()
    await this.store.getState().actions.showLive(this.hub.source())
    this.lastCost = performance.now() - started
  }
}
