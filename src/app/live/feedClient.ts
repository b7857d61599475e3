// The web app's side of the live feed (src/formats/live/feedProtocol.ts): `chunkscope proxy` / `chunkscope attach`.
import {
  FEED_PATHS,
  type FeedCapture,
  type FeedMessage,
  type FeedRecord,
} from '../../formats/live/feedProtocol'
import type { LiveHub } from './liveHub'
import { isRecord } from '../../core/base/isRecord'

export type FeedState = 'connecting' | 'open' | 'retrying' | 'closed'

export type FeedStatus = {
  readonly url: string
  readonly state: FeedState
  /** What went wrong last, in plain words; null while all is well. */
  readonly problem: string | null
}

/** The parts of EventSource the client uses (tests pass a fake; the browser's reconnects by itself). */
export type EventSourceLike = {
  onopen: ((event: Event) => void) | null
  onmessage: ((event: MessageEvent<string>) => void) | null
  onerror: ((event: Event) => void) | null
  readonly readyState: number
  close(): void
}

export type FeedDeps = {
  readonly openEvents: (url: string) => EventSourceLike
  readonly fetchText: (url: string) => Promise<string>
}

const browserDeps = (): FeedDeps => ({
  openEvents: (url) => new EventSource(url),
  fetchText: async (url) => {
    const response = await fetch(url, { cache: 'no-store' })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return response.text()
  },
})

/** `http://127.0.0.1:8787/` → `http://127.0.0.1:8787`; null (with why) for what is not an http(s) URL. */
export function normaliseFeedUrl(input: string): { url: string } | { error: string } {
  const trimmed = input.trim()
  let parsed: URL
  try {
    parsed = new URL(trimmed)
  } catch {
    return {
      error: `"${trimmed}" is not a URL: give the address chunkscope proxy or attach printed, e.g. http://127.0.0.1:8787`,
    }
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { error: `the feed URL must start with http:// or https:// (got ${parsed.protocol})` }
  return { url: `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}` }
}

/**
 * Subscribes to one feed and keeps the hub up to date: `hello` lists the captures so far, each backfilled from
 * `GET /__chunkscope/captures/<id>` (its log so far; the hub drops whatever the feed also delivers, by seq);
 * `capture` adds or updates one; `record` appends to one. The browser's EventSource reconnects by itself; each
 * reconnect starts with a new `hello`, and the backfill closes any gap left while disconnected.
 */
export class FeedClient {
  private source: EventSourceLike | null = null
  private status: FeedStatus

  constructor(
    readonly url: string,
    private readonly hub: LiveHub,
    private readonly onStatus: (status: FeedStatus) => void,
    private readonly deps: FeedDeps = browserDeps(),
  ) {
    this.status = { url, state: 'connecting', problem: null }
  }

  get current(): FeedStatus {
    return this.status
  }

  open(): void {
    this.close()
    this.report('connecting', null)
    const source = this.deps.openEvents(`${this.url}${FEED_PATHS.events}`)
    this.source = source
    source.onopen = () => this.report('open', null)
    source.onerror = () => {
      // EventSource retries by itself unless it gave up (CLOSED = 2: e.g. the server answered something else).
      const gaveUp = source.readyState === 2
      this.report(
        gaveUp ? 'closed' : 'retrying',
        `no live feed at ${this.url}${gaveUp ? '' : ' (retrying)'} — is \`chunkscope proxy\` or \`chunkscope attach\` running there? The page keeps every capture received so far.`,
      )
    }
    source.onmessage = (event) => this.receive(event.data)
  }

  close(): void {
    if (this.source === null) return
    this.source.onopen = this.source.onmessage = this.source.onerror = null
    this.source.close()
    this.source = null
    this.report('closed', null)
  }

  /** One feed message (exposed for tests). */
  receive(data: string): void {
    let message: FeedMessage
    try {
      message = JSON.parse(data) as FeedMessage
    } catch {
      this.report(this.status.state, `the feed at ${this.url} sent something that is not JSON; ignored`)
      return
    }
    const origin = { via: 'feed', url: this.url } as const
    switch (message.type) {
      case 'hello':
        for (const capture of message.captures ?? []) {
          this.hub.upsertCapture(capture, origin)
          void this.backfill(capture)
        }
        break
      case 'capture':
        this.hub.upsertCapture(message.capture, origin)
        break
      case 'record':
        this.hub.addRecords(message.captureId, [message.record])
        break
    }
  }

  private async backfill(capture: FeedCapture): Promise<void> {
    const at = `${this.url}${FEED_PATHS.captures}/${encodeURIComponent(capture.id)}`
    try {
      this.hub.addRecords(capture.id, parseRecords(await this.deps.fetchText(at)))
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      this.report(this.status.state, `could not fetch the start of capture ${capture.id} from ${at}: ${why}`)
    }
  }

  private report(state: FeedState, problem: string | null): void {
    this.status = { url: this.url, state, problem }
    this.onStatus(this.status)
  }
}

/** A capture's JSONL body → records; a torn last line (the capture is still being written) is left out. */
export function parseRecords(text: string): FeedRecord[] {
  const records: FeedRecord[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const value: unknown = JSON.parse(line)
      if (isRecord(value)) records.push(value as FeedRecord)
    } catch {
      // A line cut short: the feed delivers it whole.
    }
  }
  return records
}
