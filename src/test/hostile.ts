import { readFileSync } from 'node:fs'
import initSqlJs, { type SqlJsStatic } from 'sql.js'
import { concatBytes } from '../core/base/concatBytes'
import { readCorpus } from './corpus'

/**
 * Hostile inputs, built from their definitions rather than stored: Zstandard frames of raw and RLE blocks
 * (RFC 8878 §3.1), a fixed-Huffman deflate stream of long matches (RFC 1951 §3.2.6), a zip around it (APPNOTE 6.3),
 * and JSON nested past any sane depth. Tests and the fuzz suite only.
 */

/** A binary fixture of src/formats/fixtures/binary/. */
export function binaryFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../formats/fixtures/binary/${name}`, import.meta.url)))
}

let sqlJs: Promise<SqlJsStatic> | null = null
/** sql.js as Node loads it from node_modules. */
export const testSqlJs = (): Promise<SqlJsStatic> => (sqlJs ??= initSqlJs())

const MAX_BLOCK = 128 << 10

/** One Zstandard frame (no checksum, no content size, a 128 KiB window) whose content is `size` copies of `byte`. */
export function rleZstdFrame(byte: number, size: number): Uint8Array {
  const blocks = Math.max(1, Math.ceil(size / MAX_BLOCK))
  const out = new Uint8Array(6 + blocks * 4)
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, (17 - 10) << 3])
  let left = size
  for (let k = 0; k < blocks; k++) {
    const length = Math.min(left, MAX_BLOCK)
    left -= length
    const header = (length << 3) | (1 << 1) | (k === blocks - 1 ? 1 : 0)
    out.set([header & 0xff, (header >> 8) & 0xff, header >> 16, byte], 6 + k * 4)
  }
  return out
}

/** One Zstandard frame holding `text` as raw blocks. */
export function rawZstdFrame(text: string): Uint8Array {
  const content = new TextEncoder().encode(text)
  const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, (17 - 10) << 3]
  for (let at = 0; at < content.length || at === 0; at += MAX_BLOCK) {
    const piece = content.subarray(at, at + MAX_BLOCK)
    const header = (piece.length << 3) | (at + MAX_BLOCK >= content.length ? 1 : 0)
    parts.push(header & 0xff, (header >> 8) & 0xff, header >> 16, ...piece)
    if (content.length === 0) break
  }
  return Uint8Array.from(parts)
}

/** The parts as one array (tests build hostile files from pieces). */
export const concat = concatBytes

/**
 * Raw deflate of `byte` followed by `matches` copies of "repeat the last 258 bytes" (distance 1): one fixed-Huffman
 * block, 13 bits per 258 output bytes (a ~160× bomb that needs no compressor to build).
 */
export function deflateRun(byte: number, matches: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((3 + 9 + matches * 13 + 7) / 8) + 1)
  let bit = 0
  const put = (value: number, count: number) => {
    for (let k = 0; k < count; k++, bit++) if ((value >> k) & 1) out[bit >> 3]! |= 1 << (bit & 7)
  }
  // Huffman codes go most significant bit first (RFC 1951 §3.1.1).
  const code = (value: number, count: number) => {
    for (let k = count - 1; k >= 0; k--, bit++) if ((value >> k) & 1) out[bit >> 3]! |= 1 << (bit & 7)
  }
  put(1, 1) // BFINAL
  put(1, 2) // BTYPE 01: fixed Huffman
  if (byte < 144) code(0x30 + byte, 8)
  else code(0x190 + byte - 144, 9)
  for (let k = 0; k < matches; k++) {
    code(0xc0 + (285 - 280), 8) // length 258
    code(0, 5) // distance code 0: distance 1
  }
  code(0, 7) // end of block (256)
  return out.subarray(0, Math.ceil(bit / 8))
}

/** A zip of deflated entries whose directory claims `size` and `crc` as given (nothing is checked here). */
export function zipOf(
  entries: readonly { name: string; deflated: Uint8Array; size: number; crc?: number }[],
): Uint8Array {
  const u16 = (v: number) => [v & 0xff, (v >> 8) & 0xff]
  const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  for (const { name, deflated, size, crc = 0 } of entries) {
    const encoded = new TextEncoder().encode(name)
    const common = [...u16(20), ...u16(0), ...u16(8), ...u16(0), ...u16(0), ...u32(crc)]
    const sizes = [...u32(deflated.length), ...u32(size), ...u16(encoded.length), ...u16(0)]
    const local = concat([Uint8Array.from([...u32(0x04034b50), ...common, ...sizes]), encoded, deflated])
    const central = [...u32(0x02014b50), ...u16(20), ...common, ...sizes, ...u16(0), ...u16(0), ...u16(0)]
    centrals.push(concat([Uint8Array.from([...central, ...u32(0), ...u32(offset)]), encoded]))
    locals.push(local)
    offset += local.length
  }
  const directory = concat(centrals)
  const end = [...u32(0x06054b50), 0, 0, 0, 0, ...u16(entries.length), ...u16(entries.length)]
  return concat([
    ...locals,
    directory,
    Uint8Array.from([...end, ...u32(directory.length), ...u32(offset), 0, 0]),
  ])
}

/** `[[[…]]]` nested `depth` levels. */
export function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth)
}

/**
 * A real harness log (text turn) whose usage chunk carries an extra field nested `depth` levels deep, on the line
 * the returned number names.
 */
export function deepUsageLog(depth: number): { text: string; line: number } {
  const plain = readCorpus('acp-agent-text-turn-session.jsonl')
  const anchor = '"reasoningTokens":20}}}}'
  const text = plain.replace(anchor, `"reasoningTokens":20,"x":${nested(depth)}}}}}`)
  const line = plain.slice(0, plain.indexOf(anchor)).split('\n').length
  return { text, line }
}

/** mulberry32: small, seedable, good enough to pick mutations. */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

export type Mutation = { what: string; bytes: Uint8Array; cutAt?: number }

export function mutate(bytes: Uint8Array, next: () => number, others: readonly Uint8Array[]): Mutation {
  const at = (n = bytes.length) => Math.floor(next() * (n + 1))
  const copy = bytes.slice()
  switch (Math.floor(next() * 5)) {
    case 0: {
      const flips = 1 + Math.floor(next() * 8)
      for (let k = 0; k < flips && copy.length > 0; k++)
        copy[at(copy.length - 1)]! ^= 1 << Math.floor(next() * 8)
      return { what: `${flips} bit flips`, bytes: copy }
    }
    case 1: {
      const cut = at()
      return { what: `truncated at ${cut}`, bytes: bytes.slice(0, cut), cutAt: cut }
    }
    case 2: {
      const from = at()
      const to = Math.min(bytes.length, from + Math.floor(next() * 4096))
      const where = at()
      const repeated = concat([bytes.subarray(0, where), bytes.subarray(from, to), bytes.subarray(where)])
      return { what: `bytes ${from}..${to} duplicated at ${where}`, bytes: repeated }
    }
    case 3: {
      const other = others[Math.floor(next() * others.length)]!
      const from = Math.floor(next() * other.length)
      const piece = other.subarray(from, from + Math.floor(next() * 2048))
      const where = at()
      const spliced = concat([bytes.subarray(0, where), piece, bytes.subarray(where + piece.length)])
      return { what: `${piece.length} bytes of another input spliced at ${where}`, bytes: spliced }
    }
    default: {
      const page = Math.floor(next() * Math.ceil(bytes.length / 1024))
      copy.fill(0, page * 1024, (page + 1) * 1024)
      return { what: `1 KiB block ${page} zeroed`, bytes: copy }
    }
  }
}
