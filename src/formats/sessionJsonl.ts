import type { AnyChunk } from '../core/protocol'
import type { PackedRowType, SessionEvent, SessionHeader } from '../core/session'
import { chunkProblem } from './chunkShape'
import {
  eachLine,
  isBlank,
  kindOf,
  parseJson,
  parseJsonUnless,
  preview,
  type ProgressHook,
  type TextLine,
} from './json'
import {
  checkPackedRow,
  decodePackedRow,
  isPackedRowType,
  isSeq,
  memberChunk,
  type EventSink,
  type PackedMembers,
} from './packedRow'
import type { Diagnostic } from './types'
import { isRecord } from '../core/base/isRecord'

/**
 * Where the committed prefix of the log ends (docs/protocol.md §7). A bad line or a seq gap ends it; when a later line
 * holds a `turn/end` the damage is in committed data (`corrupt`), otherwise it is a crash boundary.
 */
export type CommittedPrefix = {
  readonly damage: 'none' | 'crash-boundary' | 'corrupt'
  /** Events read before the first bad line or gap (all of them when nothing broke). */
  readonly events: number
  /** The line of the first bad line or gap. */
  readonly line?: number
}

export type SessionJsonlRead = {
  readonly header: SessionHeader | null
  readonly events: SessionEvent[]
  readonly diagnostics: Diagnostic[]
  readonly committed: CommittedPrefix
}

/**
 * Reads a DeepSeek Harness `session.jsonl` (§6, §7): the header, every event, and every packed row decoded into
 * one `assistant/chunk` per member. Lenient and total: it never throws, reports what it skips with its line, and
 * keeps reading past damage so the UI shows everything readable. One pass; each line is sliced once and parsed once.
 *
 * @example
 * const { header, events, diagnostics } = readSessionJsonl(text)
 * // diagnostics: [{ line: 12, severity: 'error', message: 'line 12: malformed text-chunks row: dt has 3 entries, expected 4' }]
 */
export function readSessionJsonl(text: string, onProgress?: ProgressHook): SessionJsonlRead {
  const reader = new SessionJsonlReader()
  eachLine(text, (line, number, terminated) => reader.read({ number, text: line, terminated }), onProgress)
  return reader.result()
}

export { decodePackedRow, type EventSink }

/**
 * Where a {@link SessionJsonlReader} hands its events as it reads them, in file order: `event` gets every event
 * but a packed row's members, which go to `member` as the fields their events would hold (§7), unbuilt.
 */
export type EventHandOver = {
  event(event: SessionEvent): void
  /** `line` and `packed`: the event's own fields (its row's line and type). */
  member(
    seq: number,
    time: number,
    turn: unknown,
    step: unknown,
    chunk: AnyChunk,
    line: number,
    packed: PackedRowType,
  ): void
  /** When given, a packed row's members come here all at once, as the row's checked fields, instead of to `member`. */
  members?(members: PackedMembers, line: number, packed: PackedRowType): void
}

/**
 * The reader behind {@link readSessionJsonl}, usable record by record: a live capture (src/app/live/liveHub.ts) feeds
 * each record as it arrives (`readRecord`, no JSON text in between) and reads the state so far (`soFar`) after each
 * batch, instead of re-reading the whole log.
 *
 * With a `handOver`, every event goes to it as it is read, in file order (a packed row's members unbuilt), and the
 * reader keeps only the events that are no `assistant/chunk`: `chunkscope inspect` segments the chunks straight
 * into their streams, so a 100 MB log's millions of chunk events are never built or all alive at once. Counts and
 * diagnostics are the same either way.
 */
export class SessionJsonlReader {
  private header: SessionHeader | null = null
  private readonly events: SessionEvent[] = []
  /** Events handed over so far (with `handOver`). */
  private handed = 0
  private readonly sink: EventSink
  private readonly diagnostics: Diagnostic[] = []
  private sawRecord = false
  private expectedSeq = 0
  private damage: { line: number; events: number; what: string } | null = null
  private lastTurnEndLine = 0

