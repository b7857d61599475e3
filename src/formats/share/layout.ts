import { isRecord } from '../../core/base/isRecord'
import { nestsDeeperThan, tooDeep } from '../json'
import { MAX_JSON_DEPTH } from '../limits'
import { ByteReader, ByteWriter, Malformed } from './bytes'
import { absolute, leaveImplied, restoreImplied } from './implied'
import {
  decodeChunks,
  encodeChunks,
  isColumnarSource,
  type ChunkColumns,
  type NumberModel,
} from './chunkColumns'
import { RangeDecoder } from './rangeCoder'
import { decodeIds } from './idColumn'

// The columnar layout of a share payload, shared by v2 and v3 links (docs/protocol.md §14): they differ only in
// how the sections are compressed (codecV2.ts: deflate; codecV3.ts: one range-coded stream).
//
// - text: every delta's text or arguments in stream order, then every long string of the rest (recorded
//   messages, diagnostics, carried state, names), as one UTF-8 string (lone surrogates patched back from
//   `patches`);
// - numbers: per chunk its op, index, text length (UTF-16 units), seq and time (chunkColumns.ts);
// - meta: chunk count + 1 (0: no chunk columns), the text's UTF-16 length, then the skeleton (the payload
//   without its chunks, the chunks that travel whole and the tool-call ids, as JSON, with long strings and integer
//   arrays replaced by holes `\u007f`, `\u007f\u007f`), the long strings' lengths, the integer arrays and the
//   patches, each length-prefixed.

const STRING_HOLE = '\u007f'
const INTS_HOLE = '\u007f\u007f'
/** Strings this long leave the skeleton for the text column (shorter ones cost less than their length there). */
export const LONG_STRING = 16
const COLUMN_INT = 2 ** 51
const CHUNK_BYTES = 16
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

export type DecodedBody =
  { readonly value: unknown } | { readonly error: string } | { readonly tooLarge: true }

/** A payload split into its sections, before compression. */
export type Sections = {
  readonly meta: Uint8Array
  readonly text: Uint8Array
  /** The text column as a string (the numbers' lengths are coded against it). */
  readonly textString: string
  readonly columns: ChunkColumns | null
  /** The meta section's parts, for a codec that codes them one by one (codecV3.ts). */
  readonly parts: MetaParts
}

export type MetaParts = {
  /** Chunk count + 1 (0: no chunk columns). */
  readonly count: number
  /** The text's length in UTF-16 units. */
  readonly units: number
  readonly skeleton: Uint8Array
  /** The long strings' lengths, one per string hole in the skeleton. */
  readonly strLens: readonly number[]
  /** The integer arrays' differences (zigzag), one list per array hole. */
  readonly ints: readonly (readonly number[])[]
  /** The lone surrogates: position after the previous one, unit − 0xd800. */
  readonly patches: readonly (readonly [number, number])[]
}

/**
 * The payload's shell (without its chunks) and its chunk columns, or the payload itself when not columnar; `v5`:
 * with the ops only v5 links know.
 */
export async function splitPayload(
  payload: unknown,
  pause: () => Promise<void>,
  v5 = false,
): Promise<{ shell: unknown; columns: ChunkColumns | null }> {
  if (!isColumnarSource(payload)) return { shell: payload, columns: null }
  const shell = { ...payload, source: { kind: 'chunks' } }
  // v5 codes a tool-call id apart unless the rest of the link holds it: the shell as it will travel (implied.ts).
  const { chunks, seq } = payload.source
  const seqs = absolute(seq)
  const travels = v5 ? leaveImplied(shell, seqs.at(-1) ?? 0, { chunks, seqs }).shell : null
  const columns = await encodeChunks(payload.source, pause, v5 ? JSON.stringify(travels) : null)
  return { shell, columns }
}

/**
 * The sections of a payload; strings of `longString` units or more (or in arrays of strings) leave the skeleton.
 * `implied` (v4, implied.ts): what the shell leaves out, as a fourth item of the skeleton (0: none, no item).
 */
export function layOut(
  shell: unknown,
  columns: ChunkColumns | null,
  longString: number,
  implied = 0,
): Sections {
  const extracted: string[] = []
  const strLens: number[] = []
  const ints: number[][] = []
  const stringArrays = new WeakSet<object>()
  const skeleton = JSON.stringify(
    [shell, columns?.whole ?? [], columns?.names ?? [], ...(implied !== 0 ? [implied] : [])],
    function (this: unknown, _key, value: unknown) {
      if (typeof value === 'string') {
        const inArray = longString !== Infinity && stringArrays.has(this as object)
        if (value.length < longString && value.charCodeAt(0) !== 0x7f && !inArray) return value
        extracted.push(value)
        strLens.push(value.length)
        return STRING_HOLE
      }
      if (Array.isArray(value) && value.length >= 2) {
        if (value.every((n) => Number.isSafeInteger(n) && Math.abs(n) <= COLUMN_INT)) {
          let last = 0
          ints.push(
            (value as number[]).map((n) => {
              const delta = n - last
              last = n
              return zigzag(delta)
            }),
          )
          return INTS_HOLE
        }
        if (value.every((item) => typeof item === 'string')) stringArrays.add(value)
      }
      return value
    },
  )
  const text = (columns?.text ?? '') + extracted.join('')
  const patches: [number, number][] = []
  let last = 0
  for (const match of text.matchAll(LONE_SURROGATE)) {
    patches.push([match.index - last, match[0].charCodeAt(0) - 0xd800])
    last = match.index
  }
  const parts: MetaParts = {
    count: columns === null ? 0 : columns.count + 1,
    units: text.length,
    skeleton: new TextEncoder().encode(skeleton),
    strLens,
    ints,
    patches,
  }
  return { meta: metaBytes(parts), text: new TextEncoder().encode(text), textString: text, columns, parts }
}

