import { deflateSync, inflateSync } from 'fflate'
import { ByteReader, ByteWriter, Malformed } from './bytes'
import { SHARE_DICTIONARY } from './dictionary'
import { layOut, LONG_STRING, readSections, splitPayload, type DecodedBody, type Sections } from './layout'

/**
 * The body of a v2 share link (docs/protocol.md §14): the columnar layout of layout.ts, its meta and text
 * sections deflated, its numbers range-coded on their own.
 *
 * Body bytes: flags (bit 0: meta deflated with the built-in dictionary, bit 1: text too), meta length (varint),
 * deflated meta (length-prefixed), numbers (length-prefixed), text length in UTF-8 bytes (varint), deflated text
 * (the rest; absent when empty). New links are v3 (codecV3.ts); this stays to write the fixtures' equals and to
 * open every v2 link ever made.
 */

export type { DecodedBody } from './layout'

/**
 * Past this size the text is deflated once, without the dictionary: the dictionary saves a few bytes, which matter
 * only to a short link, and deflate at level 9 is the encoder's main cost.
 */
const TRY_BOTH_UNDER = 256 * 1024
/** A payload without chunk columns is also tried with its strings left inline while its body is under this. */
const TRY_INLINE_UNDER = 8 * 1024

/**
 * A payload (any JSON value) as v2 body bytes. `pause` is awaited between the steps of a big payload (slices of
 * its chunks, each section's deflate), so a page stays responsive; by default nothing waits.
 */
export async function encodeBody(
  payload: unknown,
  pause: () => Promise<void> = async () => {},
): Promise<Uint8Array<ArrayBuffer>> {
  const { shell, columns } = await splitPayload(payload, pause)
  const body = await pack(layOut(shell, columns, LONG_STRING), pause)
  // Without chunk columns (a whole session's records), the strings may compress better beside their keys, as
  // in v1: a small payload is laid out both ways and the shorter kept (the decoder reads either).
  if (columns !== null || body.length > TRY_INLINE_UNDER) return body
  const inline = await pack(layOut(shell, null, Infinity), pause)
  return inline.length < body.length ? inline : body
}

async function pack(sections: Sections, pause: () => Promise<void>): Promise<Uint8Array<ArrayBuffer>> {
  const { meta, text, textString, columns } = sections
  await pause()
  // The meta section is the protocol's keys: on every corpus link it came out shorter with the dictionary.
  const packedMeta = deflateSync(meta, { level: 9, dictionary: SHARE_DICTIONARY })
  await pause()
  const packedText = text.length === 0 ? { bytes: new Uint8Array(0), dictionary: false } : deflateText(text)
  const body = new ByteWriter()
  body.byte(1 | (packedText.dictionary ? 2 : 0))
  body.varint(meta.length)
  body.block(packedMeta)
  body.block(columns?.numbers(textString) ?? new Uint8Array(0))
  body.varint(text.length)
  body.append(packedText.bytes)
  return body.result()
}

/** The text deflated at the best level, with the built-in dictionary or without, whichever is shorter. */
function deflateText(raw: Uint8Array): { bytes: Uint8Array; dictionary: boolean } {
  const without = deflateSync(raw, { level: 9 })
  if (raw.length > TRY_BOTH_UNDER) return { bytes: without, dictionary: false }
  const a = deflateSync(raw, { level: 9, dictionary: SHARE_DICTIONARY })
  return a.length < without.length ? { bytes: a, dictionary: true } : { bytes: without, dictionary: false }
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
  const meta = inflate(packedMeta, metaLength, (flags & 1) !== 0)
  const textBytes = textLength === 0 ? new Uint8Array(0) : inflate(packedText, textLength, (flags & 2) !== 0)
  if (textLength === 0 && packedText.length > 0) throw new Malformed('it has bytes after its end')
  return readSections(meta, textBytes, numbers, maxBytes)
}

export function inflate(bytes: Uint8Array, length: number, dictionary: boolean): Uint8Array {
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