  constructor(private readonly handOver?: EventHandOver) {
    this.sink = handOver === undefined ? this.events : { push: (event) => this.pass(handOver, event) }
  }

  private pass(handOver: EventHandOver, event: SessionEvent): void {
    this.handed += 1
    handOver.event(event)
    if (event.type !== 'assistant/chunk') this.events.push(event)
  }

  /** Events read so far, kept or handed over. */
  private get count(): number {
    return this.handOver === undefined ? this.events.length : this.handed
  }

  read(line: TextLine): void {
    if (isBlank(line.text)) return
    if (!line.terminated) {
      this.tornTail(line)
      return
    }
    this.take(
      parseJsonUnless(line.text, (value) => this.shallowRow(value) || fewLevels(value)),
      line.number,
    )
  }

  /** The last packed row checked while parsing, and what the check found (the row is not checked twice). */
  private checked: { row: unknown; members: PackedMembers | string } | null = null

  /**
   * Whether a parsed line is a packed row that passes every rule of §7 with numbers or strings for its turn, step
   * and index: then it nests three levels, and its line need not be scanned for depth.
   */
  private shallowRow(value: unknown): boolean {
    if (!isRecord(value)) return false
    const type = value['type']
    if (typeof type !== 'string' || !isPackedRowType(type)) return false
    const members = checkPackedRow(value, type)
    this.checked = { row: value, members }
    return (
      typeof members !== 'string' && isFlat(members.turn) && isFlat(members.step) && isFlat(members.index)
    )
  }

  /** checkPackedRow of the row, found again when it is the one {@link shallowRow} checked. */
  private check(row: Record<string, unknown>, type: PackedRowType): PackedMembers | string {
    const checked = this.checked
    this.checked = null
    return checked !== null && checked.row === row ? checked.members : checkPackedRow(row, type)
  }

  /** One record already parsed (a live feed's), as if read from line `line` of the log. */
  readRecord(value: unknown, line: number): void {
    this.take({ ok: true, value }, line)
  }

  /** The header, a copy of the events and the diagnostics so far (no committed-prefix summary: the log goes on). */
  soFar(): { header: SessionHeader | null; events: SessionEvent[]; diagnostics: Diagnostic[] } {
    return { header: this.header, events: this.events.slice(), diagnostics: this.diagnostics.slice() }
  }

  private take(parsed: ReturnType<typeof parseJson>, lineNumber: number): void {
    const line = { number: lineNumber }
    if (!this.sawRecord) {
      this.sawRecord = true
      if (parsed.ok && isRecord(parsed.value) && parsed.value['type'] === 'session') {
        this.header = readHeader(parsed.value, line.number, this.diagnostics)
        return
      }
      this.report(
        line.number,
        'warning',
        `no session header (expected {"type":"session",…} on the first line, docs/protocol.md §6); reading the lines as events`,
      )
    }
    if (!parsed.ok)
      return this.badLine(line.number, parsed.deep ? parsed.reason : `malformed JSON: ${parsed.reason}`)
    const record = parsed.value
    if (!isRecord(record)) return this.badLine(line.number, `not a JSON object (got ${kindOf(record)})`)
    const type = record['type']
    if (typeof type !== 'string') return this.badLine(line.number, `record has no string "type"`)
    if (type === 'session')
      return this.badLine(line.number, 'a second session header (it belongs on line 1 only)')
    if (isPackedRowType(type)) return this.packedRow(record, type, line.number)
    this.event(record, type, line.number)
  }

