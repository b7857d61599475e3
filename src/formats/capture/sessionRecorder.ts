// One captured chat completion → one harness session log (docs/protocol.md §6), written record by record, durable-first.
// Platform-neutral (no Node or DOM APIs): the proxy (src/cli/proxy/capture.ts) and the page (src/app/capture/) share it.
import { BlockAssembler } from '../../core/BlockAssembler'
import type { ContentBlock, FinishReason, LlmFailure, StreamChunk, TokenUsage } from '../../core/protocol'
import type { CaptureKind, CaptureState, FeedCapture, FeedRecord } from '../live/feedProtocol'
import { createLiveWire, decideLiveWire, type LiveWire, type LiveWireFormat, type WireHint } from './liveWire'

/**
 * Where the records go. `append` is awaited before the record is published (durable-first); calls never overlap and
 * come in log order. `appendMany`, when given, takes the records that piled up while an earlier append was in flight
 * in one call (one IndexedDB transaction, say). `close` runs once after the last record.
 */
export type RecordSink = {
  append(record: FeedRecord): Promise<void>
  appendMany?(records: readonly FeedRecord[]): Promise<void>
  close?(): Promise<void>
}

export type RecorderOptions = {
  readonly id: string
  readonly kind: CaptureKind
  readonly title: string
  /** The model asked for (the message's `source.model`); null when unknown. */
  readonly model: string | null
  /** Extra header fields (`chunkscopeProxy`, `chunkscopeBrowser`, …). Never a credential or a request header. */
  readonly header?: Readonly<Record<string, unknown>>
  /** `source.provider` of the recorded message (default `openai-compatible`). */
  readonly provider?: string
  /** The endpoint's base URL, which the harness's TRANSPORT message names (docs/protocol.md §9). */
  readonly baseURL?: string
  /**
   * What the response says of its wire (content type, request path). Each attempt's wire is told from its first
   * body text with these as the tie-break (`detectLiveWire`); Chat Completions when nothing says otherwise.
   */
  readonly wire?: WireHint
  readonly sink: RecordSink
  /** Each record once it is durable, in log order. */
  readonly publish?: (record: FeedRecord) => void
  /**
   * The summary at the start (synchronously, from the constructor), at each attempt's end and retry, and at the end
   * (after every record is durable, published and the sink closed). `summary()` is always current.
   */
  readonly onSummary?: (summary: FeedCapture) => void
  /** The first failed append (or close); later records are not appended but still published. */
  readonly onSinkError?: (error: unknown) => void
  /** Epoch ms: `createdAt`, each record's `time` (a chunk's receive time), `startedAt` / `endedAt`. */
  readonly now?: () => number
}

/** What `retry` logs (docs/protocol.md §6 `llm/retry`). */
export type RetryNote = {
  readonly delayMs: number
  readonly maxRetries?: number
  readonly failure: LlmFailure
}

type AttemptState = {
  /** Null until enough body came to tell the wire; the text so far is in `held`. */
  wire: LiveWire | null
  held: string
  readonly assembler: BlockAssembler
  readonly decoder: TextDecoder
  readonly chunkSeqs: number[]
  /** Chunks came through `pushChunks` (no wire body to translate). */
  chunkFed: boolean
  finish: FinishReason | null
  usage: TokenUsage | null
}

const TURN = 1
const STEP = 1

/** The end of a step as the harness writes it, by the last attempt's finish. */
function turnEndReason(finish: FinishReason): Record<string, unknown> {
  switch (finish.kind) {
    case 'error':
      return { kind: 'error', error: finish.failure }
    case 'aborted':
      return { kind: 'aborted', reason: { kind: 'user' } }
    case 'max-tokens':
      return { kind: 'max-tokens' }
    default:
      return { kind: 'completed' }
  }
}

