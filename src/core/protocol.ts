/**
 * The StreamChunk protocol's vocabulary, in the protocol's own words (docs/protocol.md §1).
 *
 * Content blocks and finish reasons are open to extension: readers pass through shapes they do not know,
 * so every union here ends in an "other" member and code switches on the known tags.
 */

export type TextBlock = { readonly type: 'text'; readonly text: string }
export type ReasoningBlock = { readonly type: 'reasoning'; readonly text: string }
export type ToolCallBlock = {
  readonly type: 'tool-call'
  readonly id: string
  readonly name: string
  /** Raw JSON text, never parsed by the assembler. */
  readonly arguments: string
}
export type ToolResultBlock = {
  readonly type: 'tool-result'
  readonly toolCallId: string
  readonly content: readonly ContentBlock[]
  readonly isError?: boolean
}
export type ImageBlock = {
  readonly type: 'image'
  readonly attachment: {
    readonly attachmentId: string
    readonly mediaType: string
    readonly [key: string]: unknown
  }
}
/** A block type the protocol does not name (the union is open to extension). */
export type OtherBlock = { readonly type: string; readonly [key: string]: unknown }

export type KnownBlock = TextBlock | ReasoningBlock | ToolCallBlock | ToolResultBlock | ImageBlock
export type ContentBlock = KnownBlock | OtherBlock

export type TokenUsage = {
  /** Uncached input; billed input = input + cacheRead + cacheWrite (the counts are disjoint). */
  readonly inputTokens: number
  readonly outputTokens: number
  readonly cacheReadTokens?: number
  readonly cacheWriteTokens?: number
  readonly reasoningTokens?: number
}

export type LlmFailure = {
  readonly message: string
  /** Stable machine code: policy routes on it, never on `message`. */
  readonly code: string
  readonly status?: number
  readonly providerRetryAfterMs?: number
  readonly requestId?: string
}

export type FinishReason =
  | { readonly kind: 'stop' }
  | { readonly kind: 'tool-calls' }
  | { readonly kind: 'max-tokens' }
  | { readonly kind: 'error'; readonly failure: LlmFailure }
  | { readonly kind: 'aborted'; readonly failure: LlmFailure }

/** Adapter-private continuation data; `blocks`, when present, has one entry per assembled block. */
export type ReplayEnvelope = { readonly response: unknown; readonly blocks?: readonly unknown[] }

export type BlockStartChunk = {
  readonly type: 'block-start'
  readonly index: number
  readonly blockType: string
}
export type TextDeltaChunk = { readonly type: 'text-delta'; readonly index: number; readonly text: string }
export type ReasoningDeltaChunk = {
  readonly type: 'reasoning-delta'
  readonly index: number
  readonly text: string
}
export type ToolCallDeltaChunk = {
  readonly type: 'tool-call-delta'
  readonly index: number
  readonly id: string
  readonly name?: string
  readonly argumentsDelta: string
}
export type BlockEndChunk = {
  readonly type: 'block-end'
  readonly index: number
  readonly block: ContentBlock
}
export type UsageChunk = { readonly type: 'usage'; readonly usage: TokenUsage }
export type FinishChunk = {
  readonly type: 'finish'
  readonly reason: FinishReason
  readonly replayState?: ReplayEnvelope
}

/** Exactly seven variants; only the first five carry `index`. */
export type StreamChunk =
  | BlockStartChunk
  | TextDeltaChunk
  | ReasoningDeltaChunk
  | ToolCallDeltaChunk
  | BlockEndChunk
  | UsageChunk
  | FinishChunk

export type ChunkType = StreamChunk['type']

export const CHUNK_TYPES = [
  'block-start',
  'text-delta',
  'reasoning-delta',
  'tool-call-delta',
  'block-end',
  'usage',
  'finish',
] as const satisfies readonly ChunkType[]

/**
 * What readers hand to the engine: a StreamChunk, or any other JSON object with a `type`, which the
 * assembler records as an unknown chunk instead of throwing (docs/protocol.md §3 A7).
 */
export type AnyChunk = StreamChunk | { readonly type: string; readonly [key: string]: unknown }

export function isStreamChunk(chunk: AnyChunk): chunk is StreamChunk {
  return (CHUNK_TYPES as readonly string[]).includes(chunk.type)
}

/**
 * One chunk as a source delivered it: the chunk plus where it came from. `seq` is the session-log seq, or the
 * 0-based position for bare chunk files; `time` is epoch ms when known (unreliable in fixtures: show, never trust).
 */
export type SourcedChunk = {
  readonly seq: number
  readonly time: number | null
  readonly chunk: AnyChunk
}
