import { Malformed, TooLarge } from './bytes'
import type { MetaParts } from './layout'
import { decodeInt, encodeInt, MixedBits } from './mixedBits'
import { RangeEncoder, type RangeDecoder } from './rangeCoder'
import type { Cuts, TextModel } from './textModel'

// The meta section of a v3 link (docs/protocol.md §14), part by part: the skeleton's JSON under the byte model
// (it ends where its outer array closes, so it needs no length), and its numbers under a number model of
// their own (v2 wrote them as varints inside deflated bytes, where each cost a byte or two of noise):
// chunk count + 1, the skeleton, one length per string hole, one list per integer-array hole (its length,
// then its differences), the lone-surrogate patches (how many, then each), the text's UTF-16 length.

const COUNT = 0
const STRING_LENGTH = 1
const LIST_LENGTH = 2
const LIST_ITEM = 3
const PATCHES = 4
const PATCH = 5
const UNITS = 6
const HOLE = 0x7f

/** The meta's number model: v3's starts from nothing, v4's primed with typical meta numbers. */
export function metaBits(v4 = false): MixedBits {
  if (!v4) return new MixedBits(2, 16, 12)
  if (primedV4 === null) {
    primedV4 = new MixedBits(2, 16, 12)
    const scratch = new RangeEncoder()
    for (const parts of TYPICAL) {
      putNumber(scratch, primedV4, parts.count, COUNT)
      putNumbers(scratch, primedV4, parts)
    }
    primedV4.soften(PRIMED_COUNT)
  }
  return primedV4.clone()
}

let primedV4: MixedBits | null = null
const PRIMED_COUNT = 3
/**
 * What v4's meta model reads first (written for Chunkscope, not measured from any log): links of a few chunks to a
 * few thousand, a file name of 20–60 characters, a failure message or two, a recorded message's seqs, no patches.
 */
const TYPICAL: readonly Omit<MetaParts, 'skeleton'>[] = [
  { count: 3, units: 90, strLens: [42, 48], ints: [], patches: [] },
  { count: 30, units: 180, strLens: [36], ints: [], patches: [] },
  { count: 160, units: 640, strLens: [28, 24], ints: [], patches: [] },
  { count: 3, units: 40, strLens: [40], ints: [], patches: [] },
  { count: 900, units: 4200, strLens: [46, 24, 24], ints: [], patches: [] },
  { count: 12, units: 420, strLens: [38, 120, 60, 70, 80], ints: [[12, 2, 2, 2, 2]], patches: [] },
  { count: 70, units: 260, strLens: [34], ints: [], patches: [] },
  { count: 2, units: 75, strLens: [44, 31], ints: [], patches: [] },
]

export async function encodeMeta(
  coder: RangeEncoder,
  model: TextModel,
  bits: MixedBits,
  parts: MetaParts,
  pause: () => Promise<void>,
  cuts?: Cuts,
): Promise<void> {
  coder.section('meta: count')
  putNumber(coder, bits, parts.count, COUNT)
  await model.encode(coder, parts.skeleton, pause, cuts)
  putNumbers(coder, bits, parts)
}

function putNumber(coder: RangeEncoder, bits: MixedBits, value: number, field: number, context = 0): void {
  encodeInt(coder, bits, value, [field, (field << 8) | context], field)
}

/** The meta's numbers after its skeleton (its count, before it, is put by the caller). */
function putNumbers(coder: RangeEncoder, bits: MixedBits, parts: Omit<MetaParts, 'skeleton'>): void {
  const put = (value: number, field: number, context = 0) => putNumber(coder, bits, value, field, context)
  coder.section('meta: string lengths')
  for (const length of parts.strLens) put(length, STRING_LENGTH)
  coder.section('meta: number lists')
  for (const list of parts.ints) {
    put(list.length, LIST_LENGTH)
    let last = 0
    for (const code of list) {
      put(code, LIST_ITEM, Math.min(last, 15))
      last = code
    }
  }
  put(parts.patches.length, PATCHES)
  for (const [at, unit] of parts.patches) {
    put(at, PATCH)
    put(unit, PATCH, 1)
  }
  coder.section('meta: text length')
  put(parts.units, UNITS)
}

/**
 * The meta parts back. `limits.bytes` caps what the model may decode for this link (past it the link is damaged),
 * `limits.maxBytes` what the caller accepts (past it the link is too large).
 */
export function decodeMeta(
  coder: RangeDecoder,
  model: TextModel,
  bits: MixedBits,
  limits: { readonly bytes: number; readonly maxBytes: number },
): MetaParts {
  const limit = Math.min(limits.bytes, limits.maxBytes)
  const get = (field: number, context = 0) => decodeInt(coder, bits, [field, (field << 8) | context], field)
  const count = get(COUNT)
  const { skeleton, strings, lists } = decodeSkeleton(coder, model, limits)
  const strLens: number[] = []
  for (let i = 0; i < strings; i++) strLens.push(get(STRING_LENGTH))
  const ints: number[][] = []
  let items = 0
  for (let i = 0; i < lists; i++) {
    const length = get(LIST_LENGTH)
    // Every item costs the decoder a step: no more of them than the link may hold bytes.
    if ((items += length) > limit) throw new Malformed('its number lists are longer than a link may hold')
    const list: number[] = []
    let last = 0
    for (let j = 0; j < length; j++) list.push((last = get(LIST_ITEM, Math.min(last, 15))))
    ints.push(list)
  }
  const patchCount = get(PATCHES)
  if (patchCount > limit) throw new Malformed('its text patches are more than a link may hold')
  const patches: [number, number][] = []
  for (let i = 0; i < patchCount; i++) patches.push([get(PATCH), get(PATCH, 1)])
  return { count, units: get(UNITS), skeleton, strLens, ints, patches }
}

/**
 * The skeleton's bytes from the model, up to where its outer array closes, counting the string holes (`"\x7f"`)
 * and integer-array holes (`"\x7f\x7f"`) on the way: a string of the payload that starts with U+007F never stays
 * in the skeleton, so a string of exactly those bytes is a hole.
 */
function decodeSkeleton(
  coder: RangeDecoder,
  model: TextModel,
  limits: { readonly bytes: number; readonly maxBytes: number },
): { skeleton: Uint8Array; strings: number; lists: number } {
  const out: number[] = []
  let depth = 0
  let inString = false
  let escaped = false
  let start = 0
  let strings = 0
  let lists = 0
  do {
    if (out.length >= limits.maxBytes) throw new TooLarge()
    if (out.length >= limits.bytes) throw new Malformed('its skeleton is longer than a link may hold')
    const byte = model.decodeByte(coder)
    out.push(byte)
    if (inString) {
      if (escaped) escaped = false
      else if (byte === 0x5c) escaped = true
      else if (byte === 0x22) {
        inString = false
        const length = out.length - 1 - start
        if (length === 1 && out[start] === HOLE) strings++
        if (length === 2 && out[start] === HOLE && out[start + 1] === HOLE) lists++
      }
    } else if (byte === 0x22) {
      inString = true
      start = out.length
    } else if (byte === 0x5b || byte === 0x7b) depth++
    else if (byte === 0x5d || byte === 0x7d) depth--
    else if (out.length === 1) throw new Malformed('its skeleton is not a JSON array')
  } while (depth > 0)
  return { skeleton: Uint8Array.from(out), strings, lists }
}
