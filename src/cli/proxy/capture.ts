// One captured chat-completion response → one harness session log, written event by event (durable-first).
import type { FileHandle } from 'node:fs/promises'
import type { LlmFailure } from '../../core/protocol'
import type { WireHint } from '../../formats/capture/liveWire'
import { SessionRecorder } from '../../formats/capture/sessionRecorder'
import type { SessionRecord } from '../../formats/export/sessionJsonl'
import type { CaptureState, FeedCapture } from '../../formats/live/feedProtocol'
import { Redactor } from './redact'

export type { CaptureState }

/** A capture as `GET /__chunkscope/captures` lists it and the live feed announces it (kind `proxy`). */
export type CaptureSummary = FeedCapture & {
  /** The session log's file name under `--out`. */
  readonly file: string
  readonly method: string
  /** The request path as the client sent it (query included). */
  readonly path: string
  readonly model: string | null
  /** The upstream's HTTP status. */
  readonly status: number
  readonly startedAt: number
}

export type CaptureMeta = {
  readonly id: string
  readonly file: string
  readonly method: string
  readonly path: string
  readonly model: string | null
  readonly status: number
}

/** Where a capture's lines go: the file (awaited before anything is published) and the live feed. */
export type CaptureSink = {
  write(line: string): Promise<void>
  close(): Promise<void>
  publishRecord(captureId: string, record: SessionRecord): void
  /** Whether anyone reads the published records now (when false, they are not built). */
  listening?(): boolean
  publishCapture(summary: CaptureSummary): void
}

/**
 * A sink writing to an open file handle; each line is one `write` call (no user-space buffer to flush). `close`
 * fsyncs before closing, so a capture is announced ended (the recorder publishes that after `close`) only once
 * its last line is durable.
 */
export function fileSink(
  handle: Pick<FileHandle, 'write' | 'sync' | 'close'>,
  feed: Pick<CaptureSink, 'publishRecord' | 'publishCapture' | 'listening'>,
): CaptureSink {
  return {
    write: async (line) => {
      await handle.write(line)
    },
    close: async () => {
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    },
    publishRecord: feed.publishRecord,
    ...(feed.listening !== undefined ? { listening: feed.listening } : {}),
    publishCapture: feed.publishCapture,
  }
}

/**
 * Records one response as a harness session log (docs/protocol.md §6) through the shared {@link SessionRecorder} (one
 * attempt, kind `proxy`): header (with `chunkscopeProxy: {method, path, model, status}`), `turn/start`, `step/start`,
 * one `assistant/chunk` per StreamChunk (plain events, written as they arrive — not packed, since a packed row can
 * only be written once its run is over), then as the harness ends a step: success → `assistant/message` citing every
 * chunk seq, `step/end`, `turn/end completed` (`max-tokens` for a length finish); finish error → `step/end`,
 * `turn/end error`; client gone → a `finish aborted` chunk (ABORTED), an interrupted `assistant/message` when text
 * had arrived, `step/end`, `turn/end aborted`. Every line is written to disk before it is published on the live
 * feed, and the summary says `completed`/`error`/`aborted` only once the file is synced and closed. `redactor` sees
 * every record and summary before it is written or published (the proxy hides credentials with it). Never throws;
 * a failed write is reported once through `onWriteError` and the capture goes on in memory (the feed still sees it).
 */
export class Capture {
  private readonly recorder: SessionRecorder
  /** The end is durable: until then the summary stays `streaming`, whatever the recorder decided. */
  private settled = false
  readonly startedAt: number
  /** Resolves when the capture has ended and every line is written, closed and published. */
  readonly done: Promise<void>

  constructor(
    private readonly meta: CaptureMeta,
    sink: CaptureSink,
    onWriteError: (error: unknown) => void = () => {},
    private readonly redactor: Pick<Redactor, 'json' | 'value'> = new Redactor([]),
    /** The response's content type and the request path: how the recorder tells the wire (docs/protocol.md §9, "Live capture: which wire"). */
    wire: WireHint = { path: meta.path },
  ) {
    let started = false
    this.recorder = new SessionRecorder({
      id: meta.id,
      kind: 'proxy',
      title: `${meta.method} ${meta.path}${meta.model !== null ? ` · ${meta.model}` : ''}`,
      model: meta.model,
      wire,
      header: {
        chunkscopeProxy: { method: meta.method, path: meta.path, model: meta.model, status: meta.status },
      },
      sink: {
        append: (record) => sink.write(this.redactor.json(record) + '\n'),
        close: () => sink.close(),
      },
      publish: (record) => {
        if (sink.listening?.() !== false) sink.publishRecord(meta.id, this.redactor.value(record))
      },
      // The feed announces a capture when it starts and when it has ended (not at every attempt's finish). An
      // ended summary comes only after the sink closed (SessionRecorder), i.e. once the file is durable.
      onSummary: (summary) => {
        if (summary.state !== 'streaming') this.settled = true
        if (!started || summary.state !== 'streaming') sink.publishCapture(this.wrap(summary))
        started = true
      },
      onSinkError: onWriteError,
    })
    this.startedAt = this.recorder.startedAt
    this.done = this.recorder.done.then(() => {})
  }

  summary(): CaptureSummary {
    const current = this.recorder.summary()
    return this.wrap(this.settled ? current : { ...current, state: 'streaming', endedAt: null })
  }

  private wrap(summary: FeedCapture): CaptureSummary {
    return this.redactor.value({ ...this.meta, ...summary, startedAt: summary.startedAt ?? 0 })
  }

  get isEnded(): boolean {
    return this.recorder.isEnded
  }

  /** Resolves once every line of the capture is written and published (after an end). */
  get written(): Promise<void> {
    return this.recorder.written
  }

  /** Bytes of the response body as they arrived (already decompressed). */
  pushBytes(bytes: Uint8Array): void {
    this.recorder.pushBytes(bytes)
  }

  /** The body ended: `complete` false when the connection closed before the response did (STREAM_CLOSED). */
  endBody(): Promise<void> {
    if (this.recorder.isEnded) return this.written
    this.recorder.endBody()
    return this.recorder.end().then(() => {})
  }

  /** An HTTP error response: its only chunk is the harness's failure (`httpFailure`). */
  fail(failure: LlmFailure): Promise<void> {
    if (this.recorder.isEnded) return this.written
    this.recorder.failAttempt(failure)
    return this.recorder.end().then(() => {})
  }

  /** The client went away: the upstream request was aborted; the capture ends `aborted`. */
  abort(message = 'client disconnected'): Promise<void> {
    if (this.recorder.isEnded) return this.written
    return this.recorder.abort(message).then(() => {})
  }
}
