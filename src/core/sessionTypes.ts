import type { AssemblerState } from './BlockAssembler'
import type { CheckerState, Finding } from './checks'
import type { FirstDivergence } from './firstDivergence'
import type { ContentBlock, SourcedChunk } from './protocol'

/**
 * The session model (docs/protocol.md §6): a harness log's events segmented into turns → steps → attempts, each attempt
 * one model stream, linked to the `assistant/message` that cites its chunks. Bare chunk files become one stream.
 */

/** Line 1 of a harness log (§6), normalised: fields of the wrong type are left out; `raw` keeps the line as read. */
export type SessionHeader = {
  readonly type: 'session'
  readonly version: number | null
  readonly id: string | null
  readonly createdAt: number | null
  readonly cwd?: string
  readonly parentSession?: string
  readonly origin?: string
  readonly delegationDepth?: number
  /** Its shape is not pinned down by §6: kept as read. */
  readonly agentPreset?: unknown
  readonly raw: Readonly<Record<string, unknown>>
}

/** The three packed-row tags of §7. */
export type PackedRowType = 'text-chunks' | 'reasoning-chunks' | 'tool-call-chunks'

/**
 * One logical session event (§6), packed rows already decoded into one `assistant/chunk` per member (§7).
 * Unknown event types are kept as they are.
 */
export type SessionEvent = {
  readonly type: string
  readonly seq: number
  /** Epoch ms at append, null when absent. Unreliable in fixtures (§6): order by seq, show time as data. */
  readonly time: number | null
  readonly data: unknown
  readonly sourceEventSeqs?: readonly number[]
  /** `"append"`, or an object such as `{op: 'replace', start, end}` (compaction): kept as read. */
  readonly surfaceOp?: unknown
  /** 1-based line of the source text; the members of a packed row share the row's line. */
  readonly line: number
  /** Set when the event was decoded from a packed row of this type. */
  readonly packed?: PackedRowType
}

/** How an attempt began (§6). */
export type AttemptKind =
  /** The whole of a bare chunk file. */
  | 'stream'
  /** The first attempt of its (turn, step). */
  | 'first'
  /** Begun at an `llm/retry-started` for its (turn, step). */
  | 'retry'
  /** Chunks of the same (turn, step) after a finish with no retry event (e.g. after compaction, §6). */
  | 'after-finish'

/** Which cited seqs of a message do not line up with the attempt it is linked to. */
export type Citation = {
  /** Cited seqs that are no event in the log (trimmed or lost). */
  readonly missing: readonly number[]
  /** Cited seqs that exist but are not chunks of the linked attempt. */
  readonly foreign: readonly number[]
  /** Chunks of the linked attempt the message does not cite. */
  readonly uncited: readonly number[]
}

/** An `assistant/message` as the harness stored it. */
export type RecordedMessage = {
  readonly seq: number
  readonly line: number
  readonly turn: number | null
  readonly step: number | null
  readonly interrupted: boolean
  readonly content: readonly ContentBlock[]
  /** `data.message` (current shape) or `data` itself (legacy shape, content at `data.content`). */
  readonly message: unknown
  readonly shape: 'current' | 'legacy' | 'no-content'
  /** Empty when the message carries none: unknown provenance (crash repair writes such, §6). */
  readonly sourceEventSeqs: readonly number[]
  readonly provenance: 'cited' | 'unknown'
  /** The attempt it was linked to, or null. */
  readonly attemptId: string | null
  readonly citation: Citation
  /**
   * Set for a reference final from outside the log (a trace export's `gen_ai.output.messages`, docs/protocol.md
   * §9, "A reference final"): where it came from, said in place of "assistant/message seq N".
   */
  readonly source?: string
}

