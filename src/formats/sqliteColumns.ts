import type { SqlValue } from 'sql.js'
import { parseJson } from './json'
import type { OutputBudget } from './limits'
import { decodeUtf8 } from './utf8'
import { decompressZstdFrame, isZstd } from './zstdFrames'

/** The columns of a SQLite store's `events` rows decoded one by one; each says why when it cannot be read. */

type Read<T> = { ok: true; value: T } | { ok: false; reason: string }

/** `data`: JSON text, or a zstd frame of JSON text (payloads ≥ 4 KiB that compress smaller). */
export async function readData(raw: SqlValue, budget: OutputBudget): Promise<Read<unknown>> {
  let text: string
  if (typeof raw === 'string') text = raw
  else if (raw instanceof Uint8Array) {
    if (!isZstd(raw))
      return { ok: false, reason: `is a ${raw.length}-byte BLOB that is not a Zstandard frame` }
    try {
      const { content, problem } = await decompressZstdFrame(raw, budget)
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
export function readSurfaceOp(raw: SqlValue): unknown {
  if (typeof raw !== 'string') return raw
  const parsed = parseJson(raw)
  return parsed.ok ? parsed.value : raw
}

function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
