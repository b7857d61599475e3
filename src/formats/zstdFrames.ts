import { decompress, Decompress } from 'fzstd'
import xxhash from 'xxhash-wasm'
import type { Diagnostic } from './types'
import { decodeUtf8 } from './utf8'

/**
 * `session.jsonl.zstd` (PROTOCOL.md §8): independent Zstandard frames, one per write batch, each with a content
 * checksum. We walk the frames ourselves (RFC 8878 frame and block headers) to know each frame's extent, hand each
 * whole frame to fzstd for the entropy decoding, and check the checksum (low 32 bits of XXH64, via xxhash-wasm):
 * fzstd alone decodes concatenated frames but never checks a checksum and throws everything away when the last
 * frame is cut short.
 */

/** One frame as laid out in the file; offsets are bytes from the start of the input. */
export type ZstdFrame = {
  /** 1-based position among the frames (skippable frames count too). */
  readonly index: number
  readonly start: number
  /** One past the frame's last byte; for a frame cut short, the end of the input. */
  readonly end: number
  readonly kind: 'zstd' | 'skippable'
  readonly checksum: boolean
  readonly dictionaryId: number
  /** Frame_Content_Size when the header carries it. */
  readonly contentSize: number | null
  /** Blocks wholly present. */
  readonly blocks: number
  /** Most bytes the whole blocks can decompress to (exact for stored and RLE blocks, 128 KiB per compressed one). */
  readonly contentBound: number
  /** Offset of the Window_Descriptor byte, or null in single-segment mode (the window is the content size). */
  readonly windowAt: number | null
  /** Why the frame is cut short, or null when all of it is present. */
  readonly torn: string | null
}

export type ZstdWalk = {
  readonly frames: ZstdFrame[]
  /** Offset where bytes stop being frames (trailing garbage), or null when the frames fill the input. */
  readonly garbageAt: number | null
}

export const ZSTD_MAGIC = 0xfd2fb528
const MAX_BLOCK = 128 << 10

/** Whether the bytes start with a Zstandard frame or a skippable frame. */
export function isZstd(bytes: Uint8Array, at = 0): boolean {
  if (bytes.length < at + 4) return false
  const magic = u32(bytes, at)
  return magic === ZSTD_MAGIC || (magic & 0xfffffff0) >>> 0 === 0x184d2a50
}

/** The extent of every frame, from headers alone (nothing is decompressed). */
export function walkZstdFrames(bytes: Uint8Array): ZstdWalk {
  const frames: ZstdFrame[] = []
  let at = 0
  while (at < bytes.length) {
    if (!isZstd(bytes, at)) return { frames, garbageAt: at }
    const frame = walkFrame(bytes, at, frames.length + 1)
    frames.push(frame)
    if (frame.torn !== null) break
    at = frame.end
  }
  return { frames, garbageAt: null }
}

function walkFrame(bytes: Uint8Array, start: number, index: number): ZstdFrame {
  const base = {
    index,
    start,
    checksum: false,
    dictionaryId: 0,
    contentSize: null,
    blocks: 0,
    contentBound: 0,
    windowAt: null,
  }
  const cut = (why: string): ZstdFrame => ({ ...base, kind: 'zstd', end: bytes.length, torn: why })
  if (u32(bytes, start) !== ZSTD_MAGIC) {
    if (start + 8 > bytes.length)
      return { ...base, kind: 'skippable', end: bytes.length, torn: 'its size field is cut' }
    const end = start + 8 + u32(bytes, start + 4)
    const torn = end > bytes.length ? 'its data is cut' : null
    return { ...base, kind: 'skippable', end: Math.min(end, bytes.length), torn }
  }
  if (start + 5 > bytes.length) return cut('its header is cut')
  const descriptor = bytes[start + 4]!
  const fcsFlag = descriptor >> 6
  const singleSegment = (descriptor >> 5) & 1
  const checksum = ((descriptor >> 2) & 1) === 1
  const dictFlag = descriptor & 3
  const dictBytes = dictFlag === 3 ? 4 : dictFlag
  const fcsBytes = fcsFlag === 0 ? singleSegment : 1 << fcsFlag
  let at = start + 5 + (singleSegment ? 0 : 1)
  const headerEnd = at + dictBytes + fcsBytes
  if (headerEnd > bytes.length) return cut('its header is cut')
  const dictionaryId = readLE(bytes, at, dictBytes)
  at += dictBytes
  const contentSize = fcsBytes === 0 ? null : readLE(bytes, at, fcsBytes) + (fcsBytes === 2 ? 256 : 0)
  at = headerEnd
  let blocks = 0
  let contentBound = 0
  const described = {
    ...base,
    checksum,
    dictionaryId,
    contentSize,
    windowAt: singleSegment ? null : start + 5,
  }
  for (;;) {
    if (at + 3 > bytes.length)
      return {
        ...described,
        blocks,
        kind: 'zstd',
        end: bytes.length,
        torn: `block ${blocks + 1}'s header is cut`,
      }
    const header = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
    const last = header & 1
    const type = (header >> 1) & 3
    const size = header >>> 3
    const next = at + 3 + (type === 1 ? 1 : size)
    if (type === 3) {
      // A reserved block type: the frame is corrupt, not cut; nothing after it can be located.
      return {
        ...described,
        blocks,
        kind: 'zstd',
        end: bytes.length,
        torn: `block ${blocks + 1} has the reserved type 3`,
      }
    }
    if (next > bytes.length)
      return {
        ...described,
        blocks,
        contentBound,
        kind: 'zstd',
        end: bytes.length,
        torn: `block ${blocks + 1} is cut`,
      }
    blocks += 1
    contentBound += type === 2 ? MAX_BLOCK : size
    at = next
    if (last) break
  }
  const end = at + (checksum ? 4 : 0)
  if (end > bytes.length)
    return {
      ...described,
      blocks,
      contentBound,
      kind: 'zstd',
      end: bytes.length,
      torn: 'its content checksum is cut',
    }
  return { ...described, blocks, contentBound, kind: 'zstd', end, torn: null }
}

