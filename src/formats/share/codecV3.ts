import { deflateSync } from 'fflate'
import { ByteWriter, Malformed, TooLarge } from './bytes'
import { inflate } from './codecV2'
import { SHARE_DICTIONARY } from './dictionary'
import {
  layOut,
  LONG_STRING,
  metaBytes,
  readSections,
  splitPayload,
  type DecodedBody,
  type Sections,
} from './layout'
import { decodeMeta, encodeMeta, metaBits } from './metaV3'
import { IntModel, RangeDecoder, RangeEncoder, type Meter } from './rangeCoder'
import { primedState, TextModel, type Cuts } from './textModel'
import { SHARE_PRIMER, SHARE_PRIMER_V4 } from './primer'
import { NumberColumnsV3 } from './numberColumnsV3'
import type { ChunkColumns, NumberModel } from './chunkColumns'
import { OPS_V5 } from './numberColumns'
import { absolute, leaveImplied } from './implied'
import { IdColumn } from './idColumn'

/**
 * The body of a v3 share link (docs/protocol.md §14): the columnar layout of layout.ts (as v2), all of it in one
 * range-coded stream, so no section pays for its own length prefix or coder flush:
 *
 * 1. two flags (meta deflated, text deflated), each a bit at fixed odds of 1 in 64;
 * 2. the meta section part by part (metaV3.ts): its skeleton under the byte model (textModel.ts), its numbers
 *    under a number model; or the v2 meta bytes deflated with the built-in dictionary: their length, the
 *    deflated length and the deflated bytes at even odds;
 * 3. the text's UTF-8 bytes under the same model, carrying on from the meta, up to the UTF-16 length the meta
 *    gives; or deflated (without the dictionary) as for the meta;
 * 4. the chunk numbers (numberColumnsV3.ts), coded against the text.
 *
 * The coder ends on the shortest number its last interval allows and leaves out the trailing zeros of its last 4
 * bytes (the decoder reads up to 4 zeros past the end).
 */

/**
 * Sections this long or longer are deflated instead: the byte model costs about a microsecond a bit, and
 * deflate does nearly as well on a long text. The decoder refuses to model more than this, so a crafted link
 * cannot keep it busy.
 */
const MODEL_UNDER = 64 * 1024
/**
 * A modelled section holds at most this many bytes per byte of the link (plus MODEL_SLACK): the decoder stops a
 * crafted link there, long before MODEL_UNDER, and the encoder deflates a text that compresses better than this
 * (a run of one character) so that its link stays within the rule.
 */
const MODEL_RATIO = 64
const MODEL_SLACK = 4096
/** A payload without chunk columns is also tried with its strings left inline while its body is under this. */
const TRY_INLINE_UNDER = 8 * 1024
/** The flags' odds of being set, in 4096ths: a deflated section is rare, so a plain link pays ~0.05 bit. */
const FLAG_ODDS = 64
const v3Numbers: NumberModel = (text) => new NumberColumnsV3(text)
const v5Numbers: NumberModel = (text) => new NumberColumnsV3(text, OPS_V5)
const numbersOf = (version: BodyVersion) => (version === 5 ? v5Numbers : v3Numbers)
const PACKED_LENGTH = 0
const PACKED_SIZE = 1

/** A payload (any JSON value) as v3 body bytes; `pause` is awaited between the steps of a big payload. */
/**
 * The link versions this body serves: v4 is v3 with a longer primer (primer.ts: the protocol's own chunk shapes,
 * failure codes and messages after v3's), read by the same models; v5 is v4 with the recorded message coded
 * against the chunks (recordedDiff.ts) and more chunk shapes in columns (chunkColumns.ts).
 */
export type BodyVersion = 3 | 4 | 5

// v5 reads with v4's primer: what it adds is coded outside the byte model (or, for a recorded message, in fewer
// bytes), and a longer primer made the corpus's links longer, not shorter.
const primerOf = (version: BodyVersion) => (version === 3 ? SHARE_PRIMER : SHARE_PRIMER_V4)