  private event(record: Record<string, unknown>, type: string, line: number): void {
    const seq = record['seq']
    if (!isSeq(seq))
      return this.badLine(line, `${type} event has no valid "seq" (got ${JSON.stringify(seq)})`)
    this.checkSeq(seq, 1, line)
    const time = record['time']
    const surfaceOp = record['surfaceOp']
    const sources = record['sourceEventSeqs']
    const sourceEventSeqs = Array.isArray(sources) && sources.every(isSeq) ? (sources as number[]) : undefined
    if (sources !== undefined && sourceEventSeqs === undefined) {
      this.report(line, 'warning', `${type} seq ${seq}: sourceEventSeqs is not an array of seqs; ignored`)
    }
    const data = record['data']
    this.sink.push({
      type,
      seq,
      time: typeof time === 'number' ? time : null,
      data,
      line,
      ...(sourceEventSeqs !== undefined ? { sourceEventSeqs } : {}),
      ...(surfaceOp !== undefined ? { surfaceOp } : {}),
    })
    if (type === 'turn/end') this.lastTurnEndLine = line
    if (type === 'assistant/chunk') {
      const problem = chunkProblem(isRecord(data) ? data['chunk'] : undefined)
      if (problem) this.report(line, 'warning', `assistant/chunk seq ${seq}: chunk ${problem.reason}`)
    }
  }

  /** §7: a packed row decodes to one assistant/chunk per member, or is skipped whole as malformed. */
  private packedRow(row: Record<string, unknown>, type: PackedRowType, line: number): void {
    const first = this.count
    const malformed =
      this.handOver === undefined
        ? decodePackedRow(row, type, line, this.sink, this.check(row, type))
        : this.handMembers(row, type, line)
    if (malformed !== null) return this.badLine(line, `malformed ${type} row: ${malformed}`)
    this.checkSeq(row['seq0'] as number, this.count - first, line, first)
  }

  /** decodePackedRow for a hand-over: the members go out without an event object each. */
  private handMembers(row: Record<string, unknown>, type: PackedRowType, line: number): string | null {
    const members = this.check(row, type)
    if (typeof members === 'string') return members
    const { seq0, dt, turn, step, payload } = members
    this.handed += payload.length
    const handOver = this.handOver!
    if (handOver.members !== undefined) {
      handOver.members(members, line, type)
      return null
    }
    let time = members.time0
    for (let k = 0; k < payload.length; k++) {
      if (k > 0) time += dt[k - 1]!
      handOver.member(seq0 + k, time, turn, step, memberChunk(members, k), line, type)
    }
    return null
  }

  /** `before`: how many events precede this line's (the committed prefix, if the line breaks it). */
  private checkSeq(seq: number, count: number, line: number, before = this.count): void {
    // §6: after decoding, seq runs 0, 1, 2… without gaps.
    if (seq > this.expectedSeq) {
      this.report(line, 'warning', `seq gap: expected ${this.expectedSeq}, got ${seq}`)
      this.markDamage(line, 'a seq gap', before)
    } else if (seq < this.expectedSeq) {
      this.report(line, 'error', `seq out of order: expected ${this.expectedSeq}, got ${seq}`)
      this.markDamage(line, 'a seq out of order', before)
    }
    this.expectedSeq = Math.max(this.expectedSeq, seq + count)
  }

  private badLine(line: number, reason: string): void {
    this.report(line, 'error', `${reason}; line skipped`)
    this.markDamage(line, 'a bad line')
  }

  private markDamage(line: number, what: string, before = this.count): void {
    this.damage ??= { line, events: before, what }
  }

  /** §7: a final line without `\n` is a torn tail, even when it happens to parse: the write never completed. */
  private tornTail(line: TextLine): void {
    const complete = parseJson(line.text).ok
    this.report(
      line.number,
      'warning',
      complete
        ? `torn tail: the final line has no trailing newline; dropped although it parses as complete JSON, because a line counts only once its \\n is written (docs/protocol.md §7)`
        : `torn tail: the final line has no trailing newline and is incomplete (${line.text.length} characters, starts ${preview(line.text)}); dropped`,
    )
  }

  private report(line: number, severity: Diagnostic['severity'], message: string): void {
    this.diagnostics.push({ line, severity, message: `line ${line}: ${message}` })
  }

