// One captured chat-completion response → one harness session log, written event by event (durable-first).
import type { FileHandle } from 'node:fs/promises'
import { BlockAssembler } from '../../core/BlockAssembler'
import type { ContentBlock, FinishReason, LlmFailure, StreamChunk, TokenUsage } from '../../core/protocol'
import { toSessionRecords, type SessionRecord } from '../../formats/export/sessionJsonl'
import { createTranslator } from '../../formats/sse/readSse'
import { SseParser } from '../../formats/sse/sseEvents'
import type { WireTranslator } from '../../formats/sse/translator'
import type { CaptureState, FeedCapture } from '../../formats/live/feedProtocol'

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
  publishCapture(summary: CaptureSummary): void
}

/** A sink writing to an open file handle; each line is one `write` call (no user-space buffer to flush). */
export function fileSink(
  handle: FileHandle,
  feed: Pick<CaptureSink, 'publishRecord' | 'publishCapture'>,
): CaptureSink {
  return {
    write: async (line) => {
      await handle.write(line)
    },
    close: () => handle.close(),
    publishRecord: feed.publishRecord,
    publishCapture: feed.publishCapture,
  }
}

const TURN = 1
const STEP = 1

/**
 * Records one response as a harness session log (PROTOCOL.md §6): header, `turn/start`, `step/start`, one
 * `assistant/chunk` per StreamChunk (plain events, written as they arrive — not packed, since a packed row can only
 * be written once its run is over), then as the harness ends a step: success → `assistant/message` citing every
 * chunk seq, `step/end`, `turn/end completed` (`max-tokens` for a length finish); finish error → `step/end`,
 * `turn/end error`; client gone → a `finish aborted` chunk (ABORTED), `step/end`, `turn/end aborted`.
 * Every line is written to disk before it is published on the live feed. Never throws; a failed write is reported
 * once through `onWriteError` and the capture goes on in memory (the feed still sees it).
 */
export class Capture {
  private readonly parser = new SseParser()
  private readonly translator: WireTranslator = createTranslator('openai-sse')
  private readonly assembler = new BlockAssembler()
  private readonly decoder = new TextDecoder('utf-8')
  private readonly chunkSeqs: number[] = []
  private seq = 0
  private chain: Promise<void> = Promise.resolve()
  private ended = false
  private writeFailed = false
  private state: CaptureState = 'streaming'
  private endedAt: number | null = null
  private finish: FinishReason | null = null
  private usage: TokenUsage | null = null
  readonly startedAt = Date.now()
  private resolveDone: () => void = () => {}
  /** Resolves when the capture has ended and every line is written, closed and published. */
  readonly done: Promise<void> = new Promise((resolve) => (this.resolveDone = resolve))

  constructor(
    private readonly meta: CaptureMeta,
    private readonly sink: CaptureSink,
    private readonly onWriteError: (error: unknown) => void = () => {},
  ) {
    const header = {
      type: 'session',
      version: 0,
      id: meta.id,
      createdAt: this.startedAt,
      delegationDepth: 0,
      chunkscopeProxy: { method: meta.method, path: meta.path, model: meta.model, status: meta.status },
    }
    this.line(header)
    this.sink.publishCapture(this.summary())
    this.event('turn/start', { turn: TURN })
    this.event('step/start', { turn: TURN, step: STEP })
  }

  summary(): CaptureSummary {
    return {
      ...this.meta,
      kind: 'proxy',
      title: `${this.meta.method} ${this.meta.path}${this.meta.model !== null ? ` · ${this.meta.model}` : ''}`,
      state: this.state,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      chunks: this.chunkSeqs.length,
      finish: this.finish,
    }
  }

  get isEnded(): boolean {
    return this.ended
  }

  /** Resolves once every line of the capture is written and published (after an end). */
  get written(): Promise<void> {
    return this.chain
  }

  /** Bytes of the response body as they arrived (already decompressed). */
  pushBytes(bytes: Uint8Array): void {
    if (this.ended) return
    this.pushText(this.decoder.decode(bytes, { stream: true }))
  }

