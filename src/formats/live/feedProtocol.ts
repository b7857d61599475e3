// The Chunkscope live feed: what `chunkscope proxy` and `chunkscope attach` serve and the web app reads.
// Platform-neutral types only; the Node server side is src/cli/proxy/feed.ts, the browser side src/app/live/feedClient.ts.
import type { FinishReason } from '../../core/protocol'

/** Where a capture comes from: a response through the proxy, a harness session relayed by attach, or the page. */
export type CaptureKind = 'proxy' | 'harness' | 'browser'

/** `streaming`: still receiving (a harness session stays so while attached). */
export type CaptureState = 'streaming' | 'completed' | 'error' | 'aborted'

/**
 * One capture as the feed announces it. Its records are one harness session log (docs/protocol.md §6): a header record
 * (`{"type":"session","id",…}`, no seq) first, then events with seq 0, 1, 2… (attach synthesises the header, since the
 * harness socket carries none).
 */
export type FeedCapture = {
  readonly id: string
  readonly kind: CaptureKind
  /** A short human label: `POST /v1/chat/completions · deepseek-chat`, a session id, … */
  readonly title: string
  readonly state: CaptureState
  readonly startedAt: number | null
  readonly endedAt: number | null
  /** Chunks recorded so far. */
  readonly chunks: number
  readonly finish: FinishReason | null
}

/** A session log record: the header or a storage record (docs/protocol.md §6, §7). */
export type FeedRecord = Readonly<Record<string, unknown>>

/**
 * What the feed sends (`GET /__chunkscope/events`, Server-Sent Events, one unnamed event per message, `data:` = JSON):
 * - `hello {captures}` on connect: every capture so far (backfill each from `GET /__chunkscope/captures/<id>`, a JSONL
 *   body, then drop feed records whose seq is already held);
 * - `capture {capture}` when a capture starts, changes state or ends;
 * - `record {captureId, record}` for each record of that capture's log, after it is durable, in seq order.
 */
export type FeedMessage<C extends FeedCapture = FeedCapture> =
  | { readonly type: 'hello'; readonly captures: readonly C[] }
  | { readonly type: 'capture'; readonly capture: C }
  | { readonly type: 'record'; readonly captureId: string; readonly record: FeedRecord }

export const FEED_PATHS = {
  events: '/__chunkscope/events',
  captures: '/__chunkscope/captures',
} as const