/**
 * Records one chat completion — one turn, one step, one or more attempts — as the harness logs a step (§6):
 * header (with the caller's extra fields), `turn/start`, `step/start`; per attempt, the body read in the wire its
 * first text names (`liveWire.ts`: Chat Completions, Responses, Anthropic, Gemini, Ollama, Cohere, …; docs/protocol.md
 * §9, "Live capture: which wire"), a fresh reader and assembler per attempt, one
 * `assistant/chunk` per StreamChunk stamped with its receive time; an HTTP error attempt's only chunk is its
 * `httpFailure` finish (`failAttempt`); a retry is `llm/retry` (`retry`) then `llm/retry-started` (`startRetry`) and a
 * new attempt of the same step. `end()` closes the step by the last attempt's finish: stop / tool-calls / max-tokens →
 * `assistant/message` citing that attempt's chunk seqs, `step/end`, `turn/end completed` (`max-tokens`); error →
 * `step/end`, `turn/end error`. `abort()` (user Stop) → a `finish aborted` chunk {message, code ABORTED} when an
 * attempt is running (a deviation: the harness logs none on cancel, but a capture should say how it ended), an
 * `assistant/message` with `interrupted: true` and `interruptedBlocks()` when non-empty, `step/end`,
 * `turn/end aborted {reason:{kind:'user'}}`. A Stop while no attempt runs (during a retry wait) adds no chunk.
 *
 * Every record is appended to the sink, and the append awaited, before it is published. Never throws.
 *
 * @example
 * const recorder = new SessionRecorder({ id, kind: 'browser', title, model, sink, publish })
 * recorder.pushText('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: [DONE]\n\n')
 * recorder.endBody()
 * await recorder.end() // assistant/message, step/end, turn/end completed — all durable and published
 */
export class SessionRecorder {
  readonly id: string
  readonly startedAt: number
  private readonly now: () => number
  private seq = 0
  private totalChunks = 0
  private attempts = 0
  private attempt: AttemptState
  private lastFinish: FinishReason | null = null
  private state: CaptureState = 'streaming'
  private endedAt: number | null = null
  private ended = false
  private sinkFailed = false
  private readonly queue: FeedRecord[] = []
  private pumping: Promise<void> | null = null
  private resolveDone: (summary: FeedCapture) => void = () => {}
  /** Resolves with the final summary once the capture ended and every record is durable, published, closed. */
  readonly done: Promise<FeedCapture> = new Promise((resolve) => (this.resolveDone = resolve))

  constructor(private readonly options: RecorderOptions) {
    this.id = options.id
    this.now = options.now ?? Date.now
    this.startedAt = this.now()
    this.enqueue({
      type: 'session',
      version: 0,
      id: options.id,
      createdAt: this.startedAt,
      delegationDepth: 0,
      ...options.header,
    })
    this.options.onSummary?.(this.summary())
    this.event('turn/start', { turn: TURN })
    this.event('step/start', { turn: TURN, step: STEP })
    this.attempt = this.newAttempt()
  }

  /** The capture as the live feed announces it (FeedCapture), current at every call. */
  summary(): FeedCapture {
    return {
      id: this.id,
      kind: this.options.kind,
      title: this.options.title,
      state: this.state,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      chunks: this.totalChunks,
      finish: this.lastFinish,
    }
  }

  get isEnded(): boolean {
    return this.ended
  }

  /** 1-based number of the current attempt. */
  get attemptNumber(): number {
    return this.attempts
  }

  /** The current attempt's finish, null while it streams. */
  get attemptFinish(): FinishReason | null {
    return this.attempt.finish
  }

  /** Resolves once every record queued so far is appended and published. */
  get written(): Promise<void> {
    return this.pumping ?? Promise.resolve()
  }

  /** Response body bytes of the current attempt, as they arrived (decompressed). */
  pushBytes(bytes: Uint8Array): void {
    if (this.ended || this.attempt.finish !== null) return
    this.pushText(this.attempt.decoder.decode(bytes, { stream: true }))
  }

  /** Response body text of the current attempt. */
  pushText(text: string): void {
    const attempt = this.attempt
    if (this.ended || attempt.finish !== null) return
    if (attempt.wire === null) {
      attempt.held += text
      const format = decideLiveWire(attempt.held, this.options.wire)
      if (format === null) return
      text = attempt.held
      attempt.held = ''
      attempt.wire = this.openWire(format)
    }
    if (attempt.wire.finished) return
    this.chunks(attempt.wire.feed(text))
  }

