import { Inflate } from 'fflate'
import { formatBytes, OutputBudget } from './limits'
import { crc32 } from '../core/base/crc32'
import type { Diagnostic } from './types'

/**
 * Just enough of the ZIP format (APPNOTE 6.3) to read chosen entries of the web UI's session export without
 * inflating the rest (`media/…` can be large): the central directory names the entries, each chosen entry is
 * inflated with fflate and its CRC-32 checked. A zip whose end is cut off (no central directory) is read from its
 * local headers instead.
 */

export type ZipEntry = {
  readonly name: string
  /** 0 stored, 8 deflated; anything else is reported when read. */
  readonly method: number
  readonly flags: number
  readonly crc: number
  readonly compressedSize: number
  readonly size: number
  /** Offset of the entry's local header. */
  readonly offset: number
}

export type ZipDirectory = { readonly entries: ZipEntry[]; readonly diagnostics: Diagnostic[] }

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const END = 0x06054b50

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === LOCAL
}

/** The entries the archive lists, from its central directory (or, if that is missing, its local headers). */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory {
  const diagnostics: Diagnostic[] = []
  const end = findEnd(bytes)
  if (end === -1) {
    diagnostics.push({
      severity: 'warning',
      message:
        'zip: no end-of-central-directory record: the archive is truncated; reading its entries from their local headers',
    })
    return { entries: scanLocalHeaders(bytes, diagnostics), diagnostics }
  }
  const count = u16(bytes, end + 10)
  const directoryOffset = u32(bytes, end + 16)
  if (directoryOffset === 0xffffffff || count === 0xffff) {
    diagnostics.push({ severity: 'error', message: 'zip: ZIP64 archives are not supported' })
    return { entries: [], diagnostics }
  }
  const entries: ZipEntry[] = []
  let at = directoryOffset
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== CENTRAL) {
      diagnostics.push({
        byte: at,
        severity: 'error',
        message: `zip: central directory entry ${k + 1} of ${count} at byte ${at} is damaged; the rest of the directory is skipped`,
      })
      break
    }
    const nameLength = u16(bytes, at + 28)
    entries.push({
      flags: u16(bytes, at + 8),
      method: u16(bytes, at + 10),
      crc: u32(bytes, at + 16),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      offset: u32(bytes, at + 42),
      name: entryName(bytes.subarray(at + 46, at + 46 + nameLength)),
    })
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32)
  }
  return { entries, diagnostics }
}

/**
 * The entry's bytes, inflated and CRC-checked; null with an error when none can be had. A CRC mismatch is an error
 * but the bytes are still returned, so the user sees what the archive holds. Inflation streams, never trusting the
 * declared size: it stops at what is left of `budget` (limits.ts) and at corrupt data, keeping what came before
 * with an error saying what was cut.
 */
export function readZipEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  diagnostics: Diagnostic[],
  budget = new OutputBudget(),
): Uint8Array | null {
  const fail = (severity: Diagnostic['severity'], why: string) =>
    diagnostics.push({
      byte: entry.offset,
      severity,
      message: `zip entry ${entry.name} at byte ${entry.offset}: ${why}`,
    })
  if (entry.offset + 30 > bytes.length || u32(bytes, entry.offset) !== LOCAL) {
    fail('error', 'no local header there; entry skipped')
    return null
  }
  if (entry.flags & 1) {
    fail('error', 'encrypted; entry skipped')
    return null
  }
  const dataStart = entry.offset + 30 + u16(bytes, entry.offset + 26) + u16(bytes, entry.offset + 28)
  const dataEnd = dataStart + entry.compressedSize
  if (dataEnd > bytes.length) {
    fail(
      'error',
      `its data is cut short (${Math.max(0, bytes.length - dataStart)} of ${entry.compressedSize} bytes); entry skipped`,
    )
    return null
  }
  const stored = bytes.subarray(dataStart, dataEnd)
  if (entry.method !== 0 && entry.method !== 8) {
    fail(
      'error',
      `compression method ${entry.method} is not supported (only stored and deflate); entry skipped`,
    )
    return null
  }
  let data = stored
  if (entry.method === 8) {
    const inflated = inflateBounded(stored, budget.left, entry.size)
    data = inflated.data
    budget.spend(data.length)
    if (inflated.problem !== null) {
      if (data.length === 0) {
        fail('error', `cannot be inflated (${inflated.problem}); entry skipped`)
        return null
      }
      fail(
        'error',
        `cannot be inflated past its first ${data.length} bytes (${inflated.problem}); kept those, the rest is lost`,
      )
      return data
    }
    if (inflated.capped) {
      fail(
        'error',
        `inflates past the ${formatBytes(budget.limit)} cap on a file's decompressed content (limits.ts; the directory says ${entry.size} bytes): kept its first ${data.length} bytes, the rest is not read and its CRC-32 cannot be checked`,
      )
      return data
    }
  }
  if (data.length !== entry.size)
    fail('error', `inflated to ${data.length} bytes, the directory says ${entry.size}`)
  const actual = crc32(data)
  if (actual !== entry.crc) {
    fail(
      'error',
      `CRC-32 mismatch (stored ${hex(entry.crc)}, computed ${hex(actual)}): the entry is corrupt; its content is shown anyway`,
    )
  }
  return data
}

