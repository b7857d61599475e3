import { readAssembler, type StreamResult } from './analyzeStream'
import { BlockAssembler, type RunOfDeltas } from './BlockAssembler'
import { jsonEqual } from './jsonEqual'
import type { PackedRun } from './columnWriter'
import type { AnyChunk, ContentBlock, SourcedChunk } from './protocol'
import { isRecord } from './base/isRecord'
import { SeqRuns, climbs } from './seqRuns'

import type {
  SessionHeader,
  SessionEvent,
  AttemptKind,
  Citation,
  RecordedMessage,
  Attempt,
  WireTrace,
  Step,
  Turn,
  Session,
} from './sessionTypes'

export type {
  SessionHeader,
  PackedRowType,
  SessionEvent,
  AttemptKind,
  Citation,
  RecordedMessage,
  Attempt,
  AttemptWindow,
  WireTrace,
  Step,
  Turn,
  Session,
} from './sessionTypes'

/**
 * Segments a harness log into turns, steps and attempts and links each attempt to its recorded message (§6).
 * `onProgress` hears how many events are segmented, now and then.
 *
 * @example
 * const session = buildSession(read.header, read.events)
 * session.streams.map((a) => a.id) // ['t1.s1.a1', 't1.s1.a2', 't1.s2.a1']
 */
export function buildSession(
  header: SessionHeader | null,
  events: SessionEvent[],
  onProgress?: (done: number, total: number) => void,
): Session {
  const ordered = inSeqOrder(events)
  const builder = new SessionBuilder()
  for (let i = 0; i < ordered.length; i++) {
    // A 100 MB log holds millions of events: a loading bar that stood still here looked like a hang.
    if (onProgress !== undefined && (i & 0x3fff) === 0) onProgress(i, ordered.length)
    builder.add(ordered[i]!)
  }
  const messages = builder.link()
  return { header, events, turns: builder.turns(), streams: builder.streams, messages }
}

/**
 * {@link buildSession} fed one event at a time, for a reader that hands each event over as it reads it instead of
 * collecting them first (`chunkscope inspect` keeps no chunk events: they live on in their streams). The events
 * must come in seq order (§6 segments in seq order; buildSession sorts a copy when a log is out of order).
 *
 * @example
 * const segmenter = new SessionSegmenter()
 * for (const event of events) segmenter.add(event)
 * segmenter.session(header, []).streams.map((a) => a.id) // ['t1.s1.a1', …]
 */
export class SessionSegmenter {
  private readonly builder: SessionBuilder

  /**
   * `capacity`: how many events will come, roughly; a hint the builder no longer needs (it keeps runs of seqs, which
   * grow as they come), still taken so callers need not change. With `handOver`, each chunk goes to it
   * with the index of its stream in `streams` instead of into `attempt.chunks` (left empty): a caller that analyzes
   * every chunk as it comes keeps none (`chunkscope inspect`); {@link seqsOf} then gives a stream's seqs.
   */
  constructor(_capacity = 1 << 10, handOver?: ChunkHandOver, runHandOver?: RunHandOver) {
    this.builder = new SessionBuilder(handOver, runHandOver)
  }

  /** The seqs of stream `index`'s chunks, in order. */
  seqsOf(index: number): readonly number[] {
    return this.builder.seqsOf(index)
  }

  add(event: SessionEvent): void {
    this.builder.add(event)
  }

  /** An `assistant/chunk` event given by its fields, for a reader that never built it (a packed row's member, §7). */
  chunk(seq: number, time: number | null, turn: unknown, step: unknown, chunk: unknown): void {
    this.builder.addChunkEvent(seq, time, turn, step, chunk)
  }

  /**
   * The members of one packed row (§7) by their common fields, for a segmenter with a hand-over whose caller keeps
   * the chunks itself (formats/columnSource.ts): the index of their stream in `streams`. With `chunkOf`, member k's
   * chunk goes to the hand-over as {@link chunk} would hand it — or, given the row's `run` (of these `count`
   * members) and a segmenter with a run hand-over, the whole run at once; without, the hand-over is not told. The
   * seqs must follow the events added before, like every event's.
   */
  chunkRun(
    seq0: number,
    count: number,
    turn: unknown,
    step: unknown,
    chunkOf?: (k: number) => AnyChunk,
    run?: DeltaRun,
  ): number {
    return this.builder.addChunkRun(seq0, count, turn, step, chunkOf, run)
  }

