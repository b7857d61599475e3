import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anthropicBody as body } from '../../test/anthropicBodies'
import { piAiChunks } from '../../test/piAiOracle'
import { readSseStream } from './readSse'
import { chunksOfReads, piAiReader } from './wireReads'

/**
 * Random Anthropic bodies (src/test/anthropicBodies.ts) read by pi-ai 0.82.1 through the harness's route and by
 * Chunkscope: the same chunks (docs/protocol.md §9, "The harness's pi-ai route").
 */
describe('random Anthropic bodies agree with pi-ai through the harness route', () => {
  it('gives the same chunks', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const oracle = await piAiChunks(text)
        expect(oracle.fetchCalls).toHaveLength(1)
        const ours = readSseStream(text, 'anthropic-sse').attempt?.chunks.map((c) => c.chunk) ?? []
        expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(oracle.chunks)))
      }),
      { numRuns: 400 },
    )
  })

  // The network decides where reads end; pi-ai's reader sees a CR that ends one read as a whole line break
  // (docs/protocol.md §13). The oracle's fake fetch answers in the same reads.
  it('gives the same chunks when the body arrives cut into reads', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.array(fc.nat(), { maxLength: 8 }), async (text, offsets) => {
        const bytes = new TextEncoder().encode(text)
        const cuts = [...new Set(offsets.map((o) => o % (bytes.length + 1)))]
          .filter((cut) => cut > 0 && cut < bytes.length)
          .sort((a, b) => a - b)
        const oracle = await piAiChunks(text, 200, { 'content-type': 'text/event-stream' }, cuts)
        const ours = chunksOfReads(piAiReader, bytes, cuts)
        expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(oracle.chunks)))
      }),
      { numRuns: 400 },
    )
  })
})
