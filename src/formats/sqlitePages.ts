import type { SqlValue } from 'sql.js'

/**
 * The last resort for a damaged SQLite file: the rows of every table b-tree leaf page, read straight from the bytes
 * (the SQLite file format, sqlite.org/fileformat2.html §1.6, §2.3, §2.4). SQLite itself reaches a leaf only through
 * the interior pages above it, so a zeroed root or interior page hides every intact leaf under it; here each page
 * is looked at on its own. Pages on the freelist are skipped (they may still hold deleted rows), and so is every
 * cell that does not decode cleanly.
 */

/** How a row of `events` is named to a person and told apart from the others. */
export const eventKey = (row: Record<string, SqlValue>): string =>
  `${String(row['session_id'])} ${String(row['seq'])}`

/**
 * The rows of a table read from the leaf pages that the SQL read (`read`) did not reach: a damaged root or interior
 * page hides every intact leaf below it. A leaf row counts when it has the table's `columns` (in order) and passes
 * `accept`; rows already read (by `key`) are not repeated.
 */
export function recoverRows(
  bytes: Uint8Array,
  columns: readonly string[],
  read: readonly Record<string, SqlValue>[],
  accept: (row: Record<string, SqlValue>) => boolean,
  { key = eventKey, pageSize }: { key?: (row: Record<string, SqlValue>) => string; pageSize?: number } = {},
): Record<string, SqlValue>[] {
  if (columns.length === 0) return []
  const have = new Set(read.map(key))
  const found: Record<string, SqlValue>[] = []
  for (const { rowid, values } of readLeafRows(bytes, columns.length, pageSize)) {
    const row: Record<string, SqlValue> = { _rowid_: rowid }
    columns.forEach((name, k) => (row[name] = values[k] ?? null))
    if (!accept(row) || have.has(key(row))) continue
    have.add(key(row))
    found.push(row)
  }
  return found
}

export type RawRow = { readonly page: number; readonly rowid: number; readonly values: SqlValue[] }

/**
 * Every row of every table leaf page whose record has `columns` values, in page order. The page size comes from the
 * file header, or is given for a file whose header is gone (then no page is known to be free).
 */
export function readLeafRows(bytes: Uint8Array, columns: number, givenPageSize?: number): RawRow[] {
  if (bytes.length < 100) return []
  const sizeField = (bytes[16]! << 8) | bytes[17]!
  const pageSize = givenPageSize ?? (sizeField === 1 ? 65536 : sizeField)
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return []
  const usable = givenPageSize !== undefined ? pageSize : pageSize - bytes[20]!
  const pages = Math.floor(bytes.length / pageSize)
  const free = givenPageSize !== undefined ? new Set<number>() : freelistPages(bytes, pageSize, pages)
  const rows: RawRow[] = []
  for (let page = 1; page <= pages; page++) {
    if (free.has(page)) continue
    const start = (page - 1) * pageSize
    const header = page === 1 ? start + 100 : start
    if (bytes[header] !== 0x0d) continue // a table b-tree leaf
    const cells = (bytes[header + 3]! << 8) | bytes[header + 4]!
    for (let k = 0; k < cells; k++) {
      const pointer = header + 8 + 2 * k
      if (pointer + 2 > start + pageSize) break
      const cell = start + ((bytes[pointer]! << 8) | bytes[pointer + 1]!)
      const row = readCell(bytes, cell, start + pageSize, usable, pageSize, pages)
      if (row !== null && row.values.length === columns) rows.push({ page, ...row })
    }
  }
  return rows
}

function freelistPages(bytes: Uint8Array, pageSize: number, pages: number): Set<number> {
  const free = new Set<number>()
  let trunk = u32(bytes, 32)
  while (trunk >= 1 && trunk <= pages && !free.has(trunk)) {
    free.add(trunk)
    const at = (trunk - 1) * pageSize
    const count = u32(bytes, at + 4)
    for (let k = 0; k < count && 8 + 4 * k + 4 <= pageSize; k++) free.add(u32(bytes, at + 8 + 4 * k))
    trunk = u32(bytes, at)
  }
  return free
}