  /** The session so far; `events` are what the caller kept of the events it added. */
  session(header: SessionHeader | null, events: SessionEvent[]): Session {
    const messages = this.builder.link()
    return { header, events, turns: this.builder.turns(), streams: this.builder.streams, messages }
  }
}

/** Where a {@link SessionSegmenter} hands each chunk: the index of its stream, the chunk, its seq. */
export type ChunkHandOver = (stream: number, chunk: AnyChunk, seq: number) => void

/** A packed row's members (docs/protocol.md §7) as what they are: deltas of one type into one block. */
export type DeltaRun = PackedRun & Pick<RunOfDeltas, 'deltaType'>

/**
 * Where a {@link SessionSegmenter} hands a packed row's members when it has this: the index of their stream, the
 * run (member k has seq `run.seq0 + k`) and member k's chunk, so a caller can take the run whole
 * (analyzeStream.ts's `pushRun`) instead of one chunk object per member.
 */
export type RunHandOver = (stream: number, run: DeltaRun, chunkOf: (k: number) => AnyChunk) => void

/** A bare chunk file as a session: no header, no turns, one stream (§6 last line). */
export function buildStreamSession(chunks: SourcedChunk[]): Session {
  return streamsSession([bareStream('stream', chunks)])
}

/**
 * A stream read without a session log around it (a chunk file, an SSE body, a snippet, a HAR entry): no turn,
 * step or recorded message; `wire` pairs its chunks with the raw events they came from, when the reader knows.
 */
export function bareStream(id: string, chunks: SourcedChunk[], wire?: WireTrace): Attempt {
  return {
    id,
    turn: null,
    step: null,
    attempt: null,
    kind: 'stream',
    chunks,
    recorded: null,
    ...(wire !== undefined ? { wire } : {}),
  }
}

/**
 * Streams that came without a session log around them (a chunk file, an SSE body, a snippet, a HAR capture) as a
 * session: no header, events, turns or recorded messages.
 */
export function streamsSession(streams: Attempt[]): Session {
  return { header: null, events: [], turns: [], streams, messages: [] }
}

/** How a recorded message is named in verdicts and findings: "assistant/message seq 12", or its outside source. */
export function describeRecorded(recorded: RecordedMessage): string {
  return recorded.source ?? `assistant/message seq ${recorded.seq}`
}

export type RecordedComparison = {
  readonly match: boolean
  /** null when assembling threw (an open block of an unknown type, §3). */
  readonly assembled: ContentBlock[] | null
  readonly expected: readonly ContentBlock[]
  readonly error?: string
}

/**
 * Compares what an attempt's chunks assemble to with its recorded message (§6): `interruptedBlocks()` when the
 * message is interrupted, else `blocks()`. Null when the attempt has no linked message. Pass the attempt's
 * `analyzeStream` result (or an unseeded engine's `result`) when there is one: the comparison then reads it
 * instead of assembling the chunks again.
 *
 * @example
 * compareRecorded(session.streams[0]) // { match: true, assembled: [...], expected: [...] }
 * compareRecorded(attempt, engine.result) // the same, without a second pass
 */
export function compareRecorded(attempt: Attempt, assembled?: AssembledRead): RecordedComparison | null {
  const recorded = attempt.recorded
  if (recorded === null) return null
  // A window's chunks are not the whole stream: the state after the whole stream travels with it.
  const read = attempt.window !== undefined ? assemble(attempt) : (assembled ?? assemble(attempt))
  // A push that threw ended the harness's attempt in that error (§3): it assembled nothing to record.
  const failed = read.errorPos !== null
  const blocks = failed ? null : recorded.interrupted ? read.interruptedBlocks : read.blocks
  if (blocks === null) {
    const error =
      (recorded.interrupted && !failed ? read.interruptedBlocksError : read.error) ?? 'unknown error'
    return { match: false, assembled: null, expected: recorded.content, error }
  }
  return { match: jsonEqual(blocks, recorded.content), assembled: blocks, expected: recorded.content }
}

