/**
 * Builders with defaults for tests: chunks, content blocks, and harness storage records (PROTOCOL.md §6, §7).
 * `event.*` builds the records as they stand in a `session.jsonl`; `jsonl(...)` turns them into the file's text.
 */
import type {
  BlockEndChunk,
  BlockStartChunk,
  ContentBlock,
  FinishChunk,
  FinishReason,
  ReasoningDeltaChunk,
  ReplayEnvelope,
  TextDeltaChunk,
  ToolCallDeltaChunk,
  UsageChunk,
} from '../core/protocol'
import type { SessionEvent } from '../core/session'
import { block, chunk as shipped } from '../examples/chunks'

export { block }

/** Named builders with test defaults, over the shipped ones (src/examples/chunks.ts): one shape per chunk. */
export const chunk = {
  blockStart: (index: number, blockType = 'text'): BlockStartChunk => shipped.start(index, blockType),
  textDelta: (index: number, text: string): TextDeltaChunk => shipped.text(index, text),
  reasoningDelta: (index: number, text: string): ReasoningDeltaChunk => shipped.reasoning(index, text),
  toolCallDelta: (index: number, id: string, argumentsDelta: string, name?: string): ToolCallDeltaChunk =>
    shipped.toolCall(index, id, argumentsDelta, name),
  blockEnd: (index: number, ended: ContentBlock): BlockEndChunk => shipped.end(index, ended),
  usage: (inputTokens = 10, outputTokens = 5): UsageChunk => shipped.usage({ inputTokens, outputTokens }),
  finish: (reason: FinishReason = { kind: 'stop' }, replayState?: ReplayEnvelope): FinishChunk =>
    shipped.finish(reason, replayState),
  finishError: (code: string, message = `simulated ${code}`): FinishChunk =>
    shipped.finish({ kind: 'error', failure: { message, code } }),
}

export type StorageRecord = Record<string, unknown>

export const event = {
  header: (fields: StorageRecord = {}): StorageRecord => ({
    type: 'session',
    version: 0,
    id: 'session-1',
    createdAt: 0,
    cwd: '/work',
    delegationDepth: 0,
    ...fields,
  }),
  chunk: (seq: number, turn: number, step: number, value: unknown, time = 1000 + seq): StorageRecord => ({
    type: 'assistant/chunk',
    seq,
    time,
    data: { turn, step, chunk: value },
  }),
  turnStart: (seq: number, turn: number): StorageRecord => ({
    type: 'turn/start',
    seq,
    time: 0,
    data: { turn },
  }),
  turnEnd: (seq: number, turn: number, reason: unknown = { kind: 'completed' }): StorageRecord => ({
    type: 'turn/end',
    seq,
    time: 0,
    data: { turn, reason },
  }),
  stepStart: (seq: number, turn: number, step: number): StorageRecord => ({
    type: 'step/start',
    seq,
    time: 0,
    data: { turn, step },
  }),
  stepEnd: (seq: number, turn: number, step: number): StorageRecord => ({
    type: 'step/end',
    seq,
    time: 0,
    data: { turn, step },
  }),
  /** Current shape: content at `data.message.content`; omit `sourceEventSeqs` for unknown provenance. */
  message: (
    seq: number,
    turn: number,
    step: number,
    content: readonly ContentBlock[],
    sourceEventSeqs?: readonly number[],
    options: { interrupted?: boolean } = {},
  ): StorageRecord => ({
    type: 'assistant/message',
    seq,
    time: 0,
    data: {
      turn,
      step,
      message: {
        role: 'assistant',
        content,
        source: { kind: 'model', provider: 'p', model: 'm' },
        id: `m${seq}`,
      },
      ...(options.interrupted ? { interrupted: true } : {}),
    },
    ...(sourceEventSeqs !== undefined ? { sourceEventSeqs } : {}),
  }),
  /** Older logs: content at `data.content`, with `provenance` instead of `message.source` (§6). */
  legacyMessage: (
    seq: number,
    turn: number,
    step: number,
    content: readonly ContentBlock[],
    sourceEventSeqs: readonly number[],
  ): StorageRecord => ({
    type: 'assistant/message',
    seq,
    time: 0,
    data: { turn, step, content, provenance: { provider: 'p', model: 'm' } },
    sourceEventSeqs,
  }),
  retryStarted: (seq: number, turn: number, step: number, retryId = 'retry-1', retry = 1): StorageRecord => ({
    type: 'llm/retry-started',
    seq,
    time: 0,
    data: { retryId, turn, step, retry },
  }),
  other: (seq: number, type: string, data: unknown = {}): StorageRecord => ({ type, seq, time: 0, data }),
  /** A §7 packed row; `dt` defaults to zeros, one fewer than the members. */
  textChunks: (
    seq0: number,
    turn: number,
    step: number,
    index: number,
    texts: readonly string[],
    options: { kind?: 'text-chunks' | 'reasoning-chunks'; time0?: number; dt?: readonly number[] } = {},
  ): StorageRecord => ({
    type: options.kind ?? 'text-chunks',
    seq0,
    time0: options.time0 ?? 1000,
    data: { turn, step, index, dt: options.dt ?? texts.slice(1).map(() => 0), texts },
  }),
  toolCallChunks: (
    seq0: number,
    turn: number,
    step: number,
    index: number,
    id: string,
    args: readonly string[],
    options: { name?: string; time0?: number; dt?: readonly number[] } = {},
  ): StorageRecord => ({
    type: 'tool-call-chunks',
    seq0,
    time0: options.time0 ?? 1000,
    data: {
      turn,
      step,
      index,
      dt: options.dt ?? args.slice(1).map(() => 0),
      id,
      ...(options.name !== undefined ? { name: options.name } : {}),
      args,
    },
  }),
}

/** The text of a JSONL file: one JSON line per record (strings are taken as raw lines), each ending in `\n`. */
export function jsonl(...records: readonly unknown[]): string {
  return records.map((record) => `${typeof record === 'string' ? record : JSON.stringify(record)}\n`).join('')
}

/**
 * Storage records (not packed rows) as the SessionEvents a reader would produce, for core tests that should not
 * depend on a reader. Line numbers count from 2, as if line 1 held the header.
 */
export function sessionEvents(...records: readonly StorageRecord[]): SessionEvent[] {
  return records.map((record, position) => ({
    type: String(record['type']),
    seq: Number(record['seq']),
    time: typeof record['time'] === 'number' ? record['time'] : null,
    data: record['data'],
    line: position + 2,
    ...(Array.isArray(record['sourceEventSeqs'])
      ? { sourceEventSeqs: record['sourceEventSeqs'] as number[] }
      : {}),
  }))
}

/** The records of a step as far as its chunks: `turn/start`, `step/start`, then one `assistant/chunk` each (turn 1). */
export function stepRecords(chunks: readonly unknown[]): StorageRecord[] {
  return [
    event.turnStart(0, 1),
    event.stepStart(1, 1, 1),
    ...chunks.map((value, i) => event.chunk(i + 2, 1, 1, value)),
  ]
}