function readCell(
  bytes: Uint8Array,
  at: number,
  pageEnd: number,
  usable: number,
  pageSize: number,
  pages: number,
): { rowid: number; values: SqlValue[] } | null {
  const length = varint(bytes, at, pageEnd)
  if (length === null) return null
  const rowid = varint(bytes, length.next, pageEnd)
  if (rowid === null) return null
  const size = length.value
  // How much of the payload sits in the cell (§1.6, "Cell Payload Overflow Pages").
  const maxLocal = usable - 35
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23
  let local = size
  if (size > maxLocal) {
    const k = minLocal + ((size - minLocal) % (usable - 4))
    local = k <= maxLocal ? k : minLocal
  }
  const payloadAt = rowid.next
  if (payloadAt + local + (local < size ? 4 : 0) > pageEnd) return null
  let payload: Uint8Array
  if (local === size) payload = bytes.subarray(payloadAt, payloadAt + size)
  else {
    payload = new Uint8Array(size)
    payload.set(bytes.subarray(payloadAt, payloadAt + local))
    let filled = local
    let next = u32(bytes, payloadAt + local)
    const seen = new Set<number>()
    while (filled < size) {
      if (next < 1 || next > pages || seen.has(next)) return null
      seen.add(next)
      const page = (next - 1) * pageSize
      const take = Math.min(usable - 4, size - filled)
      payload.set(bytes.subarray(page + 4, page + 4 + take), filled)
      filled += take
      next = u32(bytes, page)
    }
  }
  const values = readRecord(payload)
  return values === null ? null : { rowid: rowid.value, values }
}

const text = new TextDecoder('utf-8', { fatal: true })

/** A record (§2.1): a header of serial types, then the values; null when it does not decode exactly. */
function readRecord(payload: Uint8Array): SqlValue[] | null {
  const headerSize = varint(payload, 0, payload.length)
  if (headerSize === null || headerSize.value > payload.length) return null
  const types: number[] = []
  let at = headerSize.next
  while (at < headerSize.value) {
    const type = varint(payload, at, headerSize.value)
    if (type === null || type.value === 10 || type.value === 11) return null
    types.push(type.value)
    at = type.next
  }
  let body = headerSize.value
  const values: SqlValue[] = []
  for (const type of types) {
    const width = type < 12 ? [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][type]! : Math.floor((type - 12) / 2)
    if (body + width > payload.length) return null
    const field = payload.subarray(body, body + width)
    body += width
    if (type === 0) values.push(null)
    else if (type === 8 || type === 9) values.push(type - 8)
    else if (type === 7) values.push(new DataView(field.buffer, field.byteOffset, 8).getFloat64(0))
    else if (type < 7) values.push(signed(field))
    else if (type % 2 === 0) values.push(field.slice())
    else {
      try {
        values.push(text.decode(field))
      } catch {
        return null
      }
    }
  }
  return body === payload.length ? values : null
}

/** A big-endian two's-complement integer (past 2^53 it loses precision, as any JS number does). */
function signed(field: Uint8Array): number {
  let value = 0
  for (const byte of field) value = value * 256 + byte
  return field[0]! & 0x80 ? value - 2 ** (8 * field.length) : value
}

/** SQLite's big-endian varint (1–9 bytes). */
function varint(bytes: Uint8Array, at: number, end: number): { value: number; next: number } | null {
  let value = 0
  for (let k = 0; k < 9; k++) {
    if (at + k >= end) return null
    const byte = bytes[at + k]!
    if (k === 8) return { value: value * 256 + byte, next: at + 9 }
    value = value * 128 + (byte & 0x7f)
    if ((byte & 0x80) === 0) return { value, next: at + k + 1 }
  }
  return null
}

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
}

/**
 * The page size of a SQLite file whose first page is zeroed (no "SQLite format 3" header), or null when the bytes
 * do not look like one: the first 100 bytes are zero, the length is whole pages, and at that page size the leaf
 * pages hold rows of the harness's `events` shape (8 columns). The size that yields the most such rows wins.
 */
export function headerlessPageSize(bytes: Uint8Array): number | null {
  if (bytes.length < 1024 || bytes.length % 512 !== 0) return null
  for (let i = 0; i < 100; i++) if (bytes[i] !== 0) return null
  let best: number | null = null
  let most = 0
  for (let size = 512; size <= 65536 && size * 2 <= bytes.length; size *= 2) {
    if (bytes.length % size !== 0) continue
    const found = readLeafRows(bytes, 8, size).length
    if (found > most) [best, most] = [size, found]
  }
  return best
}
