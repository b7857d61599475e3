/** The packed rows of a harness session log (docs/protocol.md §7): their validity rules and their members. */
import type { PackedRun } from '../core/columnWriter'
import type { AnyChunk } from '../core/protocol'
import type { PackedRowType, SessionEvent } from '../core/session'
import { isRecord, kindOf } from './json'

/** Where a reader puts the events it decodes: an array, or anything else that takes them one by one. */
export type EventSink = { push(event: SessionEvent): unknown }

const PACKED_DELTA_TYPES = {
  'text-chunks': 'text-delta',
  'reasoning-chunks': 'reasoning-delta',
  'tool-call-chunks': 'tool-call-delta',
} as const satisfies Record<PackedRowType, string>

export function isPackedRowType(type: string): type is PackedRowType {
  return Object.hasOwn(PACKED_DELTA_TYPES, type)
}

/**
 * A packed row that passed every rule: what its members are made of (core's {@link PackedRun}, which the column
 * writer takes) and the delta type its members become. Member k's time is time0 + dt[0..k-1].
 */
export type PackedMembers = PackedRun & {
  readonly deltaType: (typeof PACKED_DELTA_TYPES)[PackedRowType]
}

/**
 * §7 decoding and every validity rule: appends one assistant/chunk per member to `into` and returns null, or
 * returns why the row is malformed and appends nothing. Member k: seq = seq0 + k, time = time0 + dt[0] + … +
 * dt[k-1] (dt may be negative). Every rule is checked before the first member is built.
 */
export function decodePackedRow(
  row: Record<string, unknown>,
  type: PackedRowType,
  line: number,
  into: EventSink,
  /** What {@link checkPackedRow} found of this row, when the caller checked it already. */
  checked: PackedMembers | string = checkPackedRow(row, type),
): string | null {
  const members = checked
  if (typeof members === 'string') return members
  const { seq0, dt, turn, step, payload } = members
  let time = members.time0
  for (let k = 0; k < payload.length; k++) {
    if (k > 0) time += dt[k - 1]!
    const chunk = memberChunk(members, k)
    into.push({
      type: 'assistant/chunk',
      seq: seq0 + k,
      time,
      data: { turn, step, chunk },
      line,
      packed: type,
    })
  }
  return null
}

/** Member k's chunk. Literal objects, not spreads: a 100 MB log decodes millions of members. */
export function memberChunk(members: PackedMembers, k: number): AnyChunk {
  const { deltaType, index } = members
  const member = members.payload[k]!
  if (!members.isToolCall) return { type: deltaType, index, text: member } as AnyChunk
  const { id, name } = members
  return (
    members.hasName
      ? { type: deltaType, index, id, name, argumentsDelta: member }
      : { type: deltaType, index, id, argumentsDelta: member }
  ) as AnyChunk
}

