import fc from 'fast-check'
import { deflateSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { AnyChunk } from '../../core/protocol'
import { oddChunk } from '../../test/arbitraries'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { loadSource } from '../load'
import { decodeBody, encodeBody } from './codecV2'
import { decodeBodyV3, encodeBodyV3, measureBodyV3 } from './codecV3'
import type { DecodedBody } from './layout'
import { buildSharePayload, type ShareScope } from './payload'
import { FULL_REDACTION } from './redact'
import { IntModel, RangeDecoder, RangeEncoder } from './rangeCoder'
import { encodeMeta, metaBits } from './metaV3'
import { TextModel } from './textModel'

const CAP = 64 * 1024 * 1024

type Codec = {
  readonly encode: (payload: unknown) => Promise<Uint8Array>
  readonly decode: (body: Uint8Array, maxBytes: number) => DecodedBody
}
/**
 * The columnar link bodies: v2 (deflated sections) and v3 (one modelled stream), still opened, v4 (v3's stream
 * under a longer primer and a primed meta model), still opened, and v5 (v4 with the recorded message coded
 * against the chunks and its own seq and time coding), written.
 */
const codecs: [string, Codec][] = [
  ['v2', { encode: encodeBody, decode: decodeBody }],
  ['v3', { encode: encodeBodyV3, decode: decodeBodyV3 }],
  [
    'v4',
    {
      encode: (payload) => encodeBodyV3(payload, async () => {}, 4),
      decode: (body, maxBytes) => decodeBodyV3(body, maxBytes, 4),
    },
  ],
  [
    'v5',
    {
      encode: (payload) => encodeBodyV3(payload, async () => {}, 5),
      decode: (body, maxBytes) => decodeBodyV3(body, maxBytes, 5),
    },
  ],
]

/** Any UTF-16 string: lone surrogates, NUL, the skeleton's hole character U+007F, astral pairs split or not. */
const wild = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
  fc.constantFrom('\u007f', '\u007f\u007f', '\ud83d', '\ude00', '\ud83d\ude00', '\ufffd', '', 'x'.repeat(40)),
  fc.string(),
)

/**
 * Blocks as a harness stream holds them (start, deltas, end equal to the deltas or not) with the adversarial
 * extras: stragglers after the end, re-closes, unknown fields, reordered keys, odd chunks in between.
 */
const block = fc
  .record({
    index: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(2 ** 40)),
    type: fc.constantFrom('text', 'reasoning', 'tool-call', 'video'),
    deltas: fc.array(wild, { maxLength: 8 }),
    id: fc.constantFrom('call_00_aB3', 'x', ''),
    name: fc.option(fc.constantFrom('bash', 'read'), { nil: undefined }),
    newIdMidway: fc.boolean(),
    end: fc.constantFrom('built', 'other', 'none', 'twice'),
    straggler: fc.option(wild, { nil: undefined }),
    odd: fc.array(oddChunk, { maxLength: 2 }),
    extra: fc.option(fc.jsonValue(), { nil: undefined }),
  })
  .map((b): AnyChunk[] => {
    const { index, type } = b
    const chunks: AnyChunk[] = [{ type: 'block-start', index, blockType: type }]
    const delta = (piece: string, at: number): AnyChunk => {
      if (type === 'tool-call') {
        const id = b.newIdMidway && at > 0 ? `${b.id}2` : b.id
        return b.name === undefined
          ? { type: 'tool-call-delta', index, id, argumentsDelta: piece }
          : { type: 'tool-call-delta', index, id, name: b.name, argumentsDelta: piece }
      }
      return { type: type === 'reasoning' ? 'reasoning-delta' : 'text-delta', index, text: piece }
    }
    b.deltas.forEach((piece, at) => chunks.push(delta(piece, at)))
    const joined = b.deltas.join('')
    const built =
      type === 'tool-call'
        ? {
            type,
            id: b.newIdMidway && b.deltas.length > 1 ? `${b.id}2` : b.id,
            name: b.name,
            arguments: joined,
          }
        : { type, text: joined }
    const end: AnyChunk = {
      type: 'block-end',
      index,
      block: b.end === 'other' ? { ...built, text: `${joined}!` } : built,
    }
    if (b.end !== 'none') chunks.push(end)
    if (b.end === 'twice') chunks.push(end)
    if (b.straggler !== undefined) chunks.push(delta(b.straggler, 0))
    if (b.extra !== undefined) chunks.push({ ...delta('y', 0), extra: b.extra })
    chunks.push({ index, type: 'text-delta', text: 'keys out of order' } as AnyChunk, ...b.odd)
    return chunks
  })

const stream = fc
  .array(block, { maxLength: 5 })
  .chain((blocks) =>
    fc
      .shuffledSubarray(blocks.flat(), { minLength: 0 })
      .map((kept): [AnyChunk[], AnyChunk[]] => [blocks.flat(), kept]),
  )

