import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { chunksOf } from '../../core/chunkList'
import { loadColumns } from '../../formats/columnSource'
import { loadSource } from '../../formats/load'
import type { LoadedSource } from '../../formats/types'
import { generateStream } from '../../test/generate'
import { createChunkscopeStore } from '../store'
import { be, bs, finish, td, text } from '../../test/chunks'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { BROWSER_LIMITS, CUT_PREFIX, cutNotice, fitToBudget, refuseInput } from './budget'

const ndjson = (chunks: readonly unknown[]): string => chunks.map((c) => JSON.stringify(c)).join('\n') + '\n'
/** One delta per block, each opening a new index: the shape that costs the page the most per byte. */
const blockPerChunk = (n: number) => Array.from({ length: n }, (_, i) => td(i, 'x'))
const limits = { ...BROWSER_LIMITS, blocksPerStream: 50, chunksPerStream: 200, charsPerStream: 1000 }

describe('fitToBudget', () => {
  it('leaves every corpus log untouched under the browser limits', () => {
    for (const name of corpusFiles()) {
      const text = readCorpus(name)
      expect({ name, source: fitToBudget(loadSource(text, name)) }).toEqual({
        name,
        source: loadSource(text, name),
      })
    }
  })

  it('cuts a stream at the chunk that opens one block index too many, and says so', () => {
    const source = fitToBudget(loadSource(ndjson(blockPerChunk(120)), 'blocks.ndjson'), limits)
    const chunks = source.sessions[0]!.streams[0]!.chunks
    expect(chunks).toHaveLength(50)
    expect(chunks.map((c) => c.chunk)).toEqual(blockPerChunk(50))
    expect(source.diagnostics[0]).toEqual({
      severity: 'error',
      message: `${CUT_PREFIX}stream "stream" was cut to its first 50 of 120 chunks: chunk 51 (seq 50) opens block index number 51, and a stream may have at most 50 distinct block indexes here; the rest is not shown (the command line reads it all: npx chunkscope inspect)`,
    })
  })

  it('keeps a prefix that replays exactly as the same chunks of the whole stream', () => {
    // Deltas of a few blocks, then more blocks than allowed: the kept part is the whole stream's first chunks.
    const all = [
      bs(0, 'text'),
      td(0, 'a'),
      be(0, text('a')),
      ...blockPerChunk(80).map((c, i) => td(i + 1, 'y')),
    ]
    const whole = loadSource(ndjson([...all, finish('stop')])).sessions[0]!.streams[0]!.chunks
    const cut = fitToBudget(loadSource(ndjson([...all, finish('stop')])), limits).sessions[0]!.streams[0]!
    const kept = cut.chunks.length
    expect(kept).toBe(3 + 49)
    const alone = new ReplayEngine(cut.chunks).result
    const inWhole = new ReplayEngine(whole).seek(kept)
    expect(alone.blocks).toEqual(inWhole.blocks)
    expect(alone.interruptedBlocks).toEqual(inWhole.interruptedBlocks)
  })

  it('cuts a source read as columns where it cuts the same source read as objects, naming the same chunk', () => {
    const texts = [
      ...corpusFiles()
        .filter((name) => name.endsWith('.jsonl'))
        .map((name) => readCorpus(name)),
      generateStream(3000)
        .map((c) => JSON.stringify(c.chunk))
        .join('\n'),
    ]
    const cuts = (source: LoadedSource) => ({
      diagnostics: source.diagnostics,
      lengths: source.sessions.map((session) => session.streams.map((attempt) => chunksOf(attempt).length)),
    })
    for (const text of texts)
      for (const chars of [10, 100, 1000, 5000, 20_000])
        for (const blocks of [3, 20_000]) {
          const tight = { ...BROWSER_LIMITS, charsPerStream: chars, blocksPerStream: blocks }
          expect(cuts(fitToBudget(loadColumns(text), tight))).toEqual(
            cuts(fitToBudget(loadSource(text), tight)),
          )
        }
  })

  it('cuts a long stream read as columns where it cuts it read as objects, past the first batches', () => {
    const text = generateStream(130_000)
      .map((c) => JSON.stringify(c.chunk))
      .join('\n')
    const cuts = (source: LoadedSource) => ({
      diagnostics: source.diagnostics,
      length: chunksOf(source.sessions[0]!.streams[0]!).length,
    })
    for (const [chars, blocks] of [
      [1e9, 200],
      [1e6, 20_000],
      [2.5e6, 20_000],
    ] as const) {
      const tight = { ...BROWSER_LIMITS, charsPerStream: chars, blocksPerStream: blocks }
      const objects = cuts(fitToBudget(loadSource(text), tight))
      expect(objects.length).toBeGreaterThan(50_000)
      expect(cuts(fitToBudget(loadColumns(text), tight))).toEqual(objects)
    }
  }, 60_000)

  it('counts chunks and payload characters, not only blocks', () => {
    const many = fitToBudget(loadSource(ndjson(Array.from({ length: 300 }, () => td(0, 'a')))), limits)
    expect(many.sessions[0]!.streams[0]!.chunks).toHaveLength(200)
    expect(many.diagnostics[0]!.message).toContain('at most 200 chunks')
    const long = fitToBudget(loadSource(ndjson([td(0, 'a'.repeat(600)), td(0, 'b'.repeat(600))])), limits)
    expect(long.sessions[0]!.streams[0]!.chunks).toHaveLength(1)
    expect(long.diagnostics[0]!.message).toContain('chunk 2 (seq 1) brings the stream')
    expect(long.diagnostics[0]!.message).toContain('at most 1,000 here')
  })

  it('counts what is nested at any depth: deep strings and long arrays of numbers', () => {
    const deep = { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, x: 'z'.repeat(2000) } }
    let nested: unknown = ['y'.repeat(2000)]
    for (let i = 0; i < 500; i++) nested = [nested]
    const cases = [deep, { ...deep, usage: { x: nested } }, { ...deep, usage: { x: Array(2000).fill(0) } }]
    for (const chunk of cases) {
      const source = fitToBudget(loadSource(ndjson([td(0, 'a'), chunk])), limits)
      expect(source.sessions[0]!.streams[0]!.chunks).toHaveLength(1)
      expect(source.diagnostics[0]!.message).toContain('chunk 2 (seq 1) brings the stream')
    }
  })

  it('gives the first cut for the banner, and nothing for a source within the limits', () => {
    const source = fitToBudget(loadSource(ndjson(blockPerChunk(60))), limits)
    expect(cutNotice(source)).toBe(source.diagnostics[0]!.message)
    expect(cutNotice(fitToBudget(loadSource(ndjson(blockPerChunk(10))), limits))).toBeNull()
  })
})

describe('refuseInput', () => {
  it('refuses an input over the byte limit, naming its size and the limit', () => {
    expect(refuseInput(BROWSER_LIMITS.inputBytes, 'a.jsonl')).toBeNull()
    expect(refuseInput(3 * 1024 ** 3, 'huge.jsonl')).toBe(
      'huge.jsonl is 3.0 GiB, over the browser limit of 128 MiB per input; it was not opened. Read it with the command line instead: npx chunkscope inspect huge.jsonl',
    )
  })
})

describe('the store', () => {
  it('cuts what any entrance hands it and puts the limit in the banner', async () => {
    const store = createChunkscopeStore({ yieldToHost: () => Promise.resolve() })
    const n = BROWSER_LIMITS.blocksPerStream + 10
    await store
      .getState()
      .actions.showSource(loadSource(ndjson(blockPerChunk(n)), 'b.ndjson'), { kind: 'paste', name: 'b' })
    expect(store.getState().engine?.total).toBe(BROWSER_LIMITS.blocksPerStream)
    expect(store.getState().error).toContain('at most 20,000 distinct block indexes')
  })
})
