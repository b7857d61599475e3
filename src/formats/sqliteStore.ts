import type { Database, SqlJsStatic, SqlValue } from 'sql.js'
import {
  buildSession,
  type PackedRowType,
  type Session,
  type SessionEvent,
  type SessionHeader,
} from '../core/session'
import { chunkProblem } from './chunkShape'
import { isRecord, parseJson } from './json'
import { citationDiagnostics } from './load'
import { decodePackedRow } from './sessionJsonl'
import type { Diagnostic } from './types'
import { decodeUtf8 } from './utf8'
import { decompressZstdFrame, isZstd } from './zstdFrames'

/**
 * The harness's SQLite session store (PROTOCOL.md §8): `sessions` rows become headers, `events` rows become events
 * exactly as the JSONL reader makes them (packed `*-chunks` rows through the same decodePackedRow). sql.js is handed
 * in by the caller, which knows where its WebAssembly file lives (Vite URL in the browser, a path in Node).
 */

export const DSH_SQLITE_APPLICATION_ID = 0x44534850
export const DSH_SQLITE_SCHEMA_VERSION = 17

const SQLITE_MAGIC = 'SQLite format 3\0'

export function isSqlite(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false
  for (let i = 0; i < 16; i++) if (bytes[i] !== SQLITE_MAGIC.charCodeAt(i)) return false
  return true
}

export type SqliteStoreRead = {
  readonly sessions: Session[]
  readonly diagnostics: Diagnostic[]
  /** False when the file is a SQLite database but not a session store (no sessions and events tables). */
  readonly recognised: boolean
}

/**
 * Every session of the store, parents before their children (roots by creation time, each followed by its
 * subagents). Lenient: a bad row is reported with its session and seq and skipped; never throws for bad input.
 */
export async function readSqliteStore(bytes: Uint8Array, sql: SqlJsStatic): Promise<SqliteStoreRead> {
  const diagnostics: Diagnostic[] = []
  if (bytes[18] === 2 || bytes[19] === 2) {
    // Header bytes 18–19 (file format write/read version) are 2 in WAL mode, the harness's default journal mode.
    diagnostics.push({
      severity: 'info',
      message:
        'sqlite: the store is in WAL mode: rows written since its last checkpoint live in the -wal file beside it ' +
        'and are not in this file (open the store after the harness has closed it to see them)',
    })
  }
  let db: Database
  try {
    db = new sql.Database(bytes)
  } catch (error) {
    diagnostics.push({ severity: 'error', message: `sqlite: cannot open the database (${reason(error)})` })
    return { sessions: [], diagnostics, recognised: false }
  }
  try {
    return await readStore(db, diagnostics)
  } catch (error) {
    // sql.js throws for a damaged file (`database disk image is malformed`) on first read.
    diagnostics.push({ severity: 'error', message: `sqlite: cannot read the database (${reason(error)})` })
    return { sessions: [], diagnostics, recognised: false }
  } finally {
    db.close()
  }
}

async function readStore(db: Database, diagnostics: Diagnostic[]): Promise<SqliteStoreRead> {
  const applicationId = pragma(db, 'application_id')
  const userVersion = pragma(db, 'user_version')
  const tables = new Set(
    rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => String(row[0])),
  )
  if (!tables.has('events') || !tables.has('sessions')) {
    const found = [...tables].join(', ') || 'none'
    diagnostics.push({
      severity: 'error',
      message: `sqlite: not a DeepSeek Harness session store: application_id ${hex(applicationId)} (expected ${hex(DSH_SQLITE_APPLICATION_ID)}), no sessions/events tables (tables: ${found})`,
    })
    return { sessions: [], diagnostics, recognised: false }
  }
  if (applicationId !== DSH_SQLITE_APPLICATION_ID) {
    diagnostics.push({
      severity: 'warning',
      message: `sqlite: application_id is ${hex(applicationId)}, expected ${hex(DSH_SQLITE_APPLICATION_ID)} (DeepSeek Harness); it has sessions and events tables, so reading on`,
    })
  }
  if (userVersion !== DSH_SQLITE_SCHEMA_VERSION) {
    diagnostics.push({
      severity: 'warning',
      message: `sqlite: schema version (user_version) ${userVersion}; this reader knows ${DSH_SQLITE_SCHEMA_VERSION} (PROTOCOL.md §8) and reads on`,
    })
  }
  const headers = readHeaders(db, diagnostics)
  const orphans = rows(
    db,
    'SELECT DISTINCT session_id FROM events WHERE session_id NOT IN (SELECT id FROM sessions)',
  )
  for (const [id] of orphans) {
    diagnostics.push({
      severity: 'warning',
      message: `sqlite: events of session ${String(id)} have no sessions row; read without a header`,
    })
    headers.push({ id: String(id), header: null, parent: null, createdAt: Infinity })
  }
  const sessions: Session[] = []
  for (const { id, header } of treeOrder(headers)) {
    const events = await readEvents(db, id, diagnostics)
    const session = buildSession(header, events)
    // No `line`: the message names the session and the row's line in its JSONL form, which a store has not.
    for (const { line: _line, ...found } of citationDiagnostics(session))
      diagnostics.push({ ...found, message: `session ${id}: ${found.message}` })
    sessions.push(session)
  }
  if (sessions.length === 0)
    diagnostics.push({ severity: 'error', message: 'sqlite: the store holds no sessions' })
  return { sessions, diagnostics, recognised: true }
}

