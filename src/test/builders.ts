/**
 * Builders with defaults for tests: harness storage records (docs/protocol.md §6, §7) and content blocks. `event.*`
 * builds the records as they stand in a `session.jsonl`; `jsonl(...)` turns them into the file's text. Chunks
 * come from ./chunks.ts (`bs`, `td`, `rd`, `tcd`, `be`, `usage`, `finish`): the one chunk vocabulary.
 */
import type { ContentBlock } from '../core/protocol'
import type { SessionEvent } from '../core/session'
import { block } from '../examples/chunks'

export { block }

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