/** Mostly seqs the columns take; now and then one past their range (the source then travels whole). */
const seqs = (n: number) =>
  fc.oneof(
    { weight: 9, arbitrary: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: n, maxLength: n }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.maxSafeInteger()), {
        minLength: n,
        maxLength: n,
      }),
    },
  )
const times = (n: number) =>
  fc.array(fc.oneof(fc.constant(null), fc.integer({ min: -1e12, max: 2e12 })), { minLength: n, maxLength: n })

describe.each(codecs)('a %s body gives back exactly what it was given', (_version, codec) => {
  /** The JSON of a value sent through the body: v1 (JSON) carried exactly that, key order included. */
  async function again(value: unknown): Promise<string> {
    const decoded = codec.decode(await codec.encode(value), CAP)
    if (!('value' in decoded)) throw new Error(JSON.stringify(decoded))
    return JSON.stringify(decoded.value)
  }

  async function expectRoundTrip(value: unknown): Promise<void> {
    expect(await again(value)).toBe(JSON.stringify(value))
  }

  it('random streams, adversarial ones included, with any seqs and times', async () => {
    await fc.assert(
      fc.asyncProperty(
        stream.chain(([ordered, shuffled]) =>
          fc.tuple(
            fc.constant(ordered),
            fc.constant(shuffled),
            seqs(ordered.length),
            times(ordered.length),
            fc.jsonValue(),
          ),
        ),
        async ([ordered, shuffled, seq, time, extra]) => {
          for (const chunks of [ordered, shuffled]) {
            const n = chunks.length
            await expectRoundTrip({
              v: 1,
              name: 'a.jsonl',
              source: { kind: 'chunks', chunks, seq: seq.slice(0, n), time: time.slice(0, n) },
              stream: 't1.s1.a1',
              k: 0,
              diagnostics: [{ severity: 'warning', message: 'line 8: seq gap: expected 6, got 87' }],
              extra,
            })
          }
        },
      ),
      { numRuns: 200 },
    )
  }, 60_000)

  it('any JSON value at all (the skeleton alone carries it)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), (value) => expectRoundTrip(value)),
      { numRuns: 200 },
    )
    await expectRoundTrip({ source: { kind: 'chunks', chunks: [1], seq: [1.5], time: [null] } })
    await expectRoundTrip({
      k: [0, 2 ** 53 - 1, -(2 ** 53) + 1],
      s: ['\u007f', '\u007fa', 'b'],
      t: ['\ud800'],
    })
  }, 60_000)

  // One test per file and scope: the session scope encodes the whole session once per attempt, and the three
  // scopes in one test ran past its timeout on a loaded machine.
  const scopesOf = {
    stream: () => ({ scope: 'stream' }),
    session: () => ({ scope: 'session' }),
    window: (total: number) => ({ window: { from: total >> 2, to: total - (total >> 2) } }),
  } satisfies Record<string, (total: number) => ShareScope>
  it.each(
    corpusFiles().flatMap((name) =>
      (Object.keys(scopesOf) as (keyof typeof scopesOf)[]).map((scope) => [name, scope] as const),
    ),
  )('%s: every attempt, the %s scope, plain and redacted', { timeout: 60_000 }, async (name, scopeName) => {
    const source = loadSource(readCorpus(name), name)
    const streams = source.sessions[0]!.streams
    // A session's body holds every stream whichever is selected (the selection only sets the place), so that
    // scope is checked from the first and the last stream; the others hold only their own stream.
    const selected = scopeName === 'session' ? [...new Set([streams[0]!, streams.at(-1)!])] : streams
    for (const attempt of selected) {
      const total = attempt.chunks.length
      const scope = scopesOf[scopeName](total)
      for (const options of [scope, { ...scope, redact: FULL_REDACTION }]) {
        const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: total >> 1 }, options)
        expect(await again(payload)).toBe(JSON.stringify(payload))
      }
    }
  })
})

describe.each(codecs)('a damaged %s body is refused in words, never thrown', (version, codec) => {
  const body = () =>
    codec.encode(
      buildSharePayload(
        (() => {
          const name = 'acp-agent-persistent-pwsh-tool-turn-session.jsonl'
          const source = loadSource(readCorpus(name), name)
          const attempt = source.sessions[0]!.streams[0]!
          return { source, attempt, streamKey: attempt.id, k: 3 }
        })(),
        { scope: 'stream' },
      ),
    )

  it('random bytes, and a real body with any byte changed or cut anywhere', async () => {
    const bytes = await body()
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (random) => {
        expect(() => codec.decode(random, CAP)).not.toThrow()
      }),
    )
    let refused = 0
    for (let at = 0; at < bytes.length; at++) {
      const changed = bytes.slice()
      changed[at] = changed[at]! ^ 0x5a
      expect(() => codec.decode(changed, CAP)).not.toThrow()
      expect(() => codec.decode(bytes.subarray(0, at), CAP)).not.toThrow()
      if ('error' in codec.decode(bytes.subarray(0, at), CAP)) refused++
    }
    // A v2 body knows its sections' lengths, so every cut shows. A v3 body is one coded stream read with zeros
    // past its end: a cut may still decode to some payload, which the link's CRC refuses (shareLink.test.ts).
    expect(refused).toBeGreaterThanOrEqual(version === 'v2' ? bytes.length : bytes.length * 0.9)
  })

  it('refuses to decode past the cap', async () => {
    expect(codec.decode(await body(), 100)).toEqual({ tooLarge: true })
  })
})