  result(): SessionJsonlRead {
    const { header, events, diagnostics, damage, count } = this
    if (damage === null) return { header, events, diagnostics, committed: { damage: 'none', events: count } }
    const after = count - damage.events
    if (this.lastTurnEndLine > damage.line) {
      this.report(
        damage.line,
        'error',
        `corrupt committed data: the log breaks here (${damage.what}) but a turn/end follows on line ${this.lastTurnEndLine}; ` +
          `the ${after} events read after the break are shown anyway`,
      )
      return {
        header,
        events,
        diagnostics,
        committed: { damage: 'corrupt', events: damage.events, line: damage.line },
      }
    }
    this.report(
      damage.line,
      'warning',
      `crash boundary: the log breaks here (${damage.what}) and no turn/end follows; the committed prefix holds ` +
        `${damage.events} events, the ${after} read after it are shown anyway`,
    )
    return {
      header,
      events,
      diagnostics,
      committed: { damage: 'crash-boundary', events: damage.events, line: damage.line },
    }
  }
}

/** §6 header fields, kept when of the right type; a wrong type is reported and left out. */
function readHeader(raw: Record<string, unknown>, line: number, diagnostics: Diagnostic[]): SessionHeader {
  const warn = (message: string) =>
    diagnostics.push({ line, severity: 'warning', message: `line ${line}: session header: ${message}` })
  const pick = <T>(key: string, check: (value: unknown) => value is T, required: boolean): T | undefined => {
    const value = raw[key]
    if (check(value)) return value
    if (value !== undefined || required)
      warn(`"${key}" is ${value === undefined ? 'missing' : `a ${kindOf(value)}`}`)
    return undefined
  }
  const version = pick('version', isNumber, true) ?? null
  if (version !== null && version !== 0) {
    diagnostics.push({
      line,
      severity: 'info',
      message: `line ${line}: session header: version ${version}; this reader knows version 0 (docs/protocol.md §6) and reads on`,
    })
  }
  const header: { -readonly [K in keyof SessionHeader]: SessionHeader[K] } = {
    type: 'session',
    version,
    id: pick('id', isString, true) ?? null,
    // null = unknown, said plainly by a synthesised header (`chunkscope attach`: the live socket carries none).
    createdAt: raw['createdAt'] === null ? null : (pick('createdAt', isNumber, true) ?? null),
    raw,
  }
  const cwd = pick('cwd', isString, false)
  const parentSession = pick('parentSession', isString, false)
  const origin = pick('origin', isString, false)
  const delegationDepth = pick('delegationDepth', isNumber, false)
  const agentPreset = raw['agentPreset']
  if (cwd !== undefined) header.cwd = cwd
  if (parentSession !== undefined) header.parentSession = parentSession
  if (origin !== undefined) header.origin = origin
  if (delegationDepth !== undefined) header.delegationDepth = delegationDepth
  if (agentPreset !== undefined) header.agentPreset = agentPreset
  return header
}

function isString(value: unknown): value is string {
  return typeof value === 'string'
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number'
}

/** A JSON value that holds no array or object. */
function isFlat(value: unknown): boolean {
  return typeof value !== 'object' || value === null
}

/**
 * Whether a value nests at most {@link FEW_LEVELS} arrays and objects, found by visiting at most {@link FEW_NODES}
 * of them (false when it would take more): a long line of one chunk event (a block-end holding its block's text)
 * need not be scanned for depth then.
 */
function fewLevels(value: unknown): boolean {
  const stack: unknown[] = [value]
  const depths: number[] = [1]
  for (let seen = 1; stack.length > 0;) {
    const item = stack.pop()
    const depth = depths.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth > FEW_LEVELS || (Array.isArray(item) && item.length > FEW_NODES)) return false
    for (const child of Object.values(item)) {
      if (++seen > FEW_NODES) return false
      stack.push(child)
      depths.push(depth + 1)
    }
  }
  return true
}

const FEW_LEVELS = 8
const FEW_NODES = 64