/** The part of a stream's result a comparison reads (a `StreamResult` or an engine's `result` has it). */
export type AssembledRead = Pick<
  StreamResult,
  'blocks' | 'error' | 'errorPos' | 'interruptedBlocks' | 'interruptedBlocksError'
>

function assemble(attempt: Attempt): AssembledRead {
  if (attempt.window !== undefined) return readAssembler(BlockAssembler.fromState(attempt.window.end))
  const assembler = new BlockAssembler()
  for (const sourced of attempt.chunks) assembler.push(sourced.chunk)
  return readAssembler(assembler)
}

type AttemptCursor = {
  current: Attempt | null
  /** Index of `current` in `streams`. */
  index: number
  finished: boolean
  /** An `llm/retry-started` arrived: the next chunk opens a retry attempt. */
  retry: { retryId: string | undefined } | null
  count: number
}

class SessionBuilder {
  readonly streams: Attempt[] = []
  private readonly turnMap = new Map<number, Turn>()
  private readonly stepMap = new Map<string, Step>()
  private readonly cursors = new Map<string, AttemptCursor>()
  private lastCursor: { turn: number | null; step: number | null; cursor: AttemptCursor } | null = null
  private readonly messageEvents: SessionEvent[] = []
  /**
   * Which stream owns each event, by seq (events arrive in seq order): runs of consecutive seqs rather than a Map
   * keyed by seq or an entry per event, since a 100 MB log holds millions of events and hashing or even storing each
   * of them cost more than reading the file (seqRuns.ts).
   */
  private readonly owners = new SeqRuns()

  /**
   * With a hand-over (its chunks are not kept): each stream's chunk seqs, gathered from `owners` when first asked
   * for, once every event is in.
   */
  private streamSeqs: Float64Array[] | null = null

  constructor(
    private readonly handOver?: ChunkHandOver,
    private readonly runHandOver?: RunHandOver,
  ) {}

  seqsOf(index: number): readonly number[] {
    if (this.handOver === undefined) return this.streams[index]!.chunks.map((chunk) => chunk.seq)
    // A loop of pushes, not Array.from: that takes the typed array's generic path, ~4× slower over millions.
    const gathered = (this.streamSeqs ??= this.owners.seqsByOwner(this.streams.length))[index]!
    const seqs: number[] = []
    for (let i = 0; i < gathered.length; i++) seqs.push(gathered[i]!)
    return seqs
  }

  add(event: SessionEvent): void {
    if (event.type !== 'assistant/chunk') this.owners.add(event.seq, 1, -1)
    const data = isRecord(event.data) ? event.data : {}
    const turn = asInt(data['turn'])
    const step = asInt(data['step'])
    switch (event.type) {
      case 'assistant/chunk':
        this.addChunk(event.seq, event.time, turn, step, data['chunk'])
        break
      case 'assistant/message':
        this.messageEvents.push(event)
        if (turn !== null && step !== null) this.ensureStep(turn, step)
        break
      case 'llm/retry-started': {
        // §6: a new attempt starts at an llm/retry-started for that (turn, step).
        const retryId = data['retryId']
        this.cursor(turn, step).retry = { retryId: typeof retryId === 'string' ? retryId : undefined }
        break
      }
      case 'turn/start':
        if (turn !== null) this.ensureTurn(turn).start ??= { seq: event.seq }
        break
      case 'turn/end':
        if (turn !== null) this.ensureTurn(turn).end ??= { seq: event.seq, reason: data['reason'] }
        break
      case 'step/start':
      case 'step/end':
        if (turn !== null && step !== null) this.ensureStep(turn, step)
        break
    }
  }

  /** {@link add} of an `assistant/chunk` event with these fields. */
  addChunkEvent(seq: number, time: number | null, turn: unknown, step: unknown, chunk: unknown): void {
    this.addChunk(seq, time, asInt(turn), asInt(step), chunk)
  }

