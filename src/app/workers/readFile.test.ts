import { describe, expect, it } from 'vitest'
import { loadColumns } from '../../formats/columnSource'
import { streamAsSessionLog, toSessionJsonl } from '../../formats/export/sessionJsonl'
import { decodeTextInput, withDiagnostics } from '../../formats/loadBytes'
import type { LoadedSource } from '../../formats/types'
import { generateStream } from '../../test/generate'
import { random } from '../../test/hostile'
import { fitToBudget } from './budget'
import { serveReads } from './rangeReads'
import { decodePieces, HEAD_BYTES } from './readFile'
import { readInput } from './readInput'

/**
 * A file decoded and parsed in pieces as it is read against the same bytes decoded whole and read by loadColumns
 * (what readInput did before it read in pieces, and still does for any other file): the same source, wherever the
 * file's stream splits its bytes — inside a multi-byte character, between a CR and its LF — and for bytes that are
 * not UTF-8, the same diagnostics as decodeTextInput gives.
 */
const encode = (text: string) => new TextEncoder().encode(text)

/** A generated log (a few MiB) with 2-, 3- and 4-byte characters in its text, CRLF line ends if asked. */
function logBytes(crlf: boolean, chunks = 24_000): Uint8Array<ArrayBuffer> {
  const text = toSessionJsonl(streamAsSessionLog(generateStream(chunks))).replaceAll('zebra', 'zébra😀')
  return encode(crlf ? text.replaceAll('\n', '\r\n') : text)
}

function whole(bytes: Uint8Array): LoadedSource {
  const decoded = decodeTextInput(bytes)
  return withDiagnostics(loadColumns(decoded.text, 'input'), decoded.diagnostics)
}

async function* each(pieces: readonly Uint8Array[]): AsyncIterable<Uint8Array> {
  yield* pieces
}

/** The bytes after `head`, split at `cuts`. */
function split(bytes: Uint8Array, head: number, cuts: readonly number[]) {
  const pieces: Uint8Array[] = []
  let from = head
  for (const cut of [...cuts, bytes.length].sort((a, b) => a - b)) {
    if (cut < from) continue
    pieces.push(bytes.subarray(from, cut))
    from = cut
  }
  return decodePieces(bytes.subarray(0, head), each(pieces), bytes.length, 'input', () => {})
}

/** The offset of the first byte of the first `length`-byte character at or after `from`. */
function charOf(bytes: Uint8Array, from: number, length: 2 | 3 | 4): number {
  const lead = length === 2 ? 0xc0 : length === 3 ? 0xe0 : 0xf0
  const mask = length === 2 ? 0xe0 : length === 3 ? 0xf0 : 0xf8
  for (let at = from; at < bytes.length; at++) if ((bytes[at]! & mask) === lead) return at
  throw new Error(`no ${length}-byte character`)
}

/** Where the tests' files split their head from the rest: past the 256 Ki characters that decide the format. */
const HEAD = 300_000

