import type { Database, SqlJsStatic, SqlValue } from 'sql.js'
import { buildSession, type PackedRowType, type Session, type SessionEvent } from '../core/session'
import { chunkProblem } from './chunkShape'
import { isRecord } from './json'
import { decodePackedRow } from './sessionJsonl'
import { citationDiagnostics } from './sessionSource'
import type { Diagnostic } from './types'
import { OutputBudget } from './limits'
import { readData, readSourceEventSeqs, readSurfaceOp } from './sqliteColumns'
import { readHeaders, treeOrder, type StoredHeader } from './sqliteHeaders'
import { eventKey, headerlessPageSize, recoverRows } from './sqlitePages'
import { readTableRows } from './sqliteRows'

/**
 * The harness's SQLite session store (docs/protocol.md §8): `sessions` rows become headers, `events` rows become events
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

export { readSourceEventSeqs }

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
export async function readSqliteStore(
  bytes: Uint8Array,
  sql: SqlJsStatic,
  budget = new OutputBudget(),
): Promise<SqliteStoreRead> {
  if (!isSqlite(bytes)) {
    const pageSize = headerlessPageSize(bytes)
    if (pageSize !== null) return readHeaderless(bytes, pageSize, budget)
  }
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
    return await readStore(db, bytes, diagnostics, budget)
  } catch (error) {
    // Damage where nothing can be stepped past (the schema page): tables are otherwise read row by row.
    diagnostics.push({ severity: 'error', message: `sqlite: cannot read the database (${reason(error)})` })
    return { sessions: [], diagnostics, recognised: false }
  } finally {
    db.close()
  }
}

async function readStore(
  db: Database,
  bytes: Uint8Array,
  diagnostics: Diagnostic[],
  budget: OutputBudget,
): Promise<SqliteStoreRead> {
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
      message: `sqlite: schema version (user_version) ${userVersion}; this reader knows ${DSH_SQLITE_SCHEMA_VERSION} (docs/protocol.md §8) and reads on`,
    })
  }
  // Table by table, row by row: a damaged page costs the rows on it, not the store (sqliteRows.ts).
  const stored = readTableRows(db, 'sessions', '*', 'id')
  if (stored.failure !== null) {
    const lost = stored.lost.map((key) => String(key['id']))
    diagnostics.push({
      severity: 'error',
      message: `sqlite: the sessions table is damaged (${stored.failure}): ${stored.rows.length} row${stored.rows.length === 1 ? '' : 's'} read${lost.length > 0 ? `; the headers of ${lost.join(', ')} could not be read` : ''}`,
    })
  }
  const headers = readHeaders(stored.rows, diagnostics)
  const events = readTableRows(db, 'events', EVENT_COLUMNS, 'session_id, seq')
  if (events.failure !== null) {
    const recovered = recoverRows(bytes, tableColumns(db, 'events'), events.rows, isEventRow)
    if (recovered.length > 0) {
      const found = new Set(recovered.map(eventKey))
      events.rows.push(...recovered)
      events.lost.splice(0, events.lost.length, ...events.lost.filter((key) => !found.has(eventKey(key))))
      diagnostics.push({
        severity: 'warning',
        message: `sqlite: ${recovered.length} row${recovered.length === 1 ? '' : 's'} of the events table SQLite could not reach were read from their pages directly`,
      })
    }
    const lost = events.lost.length || events.unreadable
    diagnostics.push({
      severity: 'error',
      message: `sqlite: the events table is damaged (${events.failure}): ${events.rows.length} row${events.rows.length === 1 ? '' : 's'} read, ${lost > 0 ? `${lost} could not be read` : 'the rest could not be found'}; each session keeps what was read`,
    })
  }
  const sessions = await buildStore(headers, events.rows, events.lost, diagnostics, budget)
  return { sessions, diagnostics, recognised: true }
}

const EVENT_COLUMNS = 'session_id, seq, type, time, data, source_event_seqs, surface_op'

/**
 * The sessions of a store from its rows however they were read: headers, event rows grouped by session in seq
 * order, sessions with rows but no header kept with their id, and the rows known lost named per session.
 */
async function buildStore(
  headers: StoredHeader[],
  eventRows: readonly Record<string, SqlValue>[],
  lostKeys: readonly Record<string, SqlValue>[],
  diagnostics: Diagnostic[],
  budget: OutputBudget,
): Promise<Session[]> {
  const bySession = new Map<string, Record<string, SqlValue>[]>()
  for (const row of eventRows) {
    const id = String(row['session_id'])
    const list = bySession.get(id)
    if (list === undefined) bySession.set(id, [row])
    else list.push(row)
  }
  const known = new Set(headers.map((h) => h.id))
  for (const id of bySession.keys()) {
    if (known.has(id)) continue
    diagnostics.push({
      severity: 'warning',
      message: `sqlite: events of session ${id} have no sessions row; read with only the id their rows carry`,
    })
    // Only the id: the session stays identifiable (and shareable) although its header row is gone.
    const header = {
      type: 'session',
      version: null,
      id,
      createdAt: null,
      raw: { type: 'session', id },
    } as const
    headers.push({ id, header, parent: null, createdAt: Infinity })
  }
  const lostSeqs = new Map<string, unknown[]>()
  for (const key of lostKeys) {
    const id = String(key['session_id'])
    lostSeqs.set(id, [...(lostSeqs.get(id) ?? []), key['seq']])
  }
  const sessions: Session[] = []
  for (const { id, header } of treeOrder(headers)) {
    const lost = lostSeqs.get(id)
    if (lost !== undefined)
      diagnostics.push({
        severity: 'error',
        message: `session ${id}: the rows of seq ${lost.map(String).join(', ')} are on damaged pages and could not be read`,
      })
    const rows = bySession.get(id) ?? []
    bySession.delete(id)
    const session = buildSession(header, await readEvents(rows, id, diagnostics, budget))
    // No `line`: the message names the session and the row's line in its JSONL form, which a store has not.
    for (const { line: _line, ...found } of citationDiagnostics(session))
      diagnostics.push({ ...found, message: `session ${id}: ${found.message}` })
    sessions.push(session)
  }
  if (sessions.length === 0)
    diagnostics.push({ severity: 'error', message: 'sqlite: the store holds no sessions' })
  return sessions
}