/** The meta section's bytes: two varints, then four length-prefixed blocks. */
export function metaBytes(parts: MetaParts): Uint8Array {
  const strLens = new ByteWriter()
  for (const length of parts.strLens) strLens.varint(length)
  const ints = new ByteWriter()
  for (const list of parts.ints) {
    ints.varint(list.length)
    for (const code of list) ints.varint(code)
  }
  const patches = new ByteWriter()
  for (const [at, unit] of parts.patches) {
    patches.varint(at)
    patches.varint(unit)
  }
  const meta = new ByteWriter()
  meta.varint(parts.count)
  meta.varint(parts.units)
  meta.block(parts.skeleton)
  meta.block(strLens.result())
  meta.block(ints.result())
  meta.block(patches.result())
  return meta.result()
}

const zigzag = (n: number) => (n >= 0 ? n * 2 : -n * 2 - 1)

/**
 * The payload back from its sections (`numbers`: the chunk numbers' own bytes, or the coder positioned at them).
 * Throws Malformed; refuses a chunk count that `maxBytes` could not hold.
 */
export function readSections(
  metaBytes: Uint8Array,
  textBytes: Uint8Array,
  numbers: Uint8Array | RangeDecoder,
  maxBytes: number,
  model?: NumberModel,
  version = 2,
): DecodedBody {
  const meta = new ByteReader(metaBytes)
  const count = meta.varint() - 1
  // Each chunk opens as at least this many bytes of objects: a link may not announce more than the cap allows.
  if (count * CHUNK_BYTES > maxBytes) return { tooLarge: true }
  const units = meta.varint()
  const skeletonText = utf8(meta.block())
  const strLens = new ByteReader(meta.block())
  const ints = new ByteReader(meta.block())
  const patches = new ByteReader(meta.block())
  if (!meta.done) throw new Malformed('its columns do not end where they should')
  const text = patch(utf8(textBytes), patches)
  if (text.length !== units) throw new Malformed('its text has the wrong length')
  // The deltas' text comes first; the skeleton's long strings follow it.
  const chunks = count < 0 ? null : decodeChunks(count, numbers, text, model)
  let at = chunks?.textEnd ?? 0
  const depth = MAX_JSON_DEPTH + 9
  if (nestsDeeperThan(skeletonText, depth))
    return { error: `the link's content is ${tooDeep(depth)}; it was refused` }
  let skeleton: unknown
  try {
    skeleton = JSON.parse(skeletonText, (_key, value: unknown) => {
      if (value === STRING_HOLE) {
        const length = strLens.varint()
        if (at + length > text.length) throw new Malformed('a string runs past the text')
        return text.slice(at, (at += length))
      }
      if (value === INTS_HOLE) {
        const length = ints.varint()
        if (length > ints.remaining) throw new Malformed('a number list runs past its column')
        const out: number[] = []
        let last = 0
        for (let i = 0; i < length; i++) out.push((last += ints.zigzag()))
        return out
      }
      return value
    })
  } catch (error) {
    if (error instanceof Malformed) throw error
    throw new Malformed('its content is not valid JSON')
  }
  if (at !== text.length || !strLens.done || !ints.done)
    throw new Malformed('its strings do not add up to its text')
  if (!Array.isArray(skeleton) || (skeleton.length !== 3 && !(version >= 4 && skeleton.length === 4)))
    throw new Malformed('its layout is not a columnar payload')
  const [shell, whole, names, implied] = skeleton as [unknown, unknown, unknown, unknown]
  if (count < 0 || chunks === null) return { value: shell }
  if (!isRecord(shell) || !isRecord(shell['source']) || !Array.isArray(whole) || !Array.isArray(names))
    throw new Malformed('its layout is not a columnar payload')
  // v5 codes random-looking tool-call ids after the chunk numbers (idColumn.ts).
  const ids = version >= 5 && numbers instanceof RangeDecoder ? decodeIds(numbers, chunks.newIds) : []
  const { chunks: list, seq, time } = chunks.build(whole, names, ids)
  shell['source'] = { ...shell['source'], chunks: list, seq, time }
  const seqs = absolute(seq)
  restoreImplied(shell, implied, seqs.at(-1) ?? 0, version >= 5 ? { chunks: list, seqs } : undefined)
  return { value: shell }
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new Malformed('its content is not valid UTF-8')
  }
}

/** Puts back the lone surrogates UTF-8 cannot carry (each travelled as U+FFFD at its place). */
function patch(text: string, patches: ByteReader): string {
  if (patches.done) return text
  let out = ''
  let from = 0
  let at = 0
  while (!patches.done) {
    at += patches.varint()
    const unit = 0xd800 + patches.varint()
    if (at < from || at >= text.length || text.charCodeAt(at) !== 0xfffd || unit > 0xdfff)
      throw new Malformed('its text patches do not fit its text')
    out += text.slice(from, at) + String.fromCharCode(unit)
    from = at + 1
  }
  return out + text.slice(from)
}