export type ZstdRead = {
  /** The decompressed text of every readable frame, in order (a torn tail contributes its complete lines only). */
  readonly text: string
  readonly diagnostics: Diagnostic[]
  readonly frames: number
}

let hasher: ReturnType<typeof xxhash> | null = null

/** Low 32 bits of XXH64 (seed 0): the Zstandard content checksum. */
export async function zstdContentChecksum(content: Uint8Array): Promise<number> {
  hasher ??= xxhash()
  const { h64Raw } = await hasher
  return Number(BigInt.asUintN(32, h64Raw(content)))
}

/**
 * Decompresses a `session.jsonl.zstd` frame by frame, leniently: a checksum mismatch or an undecodable frame is
 * reported (frame index and byte offset) and reading goes on; a final frame cut short is a torn tail whose
 * complete lines are kept. Only one frame's decompressed bytes are alive at a time besides the text.
 *
 * @example
 * const { text, diagnostics } = await readZstdFrames(bytes)
 * // diagnostics: [{ byte: 5120, severity: 'error', message: 'zstd frame 7 at byte 5120: content checksum …' }]
 */
export async function readZstdFrames(bytes: Uint8Array): Promise<ZstdRead> {
  const { frames, garbageAt } = walkZstdFrames(bytes)
  const diagnostics: Diagnostic[] = []
  const parts: string[] = []
  const report = (frame: ZstdFrame, severity: Diagnostic['severity'], message: string) =>
    diagnostics.push({
      byte: frame.start,
      severity,
      message: `zstd frame ${frame.index} at byte ${frame.start}: ${message}`,
    })

  for (const frame of frames) {
    if (frame.kind === 'skippable') {
      report(
        frame,
        'info',
        `skippable frame of ${frame.end - frame.start} bytes${frame.torn ? ` (${frame.torn})` : ''}; skipped`,
      )
      continue
    }
    if (frame.dictionaryId !== 0) {
      report(
        frame,
        'error',
        `needs dictionary ${frame.dictionaryId}, which the file does not carry; frame skipped`,
      )
      continue
    }
    if (frame.torn !== null) {
      const recovered = recoverTorn(withSmallWindow(bytes, frame))
      const lines = countNewlines(recovered.complete)
      const text = lines > 0 ? decodeFrameText(recovered.complete, frame, report) : ''
      if (text) parts.push(text)
      report(
        frame,
        'warning',
        `torn tail: the last frame is cut short (${frame.torn}, ${frame.end - frame.start} bytes present); ` +
          (lines > 0
            ? `kept the ${lines} complete line${lines === 1 ? '' : 's'} of its ${frame.blocks} whole block${frame.blocks === 1 ? '' : 's'}, dropped the rest (${recovered.dropped} decompressed bytes and the cut block)`
            : recovered.decoded > 0
              ? `its ${recovered.decoded} decompressed bytes hold no complete line; dropped`
              : 'no complete block to recover; dropped'),
      )
      continue
    }
    let content: Uint8Array
    try {
      content = decompress(withSmallWindow(bytes, frame))
    } catch (error) {
      report(
        frame,
        'error',
        `cannot be decompressed (${error instanceof Error ? error.message : String(error)}); frame skipped`,
      )
      continue
    }
    if (frame.contentSize !== null && content.length !== frame.contentSize) {
      report(frame, 'warning', `holds ${content.length} bytes but its header says ${frame.contentSize}`)
    }
    if (frame.checksum) {
      const stored = u32(bytes, frame.end - 4)
      const actual = await zstdContentChecksum(content)
      if (stored !== actual) {
        report(
          frame,
          'error',
          `content checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)}): the frame is corrupt; its content is shown anyway`,
        )
      }
    }
    const text = decodeFrameText(content, frame, report)
    if (text) parts.push(text)
  }
  if (garbageAt !== null) {
    diagnostics.push({
      byte: garbageAt,
      severity: 'error',
      message: `zstd: byte ${garbageAt} does not start a Zstandard frame; the remaining ${bytes.length - garbageAt} bytes are skipped`,
    })
  }
  return { text: parts.join(''), diagnostics, frames: frames.length }
}