export async function encodeBodyV3(
  payload: unknown,
  pause: () => Promise<void> = async () => {},
  version: BodyVersion = 3,
): Promise<Uint8Array<ArrayBuffer>> {
  const { shell, columns } = await splitPayload(payload, pause, version === 5)
  const body = await pack(layOutAs(payload, shell, columns, version), pause, version)
  // As in v2: a whole session's records may compress better with their strings beside their keys.
  if (columns !== null || body.length > TRY_INLINE_UNDER) return body
  const inline = await pack(layOut(shell, null, Infinity), pause, version)
  return inline.length < body.length ? inline : body
}

/** The layout of a payload with chunk columns; v4 leaves out what the stream implies (implied.ts). */
function layOutAs(
  payload: unknown,
  shell: unknown,
  columns: ChunkColumns | null,
  version: BodyVersion,
): Sections {
  if (version === 3 || columns === null) return layOut(shell, columns, LONG_STRING)
  const { seq, chunks } = (payload as { source: { seq: readonly number[]; chunks: readonly unknown[] } })
    .source
  const seqs = absolute(seq)
  const left = leaveImplied(shell, seqs.at(-1) ?? 0, version === 5 ? { chunks, seqs } : undefined)
  return layOut(left.shell, columns, LONG_STRING, left.implied)
}

async function pack(
  sections: Sections,
  pause: () => Promise<void>,
  version: BodyVersion,
): Promise<Uint8Array<ArrayBuffer>> {
  const { meta, text } = sections
  const metaPacked = meta.length >= MODEL_UNDER
  const textPacked = text.length >= MODEL_UNDER
  const body = await packAs(sections, metaPacked, textPacked, pause, version)
  const modelled = (metaPacked ? 0 : meta.length) + (textPacked ? 0 : text.length)
  if (modelledLimit(body.length) >= modelled) return body
  return packAs(sections, true, true, pause, version)
}

/** How many bytes a body of `length` bytes may decode from the model (see MODEL_RATIO). */
const modelledLimit = (length: number) => Math.min(MODEL_UNDER, MODEL_RATIO * length + MODEL_SLACK)

async function packAs(
  sections: Sections,
  metaPacked: boolean,
  textPacked: boolean,
  pause: () => Promise<void>,
  version: BodyVersion,
  measure?: { readonly meter: Meter; readonly skeleton: Cuts; readonly text: Cuts },
): Promise<Uint8Array<ArrayBuffer>> {
  const { meta, text, textString, columns } = sections
  const coder = new RangeEncoder()
  coder.meter = measure?.meter ?? null
  const header = new IntModel(2)
  const model = new TextModel(primedState(primerOf(version)))
  coder.section('flags')
  coder.bitAt(FLAG_ODDS, metaPacked ? 1 : 0)
  coder.bitAt(FLAG_ODDS, textPacked ? 1 : 0)
  if (metaPacked) raw(coder, header, meta, deflateSync(meta, { level: 9, dictionary: SHARE_DICTIONARY }))
  else await encodeMeta(coder, model, metaBits(version >= 4), sections.parts, pause, measure?.skeleton)
  await pause()
  if (textPacked) raw(coder, header, text, deflateSync(text, { level: 9 }))
  else await model.encode(coder, text, pause, measure?.text)
  await pause()
  await columns?.codeNumbers(coder, textString, numbersOf(version), pause)
  if (version === 5 && columns !== null) {
    coder.section('numbers: tool ids')
    const ids = new IdColumn()
    for (const { id, apart } of columns.newIds) ids.encode(coder, id, apart)
  }
  return new Uint8Array(coder.finishShort())
}

/**
 * What a payload's v3 body spends its bits on (the share bench's breakdown): its bytes, and the bits by section,
 * the skeleton's and the text's bytes split where `cut` says. The body is the one encodeBodyV3 writes for a
 * payload with chunk columns.
 */
export async function measureBodyV3(
  payload: unknown,
  cut: (sections: Sections) => { readonly skeleton: Cuts; readonly text: Cuts },
  version: BodyVersion = 5,
): Promise<{ readonly bytes: number; readonly bits: Map<string, number> }> {
  const { shell, columns } = await splitPayload(payload, async () => {}, version === 5)
  const sections = layOutAs(payload, shell, columns, version)
  const meter: Meter = { section: '', bits: new Map() }
  const measure = { meter, ...cut(sections) }
  const bytes = await packAs(sections, false, false, async () => {}, version, measure)
  return { bytes: bytes.length, bits: meter.bits }
}