type StoredHeader = { id: string; header: SessionHeader | null; parent: string | null; createdAt: number }

/** `sessions` rows as §6 headers; `NULL` columns are left out, as the harness's own rowToMeta does. */
function readHeaders(db: Database, diagnostics: Diagnostic[]): StoredHeader[] {
  const stmt = db.prepare('SELECT * FROM sessions')
  const found: StoredHeader[] = []
  try {
    while (stmt.step()) {
      const row = stmt.getAsObject()
      const id = String(row['id'])
      const raw: Record<string, unknown> = { type: 'session' }
      const put = (key: string, value: unknown) => {
        if (value !== null && value !== undefined) raw[key] = value
      }
      put('version', row['version'])
      put('id', row['id'])
      put('createdAt', row['created_at'])
      put('cwd', row['cwd'])
      put('parentSession', row['parent_session'])
      put('seedLength', row['seed_length'])
      put('origin', row['origin'])
      put('delegationDepth', row['delegation_depth'])
      const preset = row['agent_preset']
      if (typeof preset === 'string') {
        const parsed = parseJson(preset)
        put('agentPreset', parsed.ok ? parsed.value : preset)
      }
      const header: { -readonly [K in keyof SessionHeader]: SessionHeader[K] } = {
        type: 'session',
        version: typeof raw['version'] === 'number' ? raw['version'] : null,
        id,
        createdAt: typeof raw['createdAt'] === 'number' ? raw['createdAt'] : null,
        raw,
      }
      if (typeof raw['cwd'] === 'string') header.cwd = raw['cwd']
      if (typeof raw['parentSession'] === 'string') header.parentSession = raw['parentSession']
      if (typeof raw['origin'] === 'string') header.origin = raw['origin']
      if (typeof raw['delegationDepth'] === 'number') header.delegationDepth = raw['delegationDepth']
      if (raw['agentPreset'] !== undefined) header.agentPreset = raw['agentPreset']
      if (header.version !== null && header.version !== 0) {
        diagnostics.push({
          severity: 'info',
          message: `session ${id}: version ${header.version}; this reader knows version 0 (PROTOCOL.md §6) and reads on`,
        })
      }
      found.push({
        id,
        header,
        parent: header.parentSession ?? null,
        createdAt: header.createdAt ?? Infinity,
      })
    }
  } finally {
    stmt.free()
  }
  return found
}

/** Roots (no parent in the store) by creation time, each followed by its descendants, depth first. */
function treeOrder(headers: StoredHeader[]): StoredHeader[] {
  const byTime = [...headers].sort(
    (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )
  const ids = new Set(byTime.map((h) => h.id))
  const children = new Map<string, StoredHeader[]>()
  for (const h of byTime) {
    if (h.parent !== null && ids.has(h.parent) && h.parent !== h.id) {
      const list = children.get(h.parent) ?? []
      list.push(h)
      children.set(h.parent, list)
    }
  }
  const ordered: StoredHeader[] = []
  const placed = new Set<string>()
  const visit = (h: StoredHeader) => {
    if (placed.has(h.id)) return
    placed.add(h.id)
    ordered.push(h)
    for (const child of children.get(h.id) ?? []) visit(child)
  }
  for (const h of byTime) if (h.parent === null || !ids.has(h.parent) || h.parent === h.id) visit(h)
  for (const h of byTime) visit(h) // a parent cycle: nothing is left out
  return ordered
}

/**
 * One session's rows in seq order as §6 events. `line` is the row's position counting the header as line 1, so it
 * equals the line the same record has in the session's JSONL form.
 */
async function readEvents(
  db: Database,
  sessionId: string,
  diagnostics: Diagnostic[],
): Promise<SessionEvent[]> {
  const events: SessionEvent[] = []
  const stmt = db.prepare(
    'SELECT seq, type, time, data, source_event_seqs, surface_op FROM events WHERE session_id = ? ORDER BY seq',
  )
  let line = 1
  let expected = 0
  const report = (severity: Diagnostic['severity'], seq: unknown, type: unknown, message: string) =>
    diagnostics.push({
      severity,
      message: `session ${sessionId}: seq ${String(seq)} (${String(type)}): ${message}`,
    })
  try {
    stmt.bind([sessionId])
    while (stmt.step()) {
      line += 1
      const [seq, type, time, rawData = null, rawSources = null, rawSurface = null] = stmt.get()
      if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || typeof type !== 'string') {
        report('error', seq, type, 'row has no valid seq or type; skipped')
        continue
      }
      const data = await readData(rawData)
      if (!data.ok) {
        report('error', seq, type, `data ${data.reason}; row skipped`)
        continue
      }
      if (seq > expected) report('warning', seq, type, `seq gap: expected ${expected}, got ${seq}`)
      if (type === 'text-chunks' || type === 'reasoning-chunks' || type === 'tool-call-chunks') {
        const row = { type, seq0: seq, time0: time, data: data.value }
        const before = events.length
        const malformed = decodePackedRow(row, type as PackedRowType, line, events)
        if (malformed !== null) report('error', seq, type, `malformed ${type} row: ${malformed}; row skipped`)
        expected = Math.max(expected, seq + (events.length - before))
        continue
      }
      expected = Math.max(expected, seq + 1)
      const sourceEventSeqs = rawSources === null ? undefined : readSourceEventSeqs(rawSources)
      if (typeof sourceEventSeqs === 'string')
        report('warning', seq, type, `source_event_seqs ${sourceEventSeqs}; ignored`)
      const surfaceOp = rawSurface === null ? undefined : readSurfaceOp(rawSurface)
      events.push({
        type,
        seq,
        time: typeof time === 'number' ? time : null,
        data: data.value,
        line,
        ...(Array.isArray(sourceEventSeqs) ? { sourceEventSeqs } : {}),
        ...(surfaceOp !== undefined ? { surfaceOp } : {}),
      })
      if (type === 'assistant/chunk') {
        const problem = chunkProblem(isRecord(data.value) ? data.value['chunk'] : undefined)
        if (problem) report('warning', seq, type, `chunk ${problem.reason}`)
      }
    }
  } finally {
    stmt.free()
  }
  return events
}