/** Decompresses one Zstandard frame given alone, checking its checksum when it has one (SQLite `data` BLOBs). */
export async function decompressZstdFrame(
  frame: Uint8Array,
): Promise<{ content: Uint8Array; problem: string | null }> {
  const walked = walkFrame(frame, 0, 1)
  if (walked.torn !== null) throw new Error(`the zstd frame is cut short (${walked.torn})`)
  const content = decompress(withSmallWindow(frame, walked))
  if (!walked.checksum) return { content, problem: null }
  const stored = u32(frame, walked.end - 4)
  const actual = await zstdContentChecksum(content)
  return {
    content,
    problem:
      stored === actual ? null : `content checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)})`,
  }
}

/**
 * The frame's bytes, with its Window_Descriptor lowered to fit its content when that is far smaller. Frames written
 * without a content size declare the compressor's window (8 MiB at level 19), and fzstd then allocates that window
 * per frame and shifts all of it after every block: milliseconds per frame, seconds for a log of a few thousand
 * batches. A frame's back-references never reach before its own start (frames are independent), so any window of at
 * least its content size decodes it identically. Copies only the frame's compressed bytes, and only when it helps.
 */
function withSmallWindow(bytes: Uint8Array, frame: ZstdFrame): Uint8Array {
  const view = bytes.subarray(frame.start, frame.end)
  if (frame.windowAt === null) return view
  const descriptor = bytes[frame.windowAt]!
  const exponent = descriptor >> 3
  const declared = (1 << (10 + exponent)) + (1 << (7 + exponent)) * (descriptor & 7)
  let fit = 0
  while (fit < 31 && 1 << (10 + fit) < frame.contentBound) fit++
  if ((1 << (10 + fit)) * 4 > declared) return view
  const copy = view.slice()
  copy[frame.windowAt - frame.start] = fit << 3
  return copy
}

/** The decompressed content of a frame's whole blocks, cut after its last `\n`. */
function recoverTorn(frame: Uint8Array): { complete: Uint8Array; decoded: number; dropped: number } {
  const pieces: Uint8Array[] = []
  let decoded = 0
  try {
    // fzstd's streaming decoder hands out each block once it is whole and keeps a cut block to itself.
    const stream = new Decompress((piece) => {
      pieces.push(piece)
      decoded += piece.length
    })
    stream.push(frame, false)
  } catch {
    // A corrupt block: keep what came before it.
  }
  const content = new Uint8Array(decoded)
  let offset = 0
  for (const piece of pieces) {
    content.set(piece, offset)
    offset += piece.length
  }
  const lastNewline = content.lastIndexOf(10)
  const complete = content.subarray(0, lastNewline + 1)
  return { complete, decoded, dropped: decoded - complete.length }
}

function decodeFrameText(
  content: Uint8Array,
  frame: ZstdFrame,
  report: (frame: ZstdFrame, severity: Diagnostic['severity'], message: string) => void,
): string {
  const { text, invalidAt } = decodeUtf8(content)
  if (invalidAt !== -1) {
    report(frame, 'error', `invalid UTF-8 at byte ${invalidAt} of its content; bad bytes shown as U+FFFD`)
  }
  return text
}

function countNewlines(bytes: Uint8Array): number {
  let count = 0
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count++
  return count
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
}

/** Little-endian unsigned integer of 0–8 bytes (8-byte sizes past 2^53 lose precision, which no real frame has). */
function readLE(bytes: Uint8Array, at: number, count: number): number {
  let value = 0
  for (let k = count - 1; k >= 0; k--) value = value * 256 + bytes[at + k]!
  return value
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`
}
