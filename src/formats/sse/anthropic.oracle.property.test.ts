import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anthropicBody as body } from '../../test/anthropicBodies'
import { piAiChunks } from '../../test/piAiOracle'
import { readSseStream } from './readSse'

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
})
