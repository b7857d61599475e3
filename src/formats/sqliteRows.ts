import type { Database, SqlValue } from 'sql.js'

/**
 * Reading a rowid table of a damaged SQLite file row by row. One zeroed page makes SQLite stop the whole statement
 * with `database disk image is malformed` as soon as a scan reaches it, which used to discard every session of the
 * store. Here a scan in rowid order keeps what it read, then steps past the damage: the rowids the table's index
 * still lists (or, without one, every rowid up to the largest) are looked up one at a time until one is readable,
 * and the scan resumes after it. What stays unreadable is reported with the index's key (session id and seq).
 */

export type TableRows = {
  /** Every row read, in rowid order, as column name → value (the rowid as `_rowid_`). */
  readonly rows: Record<string, SqlValue>[]
  /** The first error SQLite gave, or null when the table read cleanly. */
  readonly failure: string | null
  /** Rows the index lists that could not be read, with the index's columns; empty without an index. */
  readonly lost: Record<string, SqlValue>[]
  /** How many rowids were tried one at a time and could not be read (or were absent). */
  readonly unreadable: number
}

/** Lookups tried one at a time past a damaged page when no index lists the rowids (a gap of absent rowids). */
const MAX_PROBES = 100_000

/**
 * @param columns the columns to read (`rowid AS _rowid_` is added)
 * @param keys index columns that identify a row to a person (e.g. `session_id, seq`): read from the covering
 *   index, they list the rows past a damaged table page and name the ones lost
 */
export function readTableRows(db: Database, table: string, columns: string, keys: string): TableRows {
  const rows: Record<string, SqlValue>[] = []
  let last: number | null = null
  const scan = (after: number | null): string | null => {
    try {
      const stmt = db.prepare(
        `SELECT rowid AS _rowid_, ${columns} FROM ${table}${after === null ? '' : ' WHERE rowid > ?'} ORDER BY rowid`,
      )
      try {
        if (after !== null) stmt.bind([after])
        while (stmt.step()) {
          const row = stmt.getAsObject()
          rows.push(row)
          last = row['_rowid_'] as number
        }
        return null
      } finally {
        stmt.free()
      }
    } catch (error) {
      return reason(error)
    }
  }
  const failure = scan(null)
  if (failure === null) return { rows, failure, lost: [], unreadable: 0 }

  const listed = indexedKeys(db, table, keys)
  const candidates =
    listed.length > 0 ? listed.map((key) => key['_rowid_'] as number) : probeRange(db, table, last)
  let unreadable = 0
  let error: string | null = failure
  let next = 0
  while (error !== null) {
    let resumed = false
    while (next < candidates.length) {
      const rowid = candidates[next++]!
      if (last !== null && rowid <= last) continue
      const one = readOne(db, table, columns, rowid)
      if (one === null) {
        unreadable += 1
        continue
      }
      rows.push(one)
      last = rowid
      resumed = true
      break
    }
    if (!resumed) break
    error = scan(last)
  }
  const read = new Set(rows.map((row) => row['_rowid_']))
  const lost = listed.filter((key) => !read.has(key['_rowid_']!))
  return { rows, failure, lost, unreadable }
}

/** The index's keys with their rowids, in rowid order; what could be read of them when the index is damaged too. */
function indexedKeys(db: Database, table: string, keys: string): Record<string, SqlValue>[] {
  const found: Record<string, SqlValue>[] = []
  try {
    // Only indexed columns and the rowid: SQLite answers from the covering index, not the damaged table pages.
    const stmt = db.prepare(`SELECT ${keys}, rowid AS _rowid_ FROM ${table} ORDER BY ${keys}`)
    try {
      while (stmt.step()) found.push(stmt.getAsObject())
    } finally {
      stmt.free()
    }
  } catch {
    // A damaged index page: the keys read so far still help.
  }
  return found.sort((a, b) => (a['_rowid_'] as number) - (b['_rowid_'] as number))
}

/** Every rowid after `last` up to the table's largest (bounded), when no index lists them. */
function probeRange(db: Database, table: string, last: number | null): number[] {
  let max: number
  try {
    const value = db.exec(`SELECT max(rowid) FROM ${table}`)[0]?.values[0]?.[0]
    if (typeof value !== 'number') return []
    max = value
  } catch {
    return []
  }
  const from = (last ?? 0) + 1
  const to = Math.min(max, from + MAX_PROBES - 1)
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => from + k)
}

function readOne(
  db: Database,
  table: string,
  columns: string,
  rowid: number,
): Record<string, SqlValue> | null {
  try {
    const stmt = db.prepare(`SELECT rowid AS _rowid_, ${columns} FROM ${table} WHERE rowid = ?`)
    try {
      stmt.bind([rowid])
      return stmt.step() ? stmt.getAsObject() : null
    } finally {
      stmt.free()
    }
  } catch {
    return null
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