describe('decodePieces', () => {
  for (const crlf of [false, true]) {
    const bytes = logBytes(crlf)
    const expected = whole(bytes)

    it(`splits at every byte of 2-, 3- and 4-byte characters and ${crlf ? 'CRLF' : 'LF'} line ends alike`, async () => {
      expect(bytes.length).toBeGreaterThan(HEAD + 20_000)
      expect(expected.sessions[0]!.streams.length).toBeGreaterThan(0)
      const places: number[] = []
      for (const length of [2, 3, 4] as const) {
        const at = charOf(bytes, HEAD + 1000 * length, length)
        for (let k = 0; k <= length; k++) places.push(at + k)
      }
      const lf = bytes.indexOf(0x0a, HEAD + 5000)
      places.push(lf - 1, lf, lf + 1)
      for (const cut of places) expect(await split(bytes, HEAD, [cut])).toStrictEqual(expected)
      // The head itself ending inside a character.
      const inside = charOf(bytes, HEAD, 4) + 2
      expect(await split(bytes, inside, [])).toStrictEqual(expected)
      // A line that starts with a U+FEFF (no BOM there: kept, and named in the line's diagnostic), with a piece
      // starting right before it and inside its bytes.
      const start = bytes.indexOf(0x0a, HEAD + 3000) + 1
      const line = new TextEncoder().encode('\ufeffnot json\n')
      const marked = new Uint8Array([...bytes.subarray(0, start), ...line, ...bytes.subarray(start)])
      const markedWhole = whole(marked)
      expect(markedWhole.diagnostics.some((d) => d.message.includes('\ufeffnot json'))).toBe(true)
      for (const cut of [start, start + 1, start + 2, start + 3])
        expect(await split(marked, HEAD, [cut])).toStrictEqual(markedWhole)
    }, 120_000)

    it(`in many random pieces (${crlf ? 'CRLF' : 'LF'})`, async () => {
      const next = random(crlf ? 11 : 12)
      const cuts = Array.from({ length: 400 }, () => HEAD + Math.floor(next() * (bytes.length - HEAD)))
      expect(await split(bytes, HEAD, cuts)).toStrictEqual(expected)
    }, 120_000)
  }

  it('leaves bytes that are not UTF-8 throughout, and other formats, to the whole file', async () => {
    const bytes = logBytes(false)
    const late = bytes.slice()
    late[charOf(bytes, bytes.length - 5000, 3) + 1] = 0x41
    expect(await split(late, HEAD, [])).toBeNull()
    // Torn at the end of the file: the last character's first bytes only.
    expect(await split(bytes.subarray(0, charOf(bytes, bytes.length - 5000, 3) + 1), HEAD, [])).toBeNull()
    const sse = encode(
      `data: ${JSON.stringify({ choices: [{ delta: { content: 'x' } }] })}\n\n`.repeat(30_000),
    )
    expect(await split(sse, HEAD, [])).toBeNull()
  })
})

describe('readInput of a file', () => {
  const read = (bytes: Uint8Array<ArrayBuffer>, progress: (done: number, total: number) => void = () => {}) =>
    readInput({ type: 'load-file', file: new Blob([bytes]), name: 'input' }, (_, done, total) =>
      progress(done, total),
    )

  it('gives what the whole bytes give: a log, with a BOM, and bytes that are not UTF-8 (named as before)', async () => {
    const bytes = logBytes(true, 70_000)
    expect(bytes.length).toBeGreaterThan(HEAD_BYTES)
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])
    const late = bytes.slice()
    late[charOf(bytes, bytes.length - 5000, 4) + 2] = 0xff
    for (const file of [bytes, bom, late]) expect(await read(file)).toStrictEqual(fitToBudget(whole(file)))
    expect((await read(late)).diagnostics[0]!.message).toBe(decodeTextInput(late).diagnostics[0]!.message)
  }, 120_000)

  it("reads the same through the page's thread (rangeReads.ts), a few pieces ahead, in order", async () => {
    const bytes = logBytes(false, 400_000)
    expect(bytes.length).toBeGreaterThan(HEAD_BYTES + (4 << 20))
    const late = bytes.slice()
    late[charOf(bytes, bytes.length - 5000, 3) + 1] = 0x41
    for (const file of [bytes, late]) {
      const blob = new Blob([file])
      const { port1, port2 } = new MessageChannel()
      const served: number[] = []
      serveReads(
        {
          size: blob.size,
          slice: (from?: number, to?: number) => {
            served.push(from ?? 0)
            return blob.slice(from, to)
          },
        } as Blob,
        port1,
      )
      const source = await readInput({ type: 'load-file', file: blob, name: 'input', reads: port2 }, () => {})
      port1.close()
      expect(source).toStrictEqual(await read(file))
      // Every range once, in order: the head, then each piece (the file not UTF-8 to its end is then read whole).
      expect(served).toStrictEqual([...new Set(served)].sort((a, b) => a - b))
      expect(served.length).toBe(1 + Math.ceil((file.length - HEAD_BYTES) / (4 << 20)))
    }
  }, 120_000)

  it('reports progress that climbs to the file size while it reads and parses', async () => {
    const bytes = logBytes(false, 400_000)
    const seen: number[] = []
    await read(bytes, (done, total) => {
      if (total === bytes.length) seen.push(done)
    })
    expect(seen.length).toBeGreaterThan(1)
    expect(seen).toStrictEqual([...seen].sort((a, b) => a - b))
    // The bar moves once the first MiB is parsed, before the first piece after it.
    expect(seen.find((done) => done > 0)).toBe(HEAD_BYTES)
    expect(seen.at(-1)).toBe(bytes.length)
  }, 120_000)
})
