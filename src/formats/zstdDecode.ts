import { decompress } from 'fzstd'
import type { ZstdFrame } from './zstdFrames'

/**
 * Decoding one Zstandard frame (RFC 8878) in bounded memory. fzstd decodes a whole frame at once into a buffer it
 * sizes from the header (the declared content size: a 20-byte frame may declare 2 GiB) or, streaming, shifts its
 * whole window after every block (quadratic for a big frame). Here the frame's blocks are chosen by their bound
 * (exact for raw and RLE blocks, 128 KiB for a compressed one) so the output never passes `max`, and decoded into
 * one buffer of that bound: linear time, memory = what is kept.
 */

const MAX_BLOCK = 128 << 10
/** Frames bounded by this decode through fzstd's own allocation (cheap for the thousands of small batch frames). */
const SMALL_FRAME = 1 << 20

export type FrameContent = {
  /** The decompressed bytes of the frame's first `blocks` whole blocks. */
  readonly content: Uint8Array
  /** Blocks decoded: fewer than `frame.blocks` when `max` stopped the decoding. */
  readonly blocks: number
}

/**
 * The content of the frame's whole blocks, at most `max` bytes: blocks are taken in order while their bounds fit.
 * Throws fzstd's error when the data is corrupt.
 */
export function decodeFrame(bytes: Uint8Array, frame: ZstdFrame, max: number): FrameContent {
  const honest = frame.contentSize === null || frame.contentSize <= frame.contentBound
  if (frame.torn === null && honest && frame.contentBound <= Math.min(max, SMALL_FRAME))
    return { content: decompress(withSmallWindow(bytes, frame)), blocks: frame.blocks }
  return decodeBlocks(bytes, frame, max)
}

/**
 * Decodes a copy of the frame holding only the chosen blocks, then an RLE block of 128 KiB zeros as its last block,
 * into a buffer of their bound filled with 0xFF. fzstd writes each block at the output position and may leave
 * scratch bytes at most one block past it; the zero block overwrites those, and everything after it stays 0xFF.
 * So the content ends exactly 128 KiB before the last byte that is not 0xFF.
 */
function decodeBlocks(bytes: Uint8Array, frame: ZstdFrame, max: number): FrameContent {
  const ranges: [number, number][] = []
  let bound = 0
  let at = frame.blocksAt
  while (ranges.length < frame.blocks) {
    const header = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
    const type = (header >> 1) & 3
    const size = header >>> 3
    const blockBound = type === 2 ? MAX_BLOCK : size
    if (bound + blockBound > max) break
    const next = at + 3 + (type === 1 ? 1 : size)
    ranges.push([at, next])
    bound += blockBound
    at = next
  }
  if (ranges.length === 0) return { content: new Uint8Array(0), blocks: 0 }
  const headerLength = frame.blocksAt - frame.start
  const copy = new Uint8Array(at - frame.start + 4)
  copy.set(bytes.subarray(frame.start, frame.blocksAt))
  copy[4]! &= ~4 // no content checksum: it covers the whole frame, which this copy may not be
  let write = headerLength
  for (const [start, end] of ranges) {
    copy.set(bytes.subarray(start, end), write)
    copy[write]! &= ~1 // not the last block
    write += end - start
  }
  const marker = (MAX_BLOCK << 3) | (1 << 1) | 1 // RLE, last
  copy.set([marker & 0xff, (marker >> 8) & 0xff, marker >> 16, 0], write)
  const out = new Uint8Array(bound + MAX_BLOCK).fill(0xff)
  decompress(copy, withoutJoin(out))
  let end = out.length
  while (end > 0 && out[end - 1] === 0xff) end--
  const size = end - MAX_BLOCK
  if (size < 0 || size > bound || out[size] !== 0 || out[end - 1] !== 0)
    throw new Error('the decoder did not reach the end of the blocks')
  return { content: out.subarray(0, size), blocks: ranges.length }
}

/**
 * fzstd tests its output argument with `w == 1`, which turns a Uint8Array into a string through `join` (seconds and,
 * past 512 MiB, "Invalid string length"). An own `valueOf` makes that comparison read a number instead.
 */
function withoutJoin(out: Uint8Array): Uint8Array {
  Object.defineProperty(out, 'valueOf', { value: () => 0 })
  return out
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
  const declared = 2 ** (10 + exponent) + 2 ** (7 + exponent) * (descriptor & 7)
  let fit = 0
  while (fit < 31 && 2 ** (10 + fit) < frame.contentBound) fit++
  if (2 ** (10 + fit) * 4 > declared) return view
  const copy = view.slice()
  copy[frame.windowAt - frame.start] = fit << 3
  return copy
}