  private addChunk(
    seq: number,
    time: number | null,
    turn: number | null,
    step: number | null,
    value: unknown,
  ): void {
    const cursor = this.open(turn, step)
    const chunk = asChunk(value)
    this.owners.add(seq, 1, cursor.index)
    if (this.handOver === undefined) cursor.current!.chunks.push({ seq, time, chunk })
    else this.handOver(cursor.index, chunk, seq)
    if (chunk.type === 'finish') cursor.finished = true
  }

  /**
   * The `count` chunk events of one packed row (§7: seqs seq0, seq0 + 1, …, one turn and step, none a finish) for
   * a builder with a hand-over, whose caller keeps the chunks: the index of their stream.
   */
  addChunkRun(
    seq0: number,
    count: number,
    turn: unknown,
    step: unknown,
    chunkOf?: (k: number) => AnyChunk,
    run?: DeltaRun,
  ): number {
    if (this.handOver === undefined) throw new Error('a run of chunks needs a builder with a hand-over')
    const index = this.open(asInt(turn), asInt(step)).index
    this.owners.add(seq0, count, index)
    if (chunkOf === undefined) return index
    if (run !== undefined && this.runHandOver !== undefined) this.runHandOver(index, run, chunkOf)
    else for (let k = 0; k < count; k++) this.handOver(index, chunkOf(k), seq0 + k)
    return index
  }

  /** The cursor of (turn, step), on the attempt the next chunk of it belongs to (opened here when it is new). */
  private open(turn: number | null, step: number | null): AttemptCursor {
    const cursor = this.cursor(turn, step)
    // §6: a new attempt after a finish when more chunks of the same (turn, step) follow, or after a retry start.
    if (cursor.current === null || cursor.finished || cursor.retry !== null) {
      cursor.count += 1
      const kind: AttemptKind = cursor.retry ? 'retry' : cursor.current ? 'after-finish' : 'first'
      const attempt: Attempt = {
        id: `t${turn ?? '?'}.s${step ?? '?'}.a${cursor.count}`,
        turn,
        step,
        attempt: cursor.count,
        kind,
        chunks: [],
        recorded: null,
      }
      if (cursor.retry?.retryId !== undefined) attempt.retryId = cursor.retry.retryId
      cursor.current = attempt
      cursor.index = this.streams.length
      cursor.finished = false
      cursor.retry = null
      this.streams.push(attempt)
      if (turn !== null && step !== null) this.ensureStep(turn, step).attempts.push(attempt)
    }
    return cursor
  }

  /** Links every message that cites chunks to the attempt holding most of them (§6). */
  link(): RecordedMessage[] {
    return this.messageEvents.map((event) => {
      const base = readMessage(event)
      const cited = event.sourceEventSeqs
      if (cited === undefined) {
        return { ...base, provenance: 'unknown', attemptId: null, citation: NO_CITATION_ISSUES }
      }
      // Owner of each cited seq: an index into streams, -1 for an event that is no chunk, -2 for no such event.
      const owners = this.owners.ownersOf(cited)
      const votes = new Map<number, number>()
      // Counted a run of one owner at a time (a message cites its stream's chunks together): a map update per cited
      // seq was most of the linking's own time. The map still meets the owners in the order they are first cited.
      let runOwner = -1
      let runVotes = 0
      for (const owner of owners) {
        if (owner === runOwner) {
          runVotes += 1
          continue
        }
        if (runOwner >= 0) votes.set(runOwner, (votes.get(runOwner) ?? 0) + runVotes)
        runOwner = owner
        runVotes = 1
      }
      if (runOwner >= 0) votes.set(runOwner, (votes.get(runOwner) ?? 0) + runVotes)
      let bestIndex = -1
      let bestVotes = 0
      for (const [index, count] of votes) {
        if (count > bestVotes && this.streams[index]!.recorded === null)
          [bestIndex, bestVotes] = [index, count]
      }
      const best = this.streams[bestIndex] ?? null
      const missing: number[] = []
      const foreign: number[] = []
      for (let k = 0; k < cited.length; k++) {
        if (owners[k] === -2) missing.push(cited[k]!)
        else if (owners[k] !== bestIndex) foreign.push(cited[k]!)
      }
      const uncited = best ? seqsNotCited(this.seqsOf(bestIndex), cited) : []
      const recorded: RecordedMessage = {
        ...base,
        provenance: 'cited',
        attemptId: best?.id ?? null,
        citation: { missing, foreign, uncited },
      }
      if (best) best.recorded = recorded
      return recorded
    })
  }

