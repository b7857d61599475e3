import fc from 'fast-check'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { commonEnds } from './commonEnds'
import { concatBytes } from './concatBytes'
import { crc32 } from './crc32'
import { isJsonText } from './isJsonText'
import { isRecord } from './isRecord'
import { partitionPoint } from './partitionPoint'
import { readCapped } from './readCapped'

describe('commonEnds', () => {
  it('finds the longest shared start, then the longest shared end of what is left, for any two strings', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\u{1F600}'), maxLength: 12 })
    fc.assert(
      fc.property(text, text, (a, b) => {
        const { head, tail } = commonEnds(a, b)
        expect(head + tail).toBeLessThanOrEqual(Math.min(a.length, b.length))
        expect(a.slice(0, head)).toBe(b.slice(0, head))
        expect(a.slice(a.length - tail)).toBe(b.slice(b.length - tail))
        // Longest: one unit more on either side would differ, or overlap.
        const shorter = Math.min(a.length, b.length)
        expect(head === shorter || a[head] !== b[head]).toBe(true)
        expect(head + tail === shorter || a.at(-1 - tail) !== b.at(-1 - tail)).toBe(true)
      }),
    )
  })
})

describe('isJsonText', () => {
  const parses = (text: string) => {
    try {
      JSON.parse(text)
      return true
    } catch {
      return false
    }
  }

  it('says what JSON.parse not throwing says, for any text of JSON-ish pieces', () => {
    // JSON's punctuation and words, its whitespace and spaces that are not its whitespace.
    const piece = fc.constantFrom(
      ...'{}[]":,-01.elx é',
      'true',
      'false',
      'null',
      'nul',
      '\t',
      '\n',
      '\r',
      '\u00a0',
      '\ufeff',
    )
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join('')),
        (text) => {
          expect(isJsonText(text)).toBe(parses(text))
        },
      ),
      { numRuns: 5000 },
    )
    fc.assert(
      fc.property(fc.json(), fc.string(), (json, noise) => {
        expect(isJsonText(json)).toBe(true)
        expect(isJsonText(noise + json)).toBe(parses(noise + json))
        expect(isJsonText(json + noise)).toBe(parses(json + noise))
      }),
    )
  })

  it('is false for a value that is not a string; deep nesting is what JSON.parse makes of it', () => {
    expect([isJsonText(undefined), isJsonText(1), isJsonText({})]).toEqual([false, false, false])
    expect(isJsonText('['.repeat(1e5) + ']'.repeat(1e5))).toBe(parses('['.repeat(1e5) + ']'.repeat(1e5)))
  })
})

describe('partitionPoint', () => {
  it('finds the same split as a linear scan, for every sorted array and probe', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 })), fc.integer({ min: -6, max: 6 }), (values, x) => {
        const sorted = values.sort((a, b) => a - b)
        const linear = sorted.filter((value) => value < x).length
        expect(partitionPoint(sorted.length, (i) => sorted[i]! < x)).toBe(linear)
      }),
    )
  })

  it('asks about log2(count) indexes, never one out of range', () => {
    const asked: number[] = []
    expect(partitionPoint(1024, (i) => (asked.push(i), i < 700))).toBe(700)
    expect(asked.length).toBeLessThanOrEqual(11)
    expect(asked.every((i) => i >= 0 && i < 1024)).toBe(true)
    expect(partitionPoint(0, () => true)).toBe(0)
  })
})

describe('crc32', () => {
  const enc = (text: string) => new TextEncoder().encode(text)

  it('gives the check value of the IEEE polynomial and 0 for no bytes', () => {
    expect(crc32(enc('123456789'))).toBe(0xcbf43926)
    expect(crc32(new Uint8Array())).toBe(0)
  })

  it('agrees with the CRC fflate writes into a stored zip entry', () => {
    const data = enc('{"type":"session","version":0}\n')
    const zip = zipSync({ 'a.jsonl': [data, { level: 0 }] })
    // Local file header: the CRC-32 is the little-endian u32 at offset 14.
    expect(crc32(data)).toBe(new DataView(zip.buffer, zip.byteOffset).getUint32(14, true))
  })

  it('continues over pieces: crc32(b, crc32(a)) is the CRC of a then b', () => {
    fc.assert(
      fc.property(fc.uint8Array(), fc.uint8Array(), (a, b) => {
        const joined = new Uint8Array([...a, ...b])
        expect(crc32(b, crc32(a))).toBe(crc32(joined))
      }),
    )
  })
})

describe('isRecord', () => {
  it('accepts objects only: not arrays, null or primitives', () => {
    expect([{}, { a: 1 }, [], null, 'x', 1, undefined].map(isRecord)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ])
  })
})

describe('concatBytes', () => {
  it('joins any parts in order, and gives a view on part of a buffer a buffer of its own', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 20 }), { maxLength: 6 }), fc.nat(4), (parts, cut) => {
        // One part alone (cut 0 or 1) or all; some parts are views into a larger buffer, as a stream's pieces may be.
        const taken = cut <= 1 ? parts.slice(0, 1) : parts
        const views = taken.map((part, i) =>
          (i + cut) % 2 === 1 ? Uint8Array.from([9, ...part, 9]).subarray(1, 1 + part.length) : part,
        )
        const joined = concatBytes(views)
        expect([...joined]).toEqual(taken.flatMap((part) => [...part]))
        expect(joined.byteOffset).toBe(0)
        expect(joined.byteLength).toBe(joined.buffer.byteLength)
      }),
    )
  })
})

describe('readCapped', () => {
  function streamOf(pieces: number[], fail = false) {
    let cancelled = false
    let next = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (next < pieces.length) controller.enqueue(new Uint8Array(pieces[next]!).fill(next++))
        else if (fail) controller.error(new Error('connection reset'))
        else controller.close()
      },
      cancel() {
        cancelled = true
      },
    })
    return { stream, cancelled: () => cancelled, pulled: () => next }
  }

  it('joins every piece in order and reports the running total', async () => {
    const { stream } = streamOf([2, 3, 1])
    const totals: number[] = []
    const read = await readCapped(stream, 6, (loaded) => totals.push(loaded))
    expect(read).toEqual({ bytes: new Uint8Array([0, 0, 1, 1, 1, 2]) })
    expect(totals).toEqual([2, 5, 6])
  })

  it('stops at the first piece past the cap and cancels the stream', async () => {
    const source = streamOf([4, 4, 4, 4])
    expect(await readCapped(source.stream, 6)).toEqual({ over: 8 })
    expect(source.cancelled()).toBe(true)
    expect(source.pulled()).toBeLessThan(4)
  })

  it('rejects when the stream fails, for the caller to explain', async () => {
    await expect(readCapped(streamOf([1], true).stream, 10)).rejects.toThrow('connection reset')
  })
})
