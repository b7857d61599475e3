import xxhash from 'xxhash-wasm'
import { formatBytes, OutputBudget } from './limits'
import type { Diagnostic } from './types'
import { decodeUtf8 } from './utf8'
import { decodeFrame, type FrameContent } from './zstdDecode'

/**
 * `session.jsonl.zstd` (docs/protocol.md §8): independent Zstandard frames, one per write batch, each with a content
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
  /** Offset of the first block header (the end of the frame header); 0 for a skippable frame or a cut header. */
  readonly blocksAt: number
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
    blocksAt: 0,
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
    blocksAt: headerEnd,
  }
  for (;;) {
    if (at + 3 > bytes.length)
      return {
        ...described,
        blocks,
        contentBound,
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
        contentBound,
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

export type ZstdReadOptions = {
  /** The file's decompression allowance (limits.ts); a fresh {@link MAX_DECOMPRESSED_BYTES} one by default. */
  readonly budget?: OutputBudget
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
 * complete lines are kept. Only one frame's decompressed bytes are alive at a time besides the text, and the
 * output stops at the budget (limits.ts): the frame that reaches it keeps its complete lines, and a diagnostic
 * names the cap, that frame and what was not read after it.
 *
 * @example
 * const { text, diagnostics } = await readZstdFrames(bytes)
 * // diagnostics: [{ byte: 5120, severity: 'error', message: 'zstd frame 7 at byte 5120: content checksum …' }]
 */
export async function readZstdFrames(bytes: Uint8Array, options: ZstdReadOptions = {}): Promise<ZstdRead> {
  const budget = options.budget ?? new OutputBudget()
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
    let decoded: FrameContent
    try {
      decoded = decodeFrame(bytes, frame, budget.left)
    } catch (error) {
      report(
        frame,
        'error',
        `cannot be decompressed (${error instanceof Error ? error.message : String(error)}); frame skipped`,
      )
      continue
    }
    const { content } = decoded
    budget.spend(content.length)
    const capped = decoded.blocks < frame.blocks
    if (frame.torn !== null || capped) {
      const complete = content.subarray(0, content.lastIndexOf(10) + 1)
      const lines = countNewlines(complete)
      const text = lines > 0 ? decodeFrameText(complete, frame, report) : ''
      if (text) parts.push(text)
      const kept =
        lines > 0
          ? `kept the ${lines} complete line${lines === 1 ? '' : 's'} of its ${capped ? 'first ' : ''}${decoded.blocks} ${capped ? '' : 'whole '}block${decoded.blocks === 1 ? '' : 's'}`
          : null
      if (capped) {
        const after = frames.length - frame.index
        report(
          frame,
          'error',
          `the file's decompressed content reached the ${formatBytes(budget.limit)} cap (limits.ts), so it was cut: ` +
            `${kept ?? 'no complete line fits'}; the rest of this frame and ${after === 0 ? 'nothing after it' : `the ${after} frame${after === 1 ? '' : 's'} after it (${bytes.length - frame.end} compressed bytes)`} are not read`,
        )
        break
      }
      report(
        frame,
        'warning',
        `torn tail: the last frame is cut short (${frame.torn}, ${frame.end - frame.start} bytes present); ` +
          (kept !== null
            ? `${kept}, dropped the rest (${content.length - complete.length} decompressed bytes and the cut block)`
            : content.length > 0
              ? `its ${content.length} decompressed bytes hold no complete line; dropped`
              : 'no complete block to recover; dropped'),
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

/**
 * Decompresses one Zstandard frame given alone, checking its checksum when it has one (SQLite `data` BLOBs). A frame
 * whose content could pass what is left of `budget` is refused (a problem, no content) rather than cut.
 */
export async function decompressZstdFrame(
  frame: Uint8Array,
  budget = new OutputBudget(),
): Promise<{ content: Uint8Array; problem: string | null }> {
  const walked = walkFrame(frame, 0, 1)
  if (walked.torn !== null) throw new Error(`the zstd frame is cut short (${walked.torn})`)
  if (walked.contentBound > budget.left) {
    const problem = `could decompress to ${formatBytes(walked.contentBound)}, past what is left of the file's ${formatBytes(budget.limit)} cap (limits.ts)`
    return { content: new Uint8Array(0), problem }
  }
  const { content } = decodeFrame(frame, walked, budget.left)
  budget.spend(content.length)
  if (!walked.checksum) return { content, problem: null }
  const stored = u32(frame, walked.end - 4)
  const actual = await zstdContentChecksum(content)
  return {
    content,
    problem:
      stored === actual ? null : `content checksum mismatch (stored ${hex(stored)}, computed ${hex(actual)})`,
  }
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
  // A plain loop: indexOf per line costs a call per line, seconds for a frame of a quarter-billion newlines.
  let count = 0
  for (let at = 0; at < bytes.length; at++) if (bytes[at] === 10) count++
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
