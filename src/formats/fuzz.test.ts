import { readdirSync, readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  concat,
  deepUsageLog,
  mutate,
  random,
  deflateRun,
  rawZstdFrame,
  rleZstdFrame,
  testSqlJs,
  zipOf,
} from '../test/hostile'
import { loadBytes } from './loadBytes'
import type { LoadedSource } from './types'
import { CORPUS_DIR } from '../test/corpus'

/**
 * The readers against seeded mutations of every real input the repository holds (the harness corpus, the recorded
 * bodies, the binary containers) and against the hostile shapes (decompression bombs, deep nesting). Each input must
 * load without throwing or an internal error, within a hang guard and a memory bound, with every diagnostic saying
 * where; a log cut short keeps everything before the cut.
 *
 * `npm test` runs a short pass (a few seconds); `CHUNKSCOPE_FUZZ=long` runs many more mutations per input with a
 * fixed seed per run that is printed (`CHUNKSCOPE_FUZZ_SEED=N` repeats a run).
 */
const LONG = process.env['CHUNKSCOPE_FUZZ'] === 'long'
const SEED = Number(process.env['CHUNKSCOPE_FUZZ_SEED'] ?? (LONG ? Date.now() % 2 ** 31 : 20_261_201))
const MUTATIONS = LONG ? 1000 : 6
/** A hang guard, not a benchmark: every input here loads in milliseconds to a second. */
const HANG_MS = 30_000
const MiB = 1024 * 1024
/** The short pass caps decompression lower than a real file gets, so the bombs stay quick; the long pass does not. */
const CAP = LONG ? undefined : 32 * MiB

const seeds = (() => {
  const dirs = [
    CORPUS_DIR,
    new URL('./fixtures/', import.meta.url),
    new URL('./fixtures/binary/', import.meta.url),
    new URL('./fixtures/completions/', import.meta.url),
    new URL('./fixtures/interactions/', import.meta.url),
    new URL('./fixtures/bedrock-har/', import.meta.url),
  ]
  const found: { name: string; bytes: Uint8Array }[] = []
  for (const dir of dirs)
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isFile() && !/\.md$|^LICENSE/.test(entry.name))
        found.push({ name: entry.name, bytes: new Uint8Array(readFileSync(new URL(entry.name, dir))) })
  return found.sort((a, b) => (a.name < b.name ? -1 : 1))
})()

/**
 * A diagnostic says where: a line or byte, or its message names a place (frame, entry, session, item, a position,
 * the end of the input) or is about the whole input (nothing readable in it).
 */
const PLACE =
  /\bline \d|\bbyte \d|\bframe \d|zip entry|\bentry\b|\bsession\b|\bitem \d|\bseq \d|\bevent \d|\bchunk \d|har\d|^(zip|zstd|sqlite):|block \d|position \d|\bends?\b|\bno (yield|chunks?|streams?|streaming)\b|^no |\bmore lines\b|^malformed HAR|empty input|unrecognised format/

async function check(name: string, bytes: Uint8Array): Promise<LoadedSource> {
  const before = process.memoryUsage().rss
  const started = performance.now()
  const source = await loadBytes(bytes, name, {
    sqlJs: testSqlJs,
    ...(CAP !== undefined ? { maxDecompressedBytes: CAP } : {}),
  })
  const took = performance.now() - started
  const grew = (process.memoryUsage().rss - before) / MiB
  const internal = source.diagnostics.filter((d) => /internal error/.test(d.message))
  const nowhere = source.diagnostics.filter(
    (d) => d.severity !== 'info' && d.line === undefined && d.byte === undefined && !PLACE.test(d.message),
  )
  expect({ name, internal, nowhere, hung: took > HANG_MS, blewUp: grew > 1024 }).toEqual({
    name,
    internal: [],
    nowhere: [],
    hung: false,
    blewUp: false,
  })
  return source
}

const eventsOf = (source: LoadedSource) => source.sessions.map((s) => s.events)

describe(`the readers under seeded mutation (seed ${SEED}, ${MUTATIONS} per input)`, () => {
  if (LONG) console.info(`CHUNKSCOPE_FUZZ_SEED=${SEED}`)
  const others = seeds.map((s) => s.bytes)

  it.each(seeds.map((s) => [s.name, s] as const))(
    '%s',
    async (_, seed) => {
      const next = random(SEED ^ seed.bytes.length)
      const original = await check(seed.name, seed.bytes)
      const isLog = seed.name.endsWith('.jsonl')
      const isZstdLog = seed.name.endsWith('.jsonl.zstd')
      const lostPrefix: string[] = []
      for (let k = 0; k < MUTATIONS; k++) {
        const mutation = mutate(seed.bytes, next, others)
        const source = await check(`${seed.name} (${mutation.what})`, mutation.bytes)
        if (mutation.cutAt === undefined) continue
        const kept = eventsOf(source).flat()
        let expected: unknown[] | null = null
        if (isLog) {
          // The readable prefix is kept: every line finished before the cut, exactly as the whole log reads it.
          const complete =
            new TextDecoder().decode(seed.bytes.subarray(0, mutation.cutAt)).split('\n').length - 1
          expected = eventsOf(original).flatMap((events) => events.filter((e) => e.line <= complete))
        } else if (isZstdLog) {
          // A zstd log cut short reads as a prefix of the whole one: the torn frame keeps its complete lines.
          expected = eventsOf(original).flat().slice(0, kept.length)
        }
        if (expected !== null && !isDeepStrictEqual(kept, expected)) lostPrefix.push(mutation.what)
      }
      expect(lostPrefix).toEqual([])
    },
    HANG_MS * (MUTATIONS + 1),
  )
})

describe('hostile shapes', () => {
  const cap = CAP ?? 256 * MiB
  const shapes: [string, () => Uint8Array][] = [
    [
      'zstd: 8,192 frames of 128 KiB runs',
      () => concat(Array.from({ length: 8192 }, () => rleZstdFrame(97, 128 << 10))),
    ],
    [
      'zstd: 40 frames of 100 MiB of newlines',
      () => concat(Array.from({ length: 40 }, () => rleZstdFrame(10, 100 * MiB))),
    ],
    ['zstd: one frame of 400 MiB of newlines', () => rleZstdFrame(10, 400 * MiB)],
    ['zstd: a deep record', () => rawZstdFrame(deepUsageLog(50_000).text)],
    [
      'zip: a deflate bomb declaring 4 GiB',
      () =>
        zipOf([
          {
            name: 'session.jsonl',
            deflated: deflateRun(97, Math.ceil((cap * 1.5) / 258)),
            size: 2 ** 32 - 16,
          },
        ]),
    ],
    ['text: 10,000 levels deep', () => new TextEncoder().encode(deepUsageLog(10_000).text)],
    ['text: 100,000 levels deep', () => new TextEncoder().encode(deepUsageLog(100_000).text)],
  ]

  it.each(shapes)(
    '%s loads with a diagnostic saying what was cut',
    async (name, build) => {
      const source = await check(name, build())
      expect(
        source.diagnostics.some((d) => d.severity === 'error' && /cap|nested deeper/.test(d.message)),
      ).toBe(true)
    },
    HANG_MS,
  )
})
