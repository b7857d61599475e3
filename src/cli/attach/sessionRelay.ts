// One harness session as `chunkscope attach` relays it: events kept by seq, only the contiguous prefix published.
import type { FinishReason } from '../../core/protocol'
import type { FeedCapture, FeedRecord } from '../../formats/live/feedProtocol'
import { isRecord } from '../../core/base/isRecord'

/** What `add` made of one event. */
export type AddResult =
  /** Not an event (no string `type`, no valid `seq`): skipped. */
  | 'invalid'
  /** Its seq is already held or published: dropped. */
  | 'duplicate'
  /** Held; its seq is the one after the highest held (or lower, filling a hole). */
  | 'added'
  /** Held, but its seq is past the one expected next: events in between are missing, re-pull the history. */
  | 'gap'
  /** Not held: `maxHeld` events already wait behind a missing seq (it is dropped; a later pull may bring it). */
  | 'overflow'

export type RelayStats = {
  /** Events published (the contiguous prefix: seqs 0 … published − 1). */
  readonly published: number
  /** Events held past a hole, waiting for it to fill. */
  readonly held: number
  readonly duplicates: number
  /** Events dropped because `maxHeld` were already held behind a hole. */
  readonly dropped: number
  /** The highest seq seen, −1 before any. */
  readonly maxSeq: number
}

/**
 * Events held behind a missing seq, at most: a host that never sends seq 0 cannot make the relay keep everything
 * after it (20,000 events of a few KB each stay well under 100 MB).
 */
export const DEFAULT_MAX_HELD = 20_000

/** The header record attach synthesises: the socket carries no session header (docs/protocol.md §6, §10). */
export function attachHeader(sessionId: string, url: string): FeedRecord {
  return {
    type: 'session',
    version: 0,
    id: sessionId,
    createdAt: null,
    delegationDepth: 0,
    chunkscopeAttach: { url },
  }
}

/**
 * Keeps one session's events by seq and hands out, in seq order, only those whose every predecessor is there
 * (seq 0, 1, 2… without holes), so a feed subscriber never sees a gap or a duplicate. Also tracks what the capture
 * summary shows: the title (last `session/title`), the chunk count and the last finish chunk's reason.
 */
export class SessionRelay {
  private readonly held = new Map<number, FeedRecord>()
  private readonly lines: string[]
  private next = 0
  private maxSeq = -1
  private duplicates = 0
  private dropped = 0
  private title: string | null = null
  private chunks = 0
  private finish: FinishReason | null = null
  private startedAt: number | null = null

  constructor(
    readonly id: string,
    readonly header: FeedRecord,
    private readonly maxHeld = DEFAULT_MAX_HELD,
  ) {
    this.lines = [JSON.stringify(header)]
  }

  /** Takes one event (from the socket or a history page). Events are kept as received. */
  add(value: unknown): AddResult {
    if (!isRecord(value) || typeof value['type'] !== 'string') return 'invalid'
    const seq = value['seq']
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return 'invalid'
    if (seq < this.next || this.held.has(seq)) {
      this.duplicates += 1
      return 'duplicate'
    }
    // The one that fills the hole is always taken (it lets the held run drain); others wait for room.
    if (this.held.size >= this.maxHeld && seq !== this.next) {
      this.dropped += 1
      return 'overflow'
    }
    this.held.set(seq, value)
    const gap = seq > this.maxSeq + 1
    if (seq > this.maxSeq) this.maxSeq = seq
    return gap ? 'gap' : 'added'
  }

  /** Moves the contiguous run after the published prefix out, in seq order (empty when seq `next` is missing). */
  drain(): FeedRecord[] {
    const out: FeedRecord[] = []
    for (let record = this.held.get(this.next); record !== undefined; record = this.held.get(this.next)) {
      this.held.delete(this.next)
      this.next += 1
      this.note(record)
      this.lines.push(JSON.stringify(record))
      out.push(record)
    }
    return out
  }

  /** Events are held past a missing seq. */
  get hasHole(): boolean {
    return this.held.size > 0
  }

  /** The next seq to publish: everything below it is published. */
  get published(): number {
    return this.next
  }

  stats(): RelayStats {
    return {
      published: this.next,
      held: this.held.size,
      duplicates: this.duplicates,
      dropped: this.dropped,
      maxSeq: this.maxSeq,
    }
  }

  summary(): FeedCapture {
    return {
      id: this.id,
      kind: 'harness',
      title: this.title ?? this.id,
      state: 'streaming',
      startedAt: this.startedAt,
      endedAt: null,
      chunks: this.chunks,
      finish: this.finish,
    }
  }

  /** The published log as JSONL: header line, then events by seq, each line ending in `\n`. */
  log(): string {
    return this.lines.join('\n') + '\n'
  }

  private note(record: FeedRecord): void {
    const data = isRecord(record['data']) ? record['data'] : {}
    if (this.startedAt === null && typeof record['time'] === 'number') this.startedAt = record['time']
    if (record['type'] === 'session/title' && typeof data['title'] === 'string') this.title = data['title']
    if (record['type'] === 'assistant/chunk') {
      this.chunks += 1
      const chunk = data['chunk']
      if (isRecord(chunk) && chunk['type'] === 'finish' && isRecord(chunk['reason']))
        this.finish = chunk['reason'] as FinishReason
    }
  }
}
