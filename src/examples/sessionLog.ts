import { BlockAssembler } from '../core/BlockAssembler'
import type { ContentBlock, LlmFailure, StreamChunk } from '../core/protocol'

/** A session event as a `session.jsonl` line holds it (unpacked: one `assistant/chunk` per chunk). */
export type LogEvent = {
  readonly type: string
  readonly seq: number
  readonly time: number
  readonly data: Readonly<Record<string, unknown>>
  readonly sourceEventSeqs?: readonly number[]
  readonly surfaceOp?: 'append'
}

export type LogHeader = { readonly id: string; readonly createdAt: number }

/** One model attempt as logged: the seqs of its chunks and the assembler that consumed them (durable-first). */
export type LoggedAttempt = {
  readonly turn: number
  readonly step: number
  readonly seqs: readonly number[]
  readonly assembler: BlockAssembler
}

export type TurnEndReason =
  | { readonly kind: 'completed' }
  | { readonly kind: 'aborted'; readonly reason: { readonly kind: string } }
  | { readonly kind: 'error'; readonly error: LlmFailure }
  | { readonly kind: 'max-tokens' }

/** Gaps between streamed chunks, cycled: a steady but not mechanical rhythm (ms). */
const CHUNK_GAPS = [38, 27, 45, 31, 52, 29, 41, 35]

/**
 * A small typed builder for DeepSeek Harness session logs (docs/protocol.md §6), so built-in examples never hand-write
 * long JSON: events get seq 0, 1, 2… and plausible, increasing times; `toJsonl()` gives the file's text.
 *
 * @example
 * const log = new SessionLog({ id: 'b7c1…', createdAt: 1785821397000 })
 * log.turnStart(1)
 * const attempt = log.attempt(1, 1, chunks)
 * log.assistantMessage(attempt, { id: 'msg-1' })
 * log.toJsonl() // header line, then one line per event, ending in '\n'
 */
export class SessionLog {
  private readonly events: LogEvent[] = []
  private time: number
  private gap = 0

  constructor(
    private readonly header: LogHeader,
    private readonly model = { provider: 'deepseek-official', model: 'deepseek-v4-flash' },
  ) {
    this.time = header.createdAt
  }

  /** Moves the clock on: the next event is written `ms` later. */
  wait(ms: number): this {
    this.time += ms
    return this
  }

  /** Appends one event, 1 ms after the previous one unless the clock was moved; returns its seq. */
  event(
    type: string,
    data: Record<string, unknown>,
    extra: { sourceEventSeqs?: readonly number[]; surfaceOp?: 'append' } = {},
  ): number {
    const seq = this.events.length
    this.time += 1
    this.events.push({ type, seq, time: this.time, data, ...extra })
    return seq
  }

  turnStart(turn: number): number {
    return this.event('turn/start', { turn })
  }

  stepStart(turn: number, step: number): number {
    return this.event('step/start', { turn, step })
  }

  userMessage(text: string, id: string): number {
    const data = { content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id }
    return this.event('user/message', data, { surfaceOp: 'append' })
  }

  /**
   * Logs one model attempt: every chunk as an `assistant/chunk`, then pushed into a fresh assembler (§6).
   * The first chunk arrives `firstChunkMs` after the previous event (time to first token).
   */
  attempt(turn: number, step: number, chunks: readonly StreamChunk[], firstChunkMs = 640): LoggedAttempt {
    const assembler = new BlockAssembler()
    const seqs = chunks.map((chunk, k) => {
      this.wait(k === 0 ? firstChunkMs - 1 : this.nextGap() - 1)
      const seq = this.event('assistant/chunk', { turn, step, chunk })
      assembler.push(chunk)
      return seq
    })
    return { turn, step, seqs, assembler }
  }

  /** `llm/retry` for a failed attempt, the backoff delay, then `llm/retry-started` (§6, §11). */
  retry(options: {
    retryId: string
    turn: number
    step: number
    retry: number
    maxRetries: number
    delayMs: number
    failure: LlmFailure
  }): void {
    const { retryId, turn, step, retry, maxRetries, delayMs, failure } = options
    this.event('llm/retry', { retryId, turn, step, retry, maxRetries, delayMs, failure })
    this.wait(delayMs)
    this.event('llm/retry-started', { retryId, turn, step, retry })
  }

  /**
   * The `assistant/message` the harness writes for an attempt: `blocks()` (or `interruptedBlocks()` when the user
   * cancelled), usage when the attempt reported one, citing every chunk of the attempt.
   */
  assistantMessage(attempt: LoggedAttempt, options: { id: string; interrupted?: boolean }): number {
    const { assembler, turn, step } = attempt
    const content: ContentBlock[] = options.interrupted ? assembler.interruptedBlocks() : assembler.blocks()
    const message = { role: 'assistant', content, source: { kind: 'model', ...this.model }, id: options.id }
    const usage = options.interrupted ? undefined : assembler.usage
    const data = {
      turn,
      step,
      message,
      ...(usage !== undefined ? { usage } : {}),
      ...(options.interrupted ? { interrupted: true } : {}),
    }
    return this.event('assistant/message', data, { sourceEventSeqs: attempt.seqs, surfaceOp: 'append' })
  }

  stepEnd(turn: number, step: number): number {
    return this.event('step/end', { turn, step })
  }

  turnEnd(turn: number, reason: TurnEndReason): number {
    return this.event('turn/end', { turn, reason })
  }

  /** The log's text: the session header line, then one line per event, each ending in `\n`. */
  toJsonl(): string {
    const header = {
      type: 'session',
      version: 0,
      id: this.header.id,
      createdAt: this.header.createdAt,
      delegationDepth: 0,
    }
    return [header, ...this.events].map((record) => JSON.stringify(record) + '\n').join('')
  }

  private nextGap(): number {
    const gap = CHUNK_GAPS[this.gap % CHUNK_GAPS.length]!
    this.gap += 1
    return gap
  }
}
