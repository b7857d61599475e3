import { deflateSync, inflateSync } from 'fflate'
import { isRecord } from '../../core/base/isRecord'
import { nestsDeeperThan, tooDeep } from '../json'
import { MAX_JSON_DEPTH } from '../limits'
import { ByteReader, ByteWriter, Malformed } from './bytes'
import { decodeChunks, encodeChunks, isColumnarSource, type ChunkColumns } from './chunkColumns'
import { SHARE_DICTIONARY } from './dictionary'

/**
 * The body of a v2 share link (docs/protocol.md §14): the same payload as v1 (payload.ts), laid out so that deflate
 * sees the stream's text as one run and everything else as small integers. Columns:
 *
 * - text: every delta's text or arguments in stream order, then every long string of the rest (recorded messages,
 *   diagnostics, carried state, names), as one UTF-8 string (lone surrogates patched back from `patches`);
 * - numbers: per chunk its op, index, text length (UTF-16 units), seq and time, range-coded (chunkColumns.ts);
 * - skeleton: the payload without its chunks, the chunks that travel whole and the tool-call ids, as JSON, with
 *   long strings and integer arrays replaced by holes (`\u007f`, `\u007f\u007f`) filled from `strLens`/`ints`.
 *
 * Body bytes: flags (bit 0: meta deflated with the built-in dictionary, bit 1: text too), meta length (varint),
 * deflated meta (length-prefixed), numbers (length-prefixed), text length in UTF-8 bytes (varint), deflated text
 * (the rest; absent when empty). Meta: chunk count + 1 (0: no chunk columns), the text's UTF-16 length, then the
 * skeleton, strLens, ints and patches, each length-prefixed.
 */

const STRING_HOLE = '\u007f'
const INTS_HOLE = '\u007f\u007f'
/** Strings this long leave the skeleton for the text column (shorter ones cost less than their length there). */
const LONG_STRING = 16
/**
 * Past this size the text is deflated once, without the dictionary: the dictionary saves a few bytes, which matter
 * only to a short link, and deflate at level 9 is the encoder's main cost.
 */
const TRY_BOTH_UNDER = 256 * 1024
/** A payload without chunk columns is also tried with its strings left inline while its body is under this. */
const TRY_INLINE_UNDER = 8 * 1024
const COLUMN_INT = 2 ** 51
const CHUNK_BYTES = 16
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

export type DecodedBody =
  { readonly value: unknown } | { readonly error: string } | { readonly tooLarge: true }

/**
 * A payload (any JSON value) as v2 body bytes. `pause` is awaited between the steps of a big payload (slices of
 * its chunks, each section's deflate), so a page stays responsive; by default nothing waits.
 */
export async function encodeBody(
  payload: unknown,
  pause: () => Promise<void> = async () => {},
): Promise<Uint8Array<ArrayBuffer>> {
  const columnar = isColumnarSource(payload)
  const columns: ChunkColumns | null = columnar ? await encodeChunks(payload.source, pause) : null
  const shell = columnar ? { ...payload, source: { kind: 'chunks' } } : payload
  const body = await layout(shell, columns, LONG_STRING, pause)
  // Without chunk columns (a whole session's records), the strings may compress better beside their keys, as
  // in v1: a small payload is laid out both ways and the shorter kept (the decoder reads either).
  if (columns !== null || body.length > TRY_INLINE_UNDER) return body
  const inline = await layout(shell, null, Infinity, pause)
  return inline.length < body.length ? inline : body
}

