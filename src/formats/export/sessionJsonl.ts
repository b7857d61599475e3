import type { SourcedChunk } from '../../core/protocol'
import type { PackedRowType, SessionEvent, SessionHeader } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'

/** One JSONL record as a plain object: the header, an event, or a packed row (docs/protocol.md §6, §7). */
export type SessionRecord = Record<string, unknown>

/** What a harness log holds: the header line and the decoded events, in seq order. */
export type SessionLog = { readonly header: SessionHeader | null; readonly events: readonly SessionEvent[] }

/** Runs shorter than this stay plain `assistant/chunk` events (§7: packed rows hold runs of ≥ 3 deltas). */
export const MIN_PACKED_RUN = 3

const ROW_TYPE = {
  'text-delta': 'text-chunks',
  'reasoning-delta': 'reasoning-chunks',
  'tool-call-delta': 'tool-call-chunks',
} as const satisfies Record<string, PackedRowType>

/**
 * A harness session log in the canonical packed layout (§7), as the harness writes it: the header on line 1, then
 * every event in order, except that each maximal run of ≥ 3 consecutive delta events of one kind, turn, step and
 * index (and, for tool calls, one id and one name-or-none), with consecutive seqs, becomes one packed row.
 * Reading the text back with `loadSource` gives the same events (seq, time, data, sourceEventSeqs, surfaceOp).
 *
 * An event is packed only when nothing would be lost: no sourceEventSeqs or surfaceOp, an integer time, data with
 * exactly turn, step and chunk, and a chunk with exactly the fields a member decodes to. Anything else stays plain.
 *
 * @example
 * toSessionJsonl({ header, events }) // '{"type":"session",…}\n{"type":"turn/start",…}\n{"type":"text-chunks",…}\n'
 */
export function toSessionJsonl(log: SessionLog): string {
  let out = ''
  for (const record of toSessionRecords(log)) out += JSON.stringify(record) + '\n'
  return out
}

/** The records of {@link toSessionJsonl}, as objects (the share payload carries them this way). */
export function toSessionRecords(log: SessionLog): SessionRecord[] {
  const records: SessionRecord[] = []
  if (log.header !== null) records.push({ ...log.header.raw })
  const { events } = log
  let i = 0
  while (i < events.length) {
    const key = packKey(events[i]!)
    let end = i + 1
    if (key !== null) {
      while (end < events.length && events[end]!.seq === events[end - 1]!.seq + 1) {
        if (
          packKey(events[end]!) !== key ||
          !Number.isSafeInteger(timeOf(events, end) - timeOf(events, end - 1))
        )
          break
        end += 1
      }
    }
    if (key !== null && end - i >= MIN_PACKED_RUN) {
      records.push(packedRow(events, i, end))
      i = end
    } else {
      for (; i < end; i++) records.push(eventRecord(events[i]!))
    }
  }
  return records
}

/** A bare chunk stream as a minimal harness log: one turn, one step, the chunks as `assistant/chunk` events. */
export function streamAsSessionLog(chunks: readonly SourcedChunk[], id = 'chunkscope-export'): SessionLog {
  const firstTime = chunks.find((sourced) => sourced.time !== null)?.time ?? 0
  let time = firstTime
  const events: SessionEvent[] = []
  const add = (type: string, data: unknown) =>
    events.push({ type, seq: events.length, time, data, line: events.length + 2 })
  add('turn/start', { turn: 1 })
  add('step/start', { turn: 1, step: 1 })
  for (const sourced of chunks) {
    time = Number.isSafeInteger(sourced.time) ? (sourced.time as number) : time
    add('assistant/chunk', { turn: 1, step: 1, chunk: sourced.chunk })
  }
  add('step/end', { turn: 1, step: 1 })
  add('turn/end', { turn: 1, reason: { kind: 'completed' } })
  const raw = { type: 'session', version: 0, id, createdAt: firstTime, delegationDepth: 0 }
  return { header: { type: 'session', version: 0, id, createdAt: firstTime, raw }, events }
}

function eventRecord(event: SessionEvent): SessionRecord {
  const record: SessionRecord = { type: event.type, seq: event.seq }
  if (event.time !== null) record['time'] = event.time
  record['data'] = event.data
  if (event.sourceEventSeqs !== undefined) record['sourceEventSeqs'] = event.sourceEventSeqs
  if (event.surfaceOp !== undefined) record['surfaceOp'] = event.surfaceOp
  return record
}

function timeOf(events: readonly SessionEvent[], i: number): number {
  return events[i]!.time as number
}

/** A string equal for events that may share a packed row, or null when the event cannot be packed. */
function packKey(event: SessionEvent): string | null {
  if (event.type !== 'assistant/chunk') return null
  if (event.sourceEventSeqs !== undefined || event.surfaceOp !== undefined) return null
  if (!Number.isSafeInteger(event.time) || !Number.isSafeInteger(event.seq) || event.seq < 0) return null
  const data = event.data
  if (!isRecord(data) || !hasExactly(data, ['turn', 'step', 'chunk'])) return null
  const { turn, step, chunk } = data
  if (!isPrimitive(turn) || !isPrimitive(step) || !isRecord(chunk)) return null
  const { type, index } = chunk
  if (!isPrimitive(index)) return null
  if (type === 'text-delta' || type === 'reasoning-delta') {
    if (!hasExactly(chunk, ['type', 'index', 'text']) || typeof chunk['text'] !== 'string') return null
    return JSON.stringify([type, turn, step, index])
  }
  if (type === 'tool-call-delta') {
    const named = Object.hasOwn(chunk, 'name')
    const keys = named
      ? ['type', 'index', 'id', 'name', 'argumentsDelta']
      : ['type', 'index', 'id', 'argumentsDelta']
    if (!hasExactly(chunk, keys) || typeof chunk['id'] !== 'string') return null
    if (typeof chunk['argumentsDelta'] !== 'string' || (named && typeof chunk['name'] !== 'string'))
      return null
    return JSON.stringify([type, turn, step, index, chunk['id'], named ? chunk['name'] : null, named])
  }
  return null
}

/** §7 row for events[from, to), all of which share a pack key. */
function packedRow(events: readonly SessionEvent[], from: number, to: number): SessionRecord {
  const first = events[from]!
  const { turn, step, chunk } = first.data as { turn: unknown; step: unknown; chunk: Record<string, unknown> }
  const type = chunk['type'] as keyof typeof ROW_TYPE
  const dt: number[] = []
  const payload: string[] = []
  for (let i = from; i < to; i++) {
    if (i > from) dt.push(timeOf(events, i) - timeOf(events, i - 1))
    const member = (events[i]!.data as { chunk: Record<string, unknown> }).chunk
    payload.push((type === 'tool-call-delta' ? member['argumentsDelta'] : member['text']) as string)
  }
  const data: Record<string, unknown> =
    type === 'tool-call-delta'
      ? {
          turn,
          step,
          index: chunk['index'],
          dt,
          id: chunk['id'],
          ...(Object.hasOwn(chunk, 'name') ? { name: chunk['name'] } : {}),
          args: payload,
        }
      : { turn, step, index: chunk['index'], dt, texts: payload }
  return { type: ROW_TYPE[type], seq0: first.seq, time0: first.time, data }
}

function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value)
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key))
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}