describe('the range coder', () => {
  it('gives back any safe integers in any contexts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.nat(40), fc.maxSafeNat(), fc.nat()), fc.integer({ min: -2, max: 9 }))),
        (values) => {
          const encoder = new RangeEncoder()
          const model = new IntModel(8)
          for (const [value, context] of values) model.encode(encoder, value, context)
          const decoder = new RangeDecoder(encoder.finish())
          const again = new IntModel(8)
          expect(values.map(([, context]) => again.decode(decoder, context))).toEqual(values.map(([v]) => v))
        },
      ),
      { examples: [[[[Number.MAX_SAFE_INTEGER, 0]]], [[[0, 0]]]] },
    )
  })

  it('codes 1,000 lengths of 1–4 in close to their 2 bits each, well under deflate', () => {
    let seed = 7
    const encoder = new RangeEncoder()
    const model = new IntModel(1)
    const lengths = new Uint8Array(1000)
    for (let i = 0; i < lengths.length; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      lengths[i] = 1 + Math.floor((seed / 2147483648) * 4)
      model.encode(encoder, lengths[i]!)
    }
    const coded = encoder.finish().length
    expect(coded).toBeLessThan(262)
    expect(coded).toBeLessThan(deflateSync(lengths, { level: 9 }).length * 0.8)
  })
})

describe('a long v3 text leaves the byte model for deflate, and comes back the same', () => {
  const payload = (text: string) => ({
    v: 1,
    source: {
      kind: 'chunks',
      chunks: [{ type: 'text-delta', index: 0, text }],
      seq: [0],
      time: [null],
    },
  })
  const roundTrip = async (text: string) => {
    const body = await encodeBodyV3(payload(text))
    expect(decodeBodyV3(body, CAP)).toEqual({ value: payload(text) })
    return body
  }

  it('past the model limit (64 KiB), and a run of one letter that compresses past 64 bytes per byte', async () => {
    let seed = 3
    const words = ['alpha ', 'beta ', 'gamma\n', '思考 ', '{"k": 1} ']
    const parts: string[] = []
    for (let i = 0; i < 40_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      parts.push(words[seed % words.length]!)
    }
    const long = parts.join('')
    expect(long.length).toBeGreaterThan(64 * 1024)
    const body = await roundTrip(long)
    // Deflated at even odds inside the stream: about what deflate alone makes of it.
    expect(body.length).toBeLessThan(deflateSync(new TextEncoder().encode(long), { level: 9 }).length + 64)
    await roundTrip('a'.repeat(100_000))
  })

  it('under a cap smaller than its content, a body is too large, not damaged', async () => {
    expect(decodeBodyV3(await encodeBodyV3(payload('hello')), 10)).toEqual({ tooLarge: true })
  })
})

describe('a crafted v3 body', () => {
  it('that announces 4 million chunks and holds none is refused as damaged, not decoded from nothing', async () => {
    // The chunk count fits the 64 MiB cap, and every number after it would decode as a zero: only the 4-byte
    // limit on reading past the end stops the decoder.
    const coder = new RangeEncoder()
    coder.bitAt(64, 0)
    coder.bitAt(64, 0)
    const skeleton = new TextEncoder().encode('[{"v":1,"source":{"kind":"chunks"}},[],[]]')
    const parts = { count: 4_000_001, units: 0, skeleton, strLens: [], ints: [], patches: [] }
    await encodeMeta(coder, new TextModel(), metaBits(), parts, async () => {})
    const decoded = decodeBodyV3(coder.finishShort(), CAP)
    expect(decoded).toEqual({ error: expect.stringMatching(/^the link is damaged: /) })
  })
})

describe('the bit meter (the share bench breakdown)', () => {
  it.each(corpusFiles())('%s: measures the bits v5 writes, and only measures', async (name) => {
    const source = loadSource(readCorpus(name), name)
    for (const attempt of source.sessions[0]!.streams) {
      const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: 0 }, { scope: 'stream' })
      const written = await encodeBodyV3(payload, async () => {}, 5)
      const measured = await measureBodyV3(payload, () => ({ skeleton: [[1, 'a']], text: [[2, 'b']] }))
      expect(measured.bytes).toBe(written.length)
      // The coded bits make the body, give or take the coder's flush (at most 4 bytes, some left out).
      const bits = [...measured.bits.values()].reduce((sum, n) => sum + n, 0)
      expect(Math.abs(bits / 8 - written.length)).toBeLessThanOrEqual(4)
      expect([...measured.bits.keys()]).toEqual(expect.arrayContaining(['flags', 'a', 'numbers: op']))
    }
  })
})