async function layout(
  shell: unknown,
  columns: ChunkColumns | null,
  longString: number,
  pause: () => Promise<void>,
): Promise<Uint8Array<ArrayBuffer>> {
  const extracted: string[] = []
  const strLens = new ByteWriter()
  const ints = new ByteWriter()
  const stringArrays = new WeakSet<object>()
  const skeleton = JSON.stringify(
    [shell, columns?.whole ?? [], columns?.names ?? []],
    function (this: unknown, _key, value: unknown) {
      if (typeof value === 'string') {
        const inArray = longString !== Infinity && stringArrays.has(this as object)
        if (value.length < longString && value.charCodeAt(0) !== 0x7f && !inArray) return value
        extracted.push(value)
        strLens.varint(value.length)
        return STRING_HOLE
      }
      if (Array.isArray(value) && value.length >= 2) {
        if (value.every((n) => Number.isSafeInteger(n) && Math.abs(n) <= COLUMN_INT)) {
          ints.varint(value.length)
          let last = 0
          for (const n of value as number[]) {
            ints.zigzag(n - last)
            last = n
          }
          return INTS_HOLE
        }
        if (value.every((item) => typeof item === 'string')) stringArrays.add(value)
      }
      return value
    },
  )
  const text = (columns?.text ?? '') + extracted.join('')
  const patches = new ByteWriter()
  let last = 0
  for (const match of text.matchAll(LONE_SURROGATE)) {
    patches.varint(match.index - last)
    patches.varint(match[0].charCodeAt(0) - 0xd800)
    last = match.index
  }
  const meta = new ByteWriter()
  meta.varint(columns === null ? 0 : columns.count + 1)
  meta.varint(text.length)
  meta.block(new TextEncoder().encode(skeleton))
  meta.block(strLens.result())
  meta.block(ints.result())
  meta.block(patches.result())
  const metaRaw = meta.result()
  const textRaw = new TextEncoder().encode(text)
  await pause()
  // The meta section is the protocol's keys: on every corpus link it came out shorter with the dictionary.
  const packedMeta = {
    bytes: deflateSync(metaRaw, { level: 9, dictionary: SHARE_DICTIONARY }),
    dictionary: true,
  }
  await pause()
  const packedText = textRaw.length === 0 ? { bytes: new Uint8Array(0), dictionary: false } : pack(textRaw)
  const body = new ByteWriter()
  body.byte((packedMeta.dictionary ? 1 : 0) | (packedText.dictionary ? 2 : 0))
  body.varint(metaRaw.length)
  body.block(packedMeta.bytes)
  body.block(columns?.numbers(text) ?? new Uint8Array(0))
  body.varint(textRaw.length)
  body.append(packedText.bytes)
  return body.result()
}

/** The text deflated at the best level, with the built-in dictionary or without, whichever is shorter. */
function pack(raw: Uint8Array): { bytes: Uint8Array; dictionary: boolean } {
  const without = deflateSync(raw, { level: 9 })
  if (raw.length > TRY_BOTH_UNDER) return { bytes: without, dictionary: false }
  const a = deflateSync(raw, { level: 9, dictionary: SHARE_DICTIONARY })
  const b = without
  return a.length < b.length ? { bytes: a, dictionary: true } : { bytes: b, dictionary: false }
}

/**
 * Body bytes back to the payload value (not yet checked as a share: openSharePayload does that). Never throws;
 * refuses more than `maxBytes` of inflated meta and text before inflating anything.
 */
export function decodeBody(body: Uint8Array, maxBytes: number): DecodedBody {
  try {
    return decode(body, maxBytes)
  } catch (error) {
    if (error instanceof Malformed) return { error: `the link is damaged: ${error.message}` }
    throw error
  }
}

function decode(body: Uint8Array, maxBytes: number): DecodedBody {
  const outer = new ByteReader(body)
  const flags = outer.byte()
  if (flags > 3) throw new Malformed('its layout flags are unknown')
  const metaLength = outer.varint()
  const packedMeta = outer.block()
  const numbers = outer.block()
  const textLength = outer.varint()
  if (metaLength + textLength > maxBytes) return { tooLarge: true }
  const packedText = body.subarray(outer.at)
  const meta = new ByteReader(inflate(packedMeta, metaLength, (flags & 1) !== 0))
  const textBytes = textLength === 0 ? new Uint8Array(0) : inflate(packedText, textLength, (flags & 2) !== 0)
  if (textLength === 0 && packedText.length > 0) throw new Malformed('it has bytes after its end')
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
  const chunks = count < 0 ? null : decodeChunks(count, numbers, text)
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
  if (!Array.isArray(skeleton) || skeleton.length !== 3) throw new Malformed('its layout is not a v2 payload')
  const [shell, whole, names] = skeleton as [unknown, unknown, unknown]
  if (count < 0 || chunks === null) return { value: shell }
  if (!isRecord(shell) || !isRecord(shell['source']) || !Array.isArray(whole) || !Array.isArray(names))
    throw new Malformed('its layout is not a v2 payload')
  const { chunks: list, seq, time } = chunks!.build(whole, names)
  shell['source'] = { ...shell['source'], chunks: list, seq, time }
  return { value: shell }
}

function inflate(bytes: Uint8Array, length: number, dictionary: boolean): Uint8Array {
  // One byte more than announced: a stream that writes past it (fflate drops the excess) shows as too long.
  const out = new Uint8Array(length + 1)
  let inflated: Uint8Array
  try {
    inflated = inflateSync(bytes, { out, ...(dictionary ? { dictionary: SHARE_DICTIONARY } : {}) })
  } catch {
    throw new Malformed('its compressed data is corrupt')
  }
  if (inflated.length !== length) throw new Malformed('its compressed data is corrupt')
  return inflated
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