  turns(): Turn[] {
    return [...this.turnMap.values()]
  }

  private cursor(turn: number | null, step: number | null): AttemptCursor {
    // Runs of chunks share their (turn, step): skip building and hashing a key for each of them.
    const last = this.lastCursor
    if (last !== null && last.turn === turn && last.step === step) return last.cursor
    const key = `${turn}|${step}`
    let cursor = this.cursors.get(key)
    if (!cursor) {
      cursor = { current: null, index: -1, finished: false, retry: null, count: 0 }
      this.cursors.set(key, cursor)
    }
    this.lastCursor = { turn, step, cursor }
    return cursor
  }

  private ensureTurn(turn: number): Turn {
    let entry = this.turnMap.get(turn)
    if (!entry) {
      entry = { turn, steps: [] }
      this.turnMap.set(turn, entry)
    }
    return entry
  }

  private ensureStep(turn: number, step: number): Step {
    const key = `${turn}|${step}`
    let entry = this.stepMap.get(key)
    if (!entry) {
      entry = { turn, step, attempts: [] }
      this.stepMap.set(key, entry)
      this.ensureTurn(turn).steps.push(entry)
    }
    return entry
  }
}

const NO_CITATION_ISSUES: Citation = { missing: [], foreign: [], uncited: [] }

/**
 * The seqs of `seqs` that `cited` does not hold, in order. When both climb (a log's usual case) by one merge of the
 * two: a set of every cited seq cost ~75 ns a seq to build and look up, the larger part of a ~100 MB log's linking.
 */
export function seqsNotCited(seqs: readonly number[], cited: readonly number[]): number[] {
  if (!climbs(seqs) || !climbs(cited)) {
    const set = new Set(cited)
    return seqs.filter((seq) => !set.has(seq))
  }
  const uncited: number[] = []
  let k = 0
  for (const seq of seqs) {
    while (k < cited.length && cited[k]! < seq) k += 1
    if (!(k < cited.length && cited[k] === seq)) uncited.push(seq)
  }
  return uncited
}

type MessageBase = Omit<RecordedMessage, 'provenance' | 'attemptId' | 'citation'>

/** §6: current logs keep content at `data.message.content`, older ones at `data.content`. */
function readMessage(event: SessionEvent): MessageBase {
  const data = isRecord(event.data) ? event.data : {}
  const message = data['message']
  const common = {
    seq: event.seq,
    line: event.line,
    turn: asInt(data['turn']),
    step: asInt(data['step']),
    interrupted: data['interrupted'] === true,
    sourceEventSeqs: event.sourceEventSeqs ?? [],
  }
  if (isRecord(message) && Array.isArray(message['content'])) {
    return { ...common, content: message['content'] as ContentBlock[], message, shape: 'current' }
  }
  if (Array.isArray(data['content'])) {
    return { ...common, content: data['content'] as ContentBlock[], message: data, shape: 'legacy' }
  }
  return { ...common, content: [], message: message ?? data, shape: 'no-content' }
}

/** Readers keep file order; segmentation needs seq order (§6). Copies only when the log is out of order. */
function inSeqOrder(events: SessionEvent[]): readonly SessionEvent[] {
  for (let i = 1; i < events.length; i++) {
    if (events[i - 1]!.seq > events[i]!.seq) return [...events].sort((a, b) => a.seq - b.seq)
  }
  return events
}

/** A chunk event whose `chunk` is no object with a string type still shows in its stream, as an unknown chunk. */
function asChunk(value: unknown): AnyChunk {
  if (isRecord(value) && typeof value['type'] === 'string') return value as AnyChunk
  return { type: '(not a chunk)', value }
}

function asInt(value: unknown): number | null {
  return Number.isSafeInteger(value) ? (value as number) : null
}