/** A deflated section inside the coded stream: its length, the deflated length, each bit at even odds. */
function raw(coder: RangeEncoder, header: IntModel, bytes: Uint8Array, deflated: Uint8Array): void {
  header.encode(coder, bytes.length, PACKED_LENGTH)
  header.encode(coder, deflated.length, PACKED_SIZE)
  for (const byte of deflated) for (let b = 7; b >= 0; b--) coder.direct((byte >> b) & 1)
}

/**
 * v3 body bytes back to the payload value (checked as a share later by openSharePayload). Never throws; refuses
 * more than `maxBytes` of meta and text before decoding them.
 */
export function decodeBodyV3(body: Uint8Array, maxBytes: number, version: BodyVersion = 3): DecodedBody {
  try {
    return decode(body, maxBytes, version)
  } catch (error) {
    if (error instanceof Malformed) return { error: `the link is damaged: ${error.message}` }
    if (error instanceof TooLarge) return { tooLarge: true }
    throw error
  }
}

function decode(body: Uint8Array, maxBytes: number, version: BodyVersion): DecodedBody {
  // Up to 4 zeros past the end (the encoder's flush leaves its trailing zeros out, no more).
  const coder = new RangeDecoder(body)
  const header = new IntModel(2)
  const model = new TextModel(primedState(primerOf(version)))
  const metaPacked = coder.bitAt(FLAG_ODDS) === 1
  const textPacked = coder.bitAt(FLAG_ODDS) === 1
  const limit = modelledLimit(body.length)
  const meta = metaPacked
    ? unpack(coder, header, body.length, maxBytes, true)
    : metaBytes(decodeMeta(coder, model, metaBits(version >= 4), { bytes: limit, maxBytes }))
  // The meta's second number is the text's length in UTF-16 units: at least a third of its UTF-8 bytes.
  const units = secondVarint(meta)
  if (meta.length + units > maxBytes) throw new TooLarge()
  const text = textPacked
    ? unpack(coder, header, body.length, maxBytes - meta.length, false)
    : modelledText(coder, model, units, Math.min(limit, maxBytes) - (metaPacked ? 0 : meta.length))
  return readSections(meta, text, coder, maxBytes, numbersOf(version), version)
}

function unpack(
  coder: RangeDecoder,
  header: IntModel,
  bodyLength: number,
  maxBytes: number,
  dictionary: boolean,
): Uint8Array {
  const length = header.decode(coder, PACKED_LENGTH)
  if (length > maxBytes) throw new TooLarge()
  const size = header.decode(coder, PACKED_SIZE)
  if (size > bodyLength) throw new Malformed('a section runs past the link')
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) {
    let byte = 0
    for (let b = 0; b < 8; b++) byte = (byte << 1) | coder.direct()
    bytes[i] = byte
  }
  return inflate(bytes, length, dictionary)
}

function secondVarint(meta: Uint8Array): number {
  let at = 0
  while ((meta[at] ?? 0) >= 128) at++
  let value = 0
  let scale = 1
  for (at++; at < meta.length; at++) {
    value += (meta[at]! % 128) * scale
    if (meta[at]! < 128) return value
    scale *= 128
  }
  throw new Malformed('its meta section is cut short')
}

/** UTF-8 bytes from the model until they make `units` UTF-16 units. */
function modelledText(coder: RangeDecoder, model: TextModel, units: number, limit: number): Uint8Array {
  const out = new ByteWriter()
  let count = 0
  while (count < units) {
    const lead = model.decodeByte(coder)
    const follow = lead < 0x80 ? 0 : lead >= 0xc0 && lead < 0xe0 ? 1 : lead >= 0xe0 && lead < 0xf0 ? 2 : 3
    if ((lead >= 0x80 && lead < 0xc0) || lead >= 0xf8) throw new Malformed('its text is not valid UTF-8')
    if (out.length + 1 + follow > limit) throw new Malformed('its text is longer than a link may hold')
    out.byte(lead)
    for (let i = 0; i < follow; i++) out.byte(model.decodeByte(coder))
    count += follow === 3 ? 2 : 1
  }
  if (count !== units) throw new Malformed('its text has the wrong length')
  return out.result()
}