/** Compressed bytes handed to the inflater at a time: deflate expands at most ~1032×, so ≤ 16.5 MiB per step. */
const INFLATE_STEP = 16 << 10

/**
 * Inflates step by step into one buffer and stops once the output passes `max` (then `capped`) or the data turns out
 * corrupt. The buffer starts at the declared size, but never more than `max`, and grows only if the data goes on.
 */
function inflateBounded(
  compressed: Uint8Array,
  max: number,
  declared: number,
): { data: Uint8Array; capped: boolean; problem: string | null } {
  let out = new Uint8Array(Math.min(max, declared))
  let size = 0
  let capped = false
  let problem: string | null = null
  const inflater = new Inflate((chunk) => {
    const take = Math.min(chunk.length, max - size)
    if (take < chunk.length) capped = true
    if (size + take > out.length) {
      const grown = new Uint8Array(Math.min(max, Math.max(size + take, out.length * 2)))
      grown.set(out.subarray(0, size))
      out = grown
    }
    out.set(chunk.subarray(0, take), size)
    size += take
  })
  try {
    for (let at = 0; !capped; at += INFLATE_STEP) {
      const end = Math.min(compressed.length, at + INFLATE_STEP)
      inflater.push(compressed.subarray(at, end), end === compressed.length)
      if (end === compressed.length) break
    }
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error)
  }
  return { data: out.subarray(0, size), capped, problem }
}

/** Local headers in file order, for an archive without its central directory. Stops at the first unreadable one. */
function scanLocalHeaders(bytes: Uint8Array, diagnostics: Diagnostic[]): ZipEntry[] {
  const entries: ZipEntry[] = []
  let at = 0
  while (at + 30 <= bytes.length && u32(bytes, at) === LOCAL) {
    const flags = u16(bytes, at + 6)
    const nameLength = u16(bytes, at + 26)
    const entry = {
      flags,
      method: u16(bytes, at + 8),
      crc: u32(bytes, at + 14),
      compressedSize: u32(bytes, at + 18),
      size: u32(bytes, at + 22),
      offset: at,
      name: entryName(bytes.subarray(at + 30, Math.min(bytes.length, at + 30 + nameLength))),
    }
    if (flags & 8) {
      diagnostics.push({
        byte: at,
        severity: 'error',
        message: `zip entry ${entry.name} at byte ${at}: its sizes follow its data (data descriptor), which cannot be found without the central directory; reading stops`,
      })
      break
    }
    entries.push(entry)
    at += 30 + nameLength + u16(bytes, at + 28) + entry.compressedSize
  }
  return entries
}

/** The end-of-central-directory record, searched backwards over the longest possible comment; -1 if absent. */
function findEnd(bytes: Uint8Array): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (u32(bytes, at) === END && at + 22 + u16(bytes, at + 20) <= bytes.length) return at
  }
  return -1
}

const names = new TextDecoder('utf-8')

function entryName(bytes: Uint8Array): string {
  return names.decode(bytes)
}

function u16(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8)
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`
}