  /** The wire the current attempt's body is in, once told ('openai-sse' until then). */
  get wireFormat(): string {
    return this.attempt.wire?.format ?? 'openai-sse'
  }

  /** The wire told from whatever came (the body ended, or the capture stops), the held text read through it. */
  private flushHeld(): LiveWire {
    const attempt = this.attempt
    if (attempt.wire !== null) return attempt.wire
    const held = attempt.held
    attempt.held = ''
    attempt.wire = this.openWire(decideLiveWire(held, this.options.wire, true)!)
    this.chunks(attempt.wire.feed(held))
    return attempt.wire
  }

  private openWire(format: LiveWireFormat): LiveWire {
    return createLiveWire(format, this.options.baseURL !== undefined ? { baseURL: this.options.baseURL } : {})
  }

  /**
   * StreamChunks the caller already has (an adapter's own `stream()`, seen through `chunkscope/tap`), logged as
   * they are; chunks after the attempt's finish are not logged (the harness stops reading there, §9).
   */
  pushChunks(chunks: readonly StreamChunk[]): void {
    if (this.ended) return
    this.attempt.chunkFed = true
    this.chunks(chunks)
  }

  /** The body ended: at `[DONE]` the attempt already finished; otherwise STREAM_CLOSED. Returns its finish. */
  endBody(): FinishReason | null {
    const attempt = this.attempt
    // Chunks handed over as they are end as they are: no STREAM_CLOSED is made up for them.
    if (this.ended || attempt.chunkFed || attempt.finish !== null) return attempt.finish
    this.pushText(attempt.decoder.decode())
    const wire = this.flushHeld()
    if (attempt.finish === null) this.chunks(wire.end())
    return attempt.finish
  }

  /** The attempt failed without a (complete) stream: an HTTP error (`httpFailure`), no response (TRANSPORT), … */
  failAttempt(failure: LlmFailure): FinishReason | null {
    if (this.ended || this.attempt.finish !== null) return this.attempt.finish
    this.chunks([{ type: 'finish', reason: { kind: 'error', failure } }])
    return this.attempt.finish
  }

  /** Logs `llm/retry` for the finished attempt; `startRetry` follows after the wait. Returns the retryId. */
  retry(note: RetryNote): string {
    const retry = this.attempts
    const retryId = `${this.id}-retry-${retry}`
    if (this.ended) return retryId
    this.event('llm/retry', {
      retryId,
      turn: TURN,
      step: STEP,
      retry,
      ...(note.maxRetries !== undefined ? { maxRetries: note.maxRetries } : {}),
      delayMs: note.delayMs,
      failure: note.failure,
    })
    this.options.onSummary?.(this.summary())
    return retryId
  }

  /** Logs `llm/retry-started` and begins a new attempt of the same step (fresh translator and assembler). */
  startRetry(): void {
    if (this.ended) return
    const retry = this.attempts
    this.event('llm/retry-started', { retryId: `${this.id}-retry-${retry}`, turn: TURN, step: STEP, retry })
    this.attempt = this.newAttempt()
  }

  /** Ends the step by the last attempt's finish (an unfinished attempt is closed as its body ended). */
  end(): Promise<FeedCapture> {
    if (this.ended) return this.done
    if (this.attempt.finish === null) this.endBody()
    const finish = this.attempt.finish ?? { kind: 'stop' }
    if (finish.kind === 'stop' || finish.kind === 'tool-calls' || finish.kind === 'max-tokens')
      this.message(this.blocks(false), false)
    return this.close(finish)
  }

  /**
   * The user stopped the capture (or the client went away): a running attempt gets a `finish aborted` chunk and its
   * interrupted blocks a message; the turn ends aborted. An attempt that already ended successfully ends as usual.
   */
  abort(message = 'stopped by the user'): Promise<FeedCapture> {
    if (this.ended) return this.done
    // Body text held back while its wire was not yet told is read first: it arrived before the stop.
    if (this.attempt.finish === null && !this.attempt.chunkFed) this.flushHeld()
    const current = this.attempt.finish
    if (current !== null && current.kind !== 'error' && current.kind !== 'aborted') return this.end()
    const failure: LlmFailure = { message, code: 'ABORTED' }
    if (current === null) {
      this.chunks([{ type: 'finish', reason: { kind: 'aborted', failure } }])
      const interrupted = this.blocks(true)
      if (interrupted !== null && interrupted.length > 0) this.message(interrupted, true)
    } else {
      this.lastFinish = { kind: 'aborted', failure }
    }
    return this.close({ kind: 'aborted', failure })
  }