  private pushText(text: string): void {
    for (const event of this.parser.feed(text)) {
      if (this.translator.finished) break
      this.chunks(this.translator.push(event.data, event.event))
    }
    this.translator.takeNotes()
  }

  /** The body ended: `complete` false when the connection closed before the response did (STREAM_CLOSED). */
  endBody(): Promise<void> {
    if (this.ended) return this.chain
    this.pushText(this.decoder.decode())
    for (const event of this.parser.end()) {
      if (this.translator.finished) break
      this.chunks(this.translator.push(event.data, event.event))
    }
    if (!this.translator.finished) this.chunks(this.translator.end('eof'))
    return this.close()
  }

  /** An HTTP error response: its only chunk is the harness's failure (`httpFailure`). */
  fail(failure: LlmFailure): Promise<void> {
    if (this.ended) return this.chain
    this.chunks([{ type: 'finish', reason: { kind: 'error', failure } }])
    return this.close()
  }

  /** The client went away: the upstream request was aborted; the capture ends `aborted`. */
  abort(message = 'client disconnected'): Promise<void> {
    if (this.ended) return this.chain
    this.chunks([{ type: 'finish', reason: { kind: 'aborted', failure: { message, code: 'ABORTED' } } }])
    return this.close()
  }

  private chunks(chunks: readonly StreamChunk[]): void {
    for (const chunk of chunks) {
      this.chunkSeqs.push(this.seq)
      this.assembler.push(chunk)
      if (chunk.type === 'usage') this.usage = chunk.usage
      if (chunk.type === 'finish') this.finish = chunk.reason
      this.event('assistant/chunk', { turn: TURN, step: STEP, chunk })
    }
  }

  private close(): Promise<void> {
    this.ended = true
    const finish = this.finish ?? { kind: 'stop' }
    if (finish.kind === 'stop' || finish.kind === 'tool-calls' || finish.kind === 'max-tokens') {
      const content = this.blocks()
      if (content !== null) {
        const message = {
          role: 'assistant',
          content,
          source: { kind: 'model', provider: 'openai-compatible', model: this.meta.model ?? 'unknown' },
          id: `${this.meta.id}-message`,
        }
        const data = {
          turn: TURN,
          step: STEP,
          message,
          ...(this.usage !== null ? { usage: this.usage } : {}),
        }
        this.event('assistant/message', data, [...this.chunkSeqs])
      }
    }
    this.event('step/end', { turn: TURN, step: STEP })
    const reason =
      finish.kind === 'error'
        ? { kind: 'error', error: finish.failure }
        : finish.kind === 'aborted'
          ? { kind: 'aborted', reason: { kind: 'user' } }
          : finish.kind === 'max-tokens'
            ? { kind: 'max-tokens' }
            : { kind: 'completed' }
    this.event('turn/end', { turn: TURN, reason })
    this.state = finish.kind === 'error' ? 'error' : finish.kind === 'aborted' ? 'aborted' : 'completed'
    this.endedAt = Date.now()
    const summary = this.summary()
    this.chain = this.chain
      .then(() => this.sink.close())
      .catch((error: unknown) => this.reportWriteError(error))
      .then(() => this.sink.publishCapture(summary))
      .then(() => this.resolveDone())
    return this.chain
  }

  private blocks(): ContentBlock[] | null {
    try {
      return this.assembler.blocks()
    } catch {
      return null
    }
  }

  private event(type: string, data: unknown, sourceEventSeqs?: number[]): void {
    const event = {
      type,
      seq: this.seq,
      time: Date.now(),
      data,
      line: 0,
      ...(sourceEventSeqs !== undefined ? { sourceEventSeqs } : {}),
    }
    this.seq += 1
    const [record] = toSessionRecords({ header: null, events: [event] })
    this.line(record!)
  }

  private line(record: SessionRecord): void {
    const text = JSON.stringify(record) + '\n'
    this.chain = this.chain
      .then(() => (this.writeFailed ? undefined : this.sink.write(text)))
      .catch((error: unknown) => this.reportWriteError(error))
      .then(() => this.sink.publishRecord(this.meta.id, record))
  }

  private reportWriteError(error: unknown): void {
    if (this.writeFailed) return
    this.writeFailed = true
    this.onWriteError(error)
  }
}
