import type { LoadedSource } from '../../formats/types'
import type { LoadProgress, LoadResponse } from '../workers/loadMessages'
import { SourceAssembler } from '../workers/transfer'
import { EarlyReplay } from './earlyReplay'

type Shell = Extract<LoadResponse, { type: 'shell' }>

export type Received =
  | { readonly kind: 'pending' }
  | { readonly kind: 'done'; readonly source: LoadedSource }
  | { readonly kind: 'failed'; readonly message: string }

const PENDING: Received = { kind: 'pending' }

/**
 * The page's side of one load's messages (workers/loadMessages.ts): progress goes to `onProgress`, the parts into
 * a {@link SourceAssembler}, and the parts that come before the shell (posted while the worker read) also feed
 * the replay of the first stream with chunks (earlyReplay.ts), which the store finishes once the source is shown.
 */
export class LoadReceiver {
  private assembler = new SourceAssembler()
  private shell: Shell | null = null
  /** Parts that came before the shell. */
  private early = 0
  private replay: EarlyReplay | null = null
  private received = 0

  constructor(private readonly onProgress: (progress: LoadProgress) => void) {}

  receive(message: LoadResponse): Received {
    switch (message.type) {
      case 'progress':
        this.onProgress(message.progress)
        return PENDING
      case 'rows': {
        const rows = this.assembler.eventRows(message.session)
        this.replay ??= new EarlyReplay(message.session, message.stream, rows, true)
        if (this.replay.session === message.session && this.replay.stream === message.stream)
          this.replay.addPositions(message.rows)
        return PENDING
      }
      case 'shell':
        this.shell = message
        if (message.early !== this.early) {
          // The source does not hold what came early (its reader fell back to objects): every part follows.
          this.stop()
          this.replay = null
          this.assembler = new SourceAssembler()
        }
        return PENDING
      case 'part': {
        const { part } = message
        this.assembler.add(part)
        if (this.shell === null) {
          this.early += 1
          if (part.type === 'chunks' && this.early === 1) {
            const rows = this.assembler.chunkRows(part.session, part.stream)
            this.replay = new EarlyReplay(part.session, part.stream, rows, false)
          }
          this.replay?.more()
          return PENDING
        }
        this.received += 1
        this.onProgress({ phase: 'transferring', done: this.received, total: this.shell.parts })
        return PENDING
      }
      case 'done': {
        this.stop()
        if (this.shell === null) return { kind: 'failed', message: 'the loading worker sent no source' }
        const source = this.assembler.finish(this.shell.source, this.shell.plan)
        this.replay?.finish(source, this.shell.plan)
        return { kind: 'done', source }
      }
      case 'failed':
        this.stop()
        return { kind: 'failed', message: message.message }
    }
  }

  /** The replay running on early parts, if any (tests wait on its progress). */
  get earlyReplay(): EarlyReplay | null {
    return this.replay
  }

  /** Stops the early replay (the load ended, or its source is not wanted). */
  stop(): void {
    this.replay?.stop()
  }
}