export type Attempt = {
  /** `t1.s2.a1`; `stream` for a bare chunk file; `t?` / `s?` when the chunk events carry no number. */
  id: string
  turn: number | null
  step: number | null
  /** 1-based within its (turn, step). */
  attempt: number | null
  kind: AttemptKind
  /** The `retryId` of the `llm/retry-started` that began it. */
  retryId?: string
  chunks: SourcedChunk[]
  recorded: RecordedMessage | null
  /** Set for a stream translated from a captured wire format (raw SSE, a HAR entry, …): see {@link WireTrace}. */
  wire?: WireTrace
  /** Set when `chunks` are only a window of the stream (a windowed share link): see {@link AttemptWindow}. */
  window?: AttemptWindow
}

/**
 * What a window of a stream needs to show what the whole stream shows: the chunks are positions
 * `[from, from + chunks.length)` of a stream of `total`, `start` is the assembler after the chunks before, `end` the
 * assembler after the whole stream (its finish, usage and blocks are what the recorded message is compared with),
 * and `findings` the whole stream's findings outside the window (per-chunk ones before and after it, then the
 * end-of-stream ones), with positions counted from the window's first chunk (negative before it).
 */
export type AttemptWindow = {
  readonly from: number
  readonly total: number
  readonly start: AssemblerState
  readonly end: AssemblerState
  readonly findings: readonly Finding[]
  /** Where the end-of-stream findings begin in `findings`. */
  readonly endFrom: number
  /** Seq of the stream's last chunk (end-of-stream findings name it). */
  readonly lastSeq: number
  /** The whole stream's first divergence from its recorded message, `pos` counted from the window's first chunk. */
  readonly divergence?: FirstDivergence | null
  /** The checks' memory at `from` (docs/protocol.md §14); absent in links made before it travelled. */
  readonly startChecks?: CheckerState
  /**
   * The chunk whose push threw (§3), when it lies outside the window: its position counted from `from` and its seq,
   * so the opener names the chunk the sender's view names. Absent in links made before it travelled.
   */
  readonly thrown?: { readonly pos: number; readonly seq: number }
}

/**
 * How a stream translated from a provider's wire format lines up with what came over the wire (docs/protocol.md §9),
 * for an "Adapter" view: raw event i is `text.slice(start[i], end[i])`, on 1-based `line[i]` of `text`, and became
 * the chunks at positions `chunkFrom[i]` … `chunkTo[i] - 1` of the attempt (contiguous: one event → zero, one or
 * many chunks). Chunks no event produced (the block-ends and finish synthesised at end of body) have no event.
 * Columns of typed arrays rather than an object per event: a 100 MB capture holds a million events and this
 * travels from the worker to the page. Use `wireEvent` / `wireEventOfChunk` (src/formats/wire.ts) to read it.
 */
export type WireTrace = {
  /** `openai-sse`, `anthropic-sse`, `simplified-stream` (NDJSON lines), `js-snippet` (yields), `http-error` (no events). */
  readonly format: string
  /** The request, when the capture records it (HAR). */
  readonly request?: {
    readonly url: string
    readonly method?: string
    /** As the capture wrote it (HAR `startedDateTime`, ISO 8601). */
    readonly startedAt?: string
    readonly status?: number
  }
  /** The text the events were cut from (for a HAR entry: the decoded response body). */
  readonly text: string
  readonly count: number
  readonly start: Uint32Array
  readonly end: Uint32Array
  readonly line: Uint32Array
  readonly chunkFrom: Uint32Array
  readonly chunkTo: Uint32Array
}

export type Step = { turn: number; step: number; attempts: Attempt[] }

export type Turn = {
  turn: number
  steps: Step[]
  start?: { seq: number }
  end?: { seq: number; reason: unknown }
}

export type Session = {
  header: SessionHeader | null
  events: SessionEvent[]
  /** In order of first appearance; includes turns that only orphan chunks mention. */
  turns: Turn[]
  /** Every attempt in order of its first chunk. */
  streams: Attempt[]
  /** Every `assistant/message`, linked or not, in seq order. */
  messages: RecordedMessage[]
}