  private newAttempt(): AttemptState {
    this.attempts += 1
    return {
      wire: null,
      held: '',
      assembler: new BlockAssembler(),
      decoder: new TextDecoder('utf-8'),
      chunkSeqs: [],
      chunkFed: false,
      finish: null,
      usage: null,
    }
  }

  private chunks(chunks: readonly StreamChunk[]): void {
    const attempt = this.attempt
    for (const chunk of chunks) {
      if (attempt.finish !== null) break
      attempt.chunkSeqs.push(this.seq)
      attempt.assembler.push(chunk)
      this.totalChunks += 1
      if (chunk.type === 'usage') attempt.usage = chunk.usage
      this.event('assistant/chunk', { turn: TURN, step: STEP, chunk })
      if (chunk.type === 'finish') {
        attempt.finish = chunk.reason
        this.lastFinish = chunk.reason
        this.options.onSummary?.(this.summary())
      }
    }
  }

  private blocks(interrupted: boolean): ContentBlock[] | null {
    try {
      return interrupted ? this.attempt.assembler.interruptedBlocks() : this.attempt.assembler.blocks()
    } catch {
      return null
    }
  }

  private message(content: ContentBlock[] | null, interrupted: boolean): void {
    if (content === null) return
    const { usage, chunkSeqs } = this.attempt
    const message = {
      role: 'assistant',
      content,
      source: {
        kind: 'model',
        provider: this.options.provider ?? 'openai-compatible',
        model: this.options.model ?? 'unknown',
      },
      id: `${this.id}-message`,
    }
    const data = {
      turn: TURN,
      step: STEP,
      message,
      ...(usage !== null ? { usage } : {}),
      ...(interrupted ? { interrupted: true } : {}),
    }
    this.event('assistant/message', data, [...chunkSeqs])
  }

  private close(finish: FinishReason): Promise<FeedCapture> {
    this.event('step/end', { turn: TURN, step: STEP })
    this.event('turn/end', { turn: TURN, reason: turnEndReason(finish) })
    this.ended = true
    this.state = finish.kind === 'error' ? 'error' : finish.kind === 'aborted' ? 'aborted' : 'completed'
    this.endedAt = this.now()
    const summary = this.summary()
    void this.written
      .then(async () => {
        try {
          await this.options.sink.close?.()
        } catch (error) {
          this.reportSinkError(error)
        }
      })
      .then(() => {
        this.options.onSummary?.(summary)
        this.resolveDone(summary)
      })
    return this.done
  }

  private event(type: string, data: unknown, sourceEventSeqs?: number[]): void {
    const record: Record<string, unknown> = { type, seq: this.seq, time: this.now(), data }
    if (sourceEventSeqs !== undefined) record['sourceEventSeqs'] = sourceEventSeqs
    this.seq += 1
    this.enqueue(record)
  }

  private enqueue(record: FeedRecord): void {
    this.queue.push(record)
    this.pumping ??= this.pump()
  }

  /** Appends what is queued, in order, one call at a time; publishes each record after its append settled. */
  private async pump(): Promise<void> {
    await Promise.resolve() // `pumping` is set before this loop can empty the queue and clear it
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.queue.length)
      if (!this.sinkFailed) {
        try {
          const { sink } = this.options
          if (batch.length > 1 && sink.appendMany !== undefined) await sink.appendMany(batch)
          else for (const record of batch) await sink.append(record)
        } catch (error) {
          this.reportSinkError(error)
        }
      }
      for (const record of batch) this.options.publish?.(record)
    }
    this.pumping = null
  }

  private reportSinkError(error: unknown): void {
    if (this.sinkFailed) return
    this.sinkFailed = true
    this.options.onSinkError?.(error)
  }
}