/** The harness's columns, in table order (schema 17, docs/protocol.md §8), for a file whose schema page is gone. */
const SESSION_TABLE = [
  'id',
  'version',
  'created_at',
  'cwd',
  'parent_session',
  'seed_length',
  'origin',
  'delegation_depth',
  'agent_preset',
  'incarnation',
  'revision',
]
const EVENT_TABLE = [
  'session_id',
  'seq',
  'type',
  'time',
  'data',
  'source_event_seqs',
  'surface_op',
  'ignorable',
]

/**
 * A store whose first page (file header, schema) is destroyed: SQLite cannot open it, but its other pages still
 * hold the rows. They are read from the leaf pages with the harness's own column order.
 */
async function readHeaderless(
  bytes: Uint8Array,
  pageSize: number,
  budget: OutputBudget,
): Promise<SqliteStoreRead> {
  const diagnostics: Diagnostic[] = [
    {
      severity: 'error',
      message: `sqlite: the first page (the file header and schema) is damaged; the rows were read from the other pages directly (page size ${pageSize}, the harness's schema ${DSH_SQLITE_SCHEMA_VERSION}), so rows deleted before the damage may reappear`,
    },
  ]
  const isSessionRow = (row: Record<string, SqlValue>) =>
    typeof row['id'] === 'string' && typeof row['created_at'] === 'number'
  const key = (row: Record<string, SqlValue>) => String(row['id'])
  const stored = recoverRows(bytes, SESSION_TABLE, [], isSessionRow, { key, pageSize })
  const events = recoverRows(bytes, EVENT_TABLE, [], isEventRow, { pageSize })
  const headers = readHeaders(stored, diagnostics)
  const sessions = await buildStore(headers, events, [], diagnostics, budget)
  return { sessions, diagnostics, recognised: true }
}

/**
 * One session's rows in seq order as §6 events. `line` is the row's position counting the header as line 1, so it
 * equals the line the same record has in the session's JSONL form.
 */
async function readEvents(
  rows: Record<string, SqlValue>[],
  sessionId: string,
  diagnostics: Diagnostic[],
  budget: OutputBudget,
): Promise<SessionEvent[]> {
  const events: SessionEvent[] = []
  // SQLite's ORDER BY seq, which put non-numbers (NULL) first; the table scan read them in rowid order.
  const seqOf = (row: Record<string, SqlValue>) => (typeof row['seq'] === 'number' ? row['seq'] : -Infinity)
  rows.sort((a, b) => seqOf(a) - seqOf(b))
  let line = 1
  let expected = 0
  const report = (severity: Diagnostic['severity'], seq: unknown, type: unknown, message: string) =>
    diagnostics.push({
      severity,
      message: `session ${sessionId}: seq ${String(seq)} (${String(type)}): ${message}`,
    })
  for (const row of rows) {
    line += 1
    const seq = row['seq']
    const type = row['type']
    const time = row['time']
    const rawData = row['data'] ?? null
    const rawSources = row['source_event_seqs'] ?? null
    const rawSurface = row['surface_op'] ?? null
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || typeof type !== 'string') {
      report('error', seq, type, 'row has no valid seq or type; skipped')
      continue
    }
    const data = await readData(rawData, budget)
    if (!data.ok) {
      report('error', seq, type, `data ${data.reason}; row skipped`)
      continue
    }
    if (seq > expected) report('warning', seq, type, `seq gap: expected ${expected}, got ${seq}`)
    if (type === 'text-chunks' || type === 'reasoning-chunks' || type === 'tool-call-chunks') {
      const packed = { type, seq0: seq, time0: time, data: data.value }
      const before = events.length
      const malformed = decodePackedRow(packed, type as PackedRowType, line, events)
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
  return events
}

/** A row with a text session_id, an integer seq and a text type: the shape of an `events` row. */
function isEventRow(row: Record<string, SqlValue>): boolean {
  const seq = row['seq']
  return (
    typeof row['session_id'] === 'string' &&
    typeof row['type'] === 'string' &&
    typeof seq === 'number' &&
    Number.isSafeInteger(seq)
  )
}

/** The table's column names in order, or none when the schema cannot say. */
function tableColumns(db: Database, table: string): string[] {
  try {
    return rows(db, `PRAGMA table_info(${table})`).map((row) => String(row[1]))
  } catch {
    return []
  }
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