/** The row's members, or why it is malformed: every rule of §7, in the order its messages report them. */
export function checkPackedRow(row: Record<string, unknown>, type: PackedRowType): PackedMembers | string {
  const envelope = exactKeys(row, ['type', 'seq0', 'time0', 'data'], [], 'envelope')
  if (envelope) return envelope
  const { seq0, time0, data } = row
  if (!isSeq(seq0)) return `seq0 is not a non-negative safe integer (got ${JSON.stringify(seq0)})`
  if (!Number.isSafeInteger(time0)) return `time0 is not a safe integer (got ${JSON.stringify(time0)})`
  if (!isRecord(data)) return `data is not an object (got ${kindOf(data)})`
  const isToolCall = type === 'tool-call-chunks'
  const payloadKey = isToolCall ? 'args' : 'texts'
  const dataKeys = exactKeys(
    data,
    isToolCall ? ['turn', 'step', 'index', 'dt', 'id', 'args'] : ['turn', 'step', 'index', 'dt', 'texts'],
    isToolCall ? ['name'] : [],
    'data',
  )
  if (dataKeys) return dataKeys
  const payload = data[payloadKey]
  const dt = data['dt']
  // Every member at once in one loop; only a row it refuses goes through the rules one by one, for the message.
  const fit = membersFit(payload, dt, time0 as number)
  if (!fit) {
    const why = memberProblem(payload, dt, payloadKey)
    if (why !== null) return why
  }
  const members = payload as string[]
  const gaps = dt as number[]
  const { id, name } = data
  if (isToolCall && typeof id !== 'string') return `id is not a string (got ${kindOf(id)})`
  const hasName = isToolCall && 'name' in data
  if (hasName && typeof name !== 'string') return `name is not a string (got ${kindOf(name)})`
  const lastSeq = (seq0 as number) + (members.length - 1)
  if (!Number.isSafeInteger(lastSeq))
    return `seq of member ${members.length - 1} (${lastSeq}) is not a safe integer`

  let time = time0 as number
  // (A row that fits has every member's time checked already.)
  for (let k = 1; k < members.length && !fit; k++) {
    time += gaps[k - 1]!
    if (!Number.isSafeInteger(time)) return `time of member ${k} leaves the safe integer range`
  }
  return {
    seq0: seq0 as number,
    time0: time0 as number,
    dt: gaps,
    turn: data['turn'],
    step: data['step'],
    index: data['index'],
    payload: members,
    deltaType: PACKED_DELTA_TYPES[type],
    isToolCall,
    hasName,
    id,
    name,
  }
}

/**
 * Whether the payload is a non-empty array of strings, `dt` an array of one safe integer fewer, and every member's
 * time a safe integer: the rules {@link memberProblem} checks one by one, in one pass over the members.
 */
function membersFit(payload: unknown, dt: unknown, time0: number): payload is string[] {
  if (!Array.isArray(payload) || !Array.isArray(dt)) return false
  const count = payload.length
  if (count === 0 || dt.length !== count - 1 || typeof payload[0] !== 'string') return false
  let time = time0
  for (let k = 1; k < count; k++) {
    const gap: unknown = dt[k - 1]
    if (typeof payload[k] !== 'string' || !Number.isSafeInteger(gap)) return false
    time += gap as number
    if (!Number.isSafeInteger(time)) return false
  }
  return true
}

/** What is wrong with a packed row's payload and gaps, the first rule broken in §7's order; null when none is. */
function memberProblem(payload: unknown, dt: unknown, payloadKey: string): string | null {
  if (!Array.isArray(payload)) return `${payloadKey} is not an array (got ${kindOf(payload)})`
  if (payload.length === 0) return `${payloadKey} is empty`
  const nonString = payload.findIndex((member) => typeof member !== 'string')
  if (nonString !== -1)
    return `${payloadKey}[${nonString}] is not a string (got ${kindOf(payload[nonString])})`
  if (!Array.isArray(dt)) return `dt is not an array (got ${kindOf(dt)})`
  if (dt.length !== payload.length - 1) {
    return `dt has ${dt.length} entries, expected ${payload.length - 1} (one fewer than the ${payload.length} ${payloadKey})`
  }
  const badGap = dt.findIndex((gap) => !Number.isSafeInteger(gap))
  if (badGap !== -1) return `dt[${badGap}] is not a safe integer (got ${JSON.stringify(dt[badGap])})`
  return null
}

/** Null when the object's keys are exactly `required` plus any of `optional`, else what is wrong. */
function exactKeys(
  value: Record<string, unknown>,
  required: readonly string[],
  optional: readonly string[],
  what: string,
): string | null {
  const missing = required.filter((key) => !Object.hasOwn(value, key))
  if (missing.length > 0) return `${what} lacks ${missing.map((key) => `"${key}"`).join(', ')}`
  const extra = Object.keys(value).filter((key) => !required.includes(key) && !optional.includes(key))
  if (extra.length > 0) {
    const allowed = [...required, ...optional.map((key) => `${key}?`)].join(', ')
    return `${what} has unexpected ${extra.map((key) => `"${key}"`).join(', ')} (allowed: ${allowed})`
  }
  return null
}

export function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}
