import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { Session } from '../core/session'
import { binaryFixture, testSqlJs } from '../test/hostile'
import { loadBytes } from './loadBytes'
import { readLeafRows } from './sqlitePages'
import type { Diagnostic, LoadedSource } from './types'

/**
 * One damaged page of a SQLite store costs the rows on it, not the store. The fixture store (1 KiB pages) is read
 * with each page zeroed in turn and compared with the undamaged read: every event read is the original one, and
 * every original row missing is named by a diagnostic of its session.
 */
const STORE = binaryFixture('dsh-sessions.sqlite')
const PAGE = 1024
const load = (bytes: Uint8Array) => loadBytes(bytes, 'store.sqlite', { sqlJs: testSqlJs })

function zeroPage(page: number): Uint8Array {
  const copy = STORE.slice()
  copy.fill(0, page * PAGE, (page + 1) * PAGE)
  return copy
}

/** Events by session and seq, without `line` (a row lost before an event moves its line up). */
function eventsOf(source: LoadedSource): Map<string, unknown> {
  const found = new Map<string, unknown>()
  for (const session of source.sessions)
    for (const { line: _line, ...event } of session.events) found.set(`${idOf(session)} ${event.seq}`, event)
  return found
}

const idOf = (session: Session) => session.header?.id ?? '?'

/** The rows of the original read: each packed row's events share its line; the row is named by its first seq. */
function rowsOf(source: LoadedSource): { session: string; seq: number; events: string[] }[] {
  const rows = new Map<string, { session: string; seq: number; events: string[] }>()
  for (const session of source.sessions) {
    for (const event of session.events) {
      const key = `${idOf(session)}:${event.line}`
      const row = rows.get(key) ?? { session: idOf(session), seq: event.seq, events: [] }
      row.events.push(`${idOf(session)} ${event.seq}`)
      rows.set(key, row)
    }
  }
  return [...rows.values()]
}

/** Seqs a diagnostic names as lost or skipped in a session (`session S: seq N (type): …`, `the rows of seq …`). */
function namedSeqs(diagnostics: Diagnostic[], session: string): Set<number> {
  const named = new Set<number>()
  for (const { message } of diagnostics) {
    if (!message.startsWith(`session ${session}: `)) continue
    const one = /^session \S+: seq (\d+) \(/.exec(message)
    if (one) named.add(Number(one[1]))
    const many = /the rows of seq ([\d, ]+) are/.exec(message)
    if (many) for (const seq of many[1]!.split(', ')) named.add(Number(seq))
  }
  return named
}

describe('rows read from the leaf pages directly', () => {
  it('are exactly the rows SQLite reads from the intact store', async () => {
    const sql = await testSqlJs()
    const db = new sql.Database(STORE)
    const expected = db.exec('SELECT rowid, * FROM events ORDER BY rowid')[0]!.values
    db.close()
    const raw = readLeafRows(STORE, 8).map((row) => [row.rowid, ...row.values])
    expect(raw).toEqual(expected)
  })
})

describe('a SQLite store with one page zeroed', async () => {
  const original = await load(STORE)
  const originalEvents = eventsOf(original)
  const pages = STORE.length / PAGE

  it('reads the undamaged store cleanly', () => {
    expect(original.format).toBe('dsh-sqlite')
    expect(original.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(pages).toBeGreaterThan(40)
  })

  // Page 1 holds the file header and the schema: SQLite cannot open the file, the rows are read from the pages.
  it('reads the rows of the other pages when the first page is gone, and says so', async () => {
    const read = await load(zeroPage(0))
    expect(read.format).toBe('dsh-sqlite')
    expect(read.diagnostics[0]!.message).toMatch(/^sqlite: the first page .* is damaged; the rows were read/)
    expect([...eventsOf(read)]).toEqual([...originalEvents])
    expect(read.sessions.map((s) => s.header)).toEqual(original.sessions.map((s) => s.header))
  })

  it.each(Array.from({ length: pages - 1 }, (_, k) => k + 1))(
    'page %i zeroed: every event read is the original and every row missing is named',
    async (page) => {
      const read = await load(zeroPage(page))
      expect(read.format).toBe('dsh-sqlite')
      const kept = eventsOf(read)
      const changed = [...kept].filter(([key, event]) => !isDeepStrictEqual(event, originalEvents.get(key)))
      expect(changed.map(([key]) => key)).toEqual([])
      const named = new Map(original.sessions.map((s) => [idOf(s), namedSeqs(read.diagnostics, idOf(s))]))
      const missing = rowsOf(original).filter((row) => !row.events.every((key) => kept.has(key)))
      const unnamed = missing.filter((row) => !named.get(row.session)!.has(row.seq))
      expect(unnamed.map((row) => `${row.session} seq ${row.seq}`)).toEqual([])
      // A damaged page that costs rows reports itself as an error (lint fails on it).
      const errors = read.diagnostics.filter((d) => d.severity === 'error')
      expect(missing.length === 0 || errors.length > 0).toBe(true)
    },
  )

  it('keeps most of the store whatever single page after the first is lost', async () => {
    const lostRows: number[] = []
    for (let page = 1; page < pages; page++) {
      const read = await load(zeroPage(page))
      const kept = eventsOf(read)
      lostRows.push(rowsOf(original).filter((row) => !row.events.every((key) => kept.has(key))).length)
    }
    // One leaf page of this store holds at most 8 rows. The events table's root (page 5) hides every leaf from
    // SQLite; those rows are read from the leaf pages themselves.
    expect(lostRows.filter((lost) => lost > 8)).toEqual([])
    expect(lostRows[5 - 2]).toBe(0) // lostRows[0] is page 2 (1-based)
  })
})