type Read<T> = { ok: true; value: T } | { ok: false; reason: string }

/** `data`: JSON text, or a zstd frame of JSON text (payloads ≥ 4 KiB that compress smaller). */
async function readData(raw: SqlValue): Promise<Read<unknown>> {
  let text: string
  if (typeof raw === 'string') text = raw
  else if (raw instanceof Uint8Array) {
    if (!isZstd(raw))
      return { ok: false, reason: `is a ${raw.length}-byte BLOB that is not a Zstandard frame` }
    try {
      const { content, problem } = await decompressZstdFrame(raw)
      if (problem !== null) return { ok: false, reason: `zstd BLOB: ${problem}` }
      const decoded = decodeUtf8(content)
      if (decoded.invalidAt !== -1)
        return { ok: false, reason: `zstd BLOB: invalid UTF-8 at byte ${decoded.invalidAt}` }
      text = decoded.text
    } catch (error) {
      return { ok: false, reason: `zstd BLOB cannot be decompressed (${reason(error)})` }
    }
  } else
    return {
      ok: false,
      reason: `is ${raw === null ? 'NULL' : `a ${typeof raw}`}, expected JSON text or a zstd BLOB`,
    }
  const parsed = parseJson(text)
  return parsed.ok
    ? { ok: true, value: parsed.value }
    : { ok: false, reason: `is not JSON (${parsed.reason})` }
}

/**
 * `source_event_seqs`: a BLOB of the first seq as unsigned LEB128, then each next one as a zigzag-LEB128 delta
 * (schema 17); older stores kept a JSON array as text. Returns the seqs, or why they cannot be read.
 *
 * @example
 * readSourceEventSeqs(new Uint8Array([5, 2, 2])) // [5, 6, 7]
 */
export function readSourceEventSeqs(raw: SqlValue): number[] | string {
  if (typeof raw === 'string') {
    const parsed = parseJson(raw)
    if (parsed.ok && Array.isArray(parsed.value) && parsed.value.every(isSeq)) return parsed.value as number[]
    return 'is text but not a JSON array of seqs'
  }
  if (!(raw instanceof Uint8Array)) return `is a ${typeof raw}, expected a BLOB`
  const seqs: number[] = []
  let at = 0
  let previous = 0
  while (at < raw.length) {
    let value = 0
    let scale = 1
    let byte: number
    do {
      if (at >= raw.length) return `is cut inside a varint (after ${seqs.length} seqs)`
      byte = raw[at++]!
      value += (byte & 0x7f) * scale
      scale *= 128
      if (scale > 2 ** 63) return `holds a varint longer than 9 bytes (after ${seqs.length} seqs)`
    } while (byte & 0x80)
    const next = seqs.length === 0 ? value : previous + (value % 2 === 0 ? value / 2 : -(value + 1) / 2)
    if (!isSeq(next)) return `decodes to ${next}, not a seq (entry ${seqs.length + 1})`
    seqs.push(next)
    previous = next
  }
  return seqs
}

/** `surface_op`: JSON text (`"append"` or `{"op":"replace",…}`); a bare word is kept as the string it is. */
function readSurfaceOp(raw: SqlValue): unknown {
  if (typeof raw !== 'string') return raw
  const parsed = parseJson(raw)
  return parsed.ok ? parsed.value : raw
}

function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

function pragma(db: Database, name: string): number {
  const value = rows(db, `PRAGMA ${name}`)[0]?.[0]
  return typeof value === 'number' ? value >>> 0 : 0
}

function rows(db: Database, sql: string): SqlValue[][] {
  return db.exec(sql)[0]?.values ?? []
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`
}
