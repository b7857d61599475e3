import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { responsesBody as body } from '../../test/responsesBodies'
import { piAiApiChunks } from '../../test/piAiOracle'
import { readSseStream } from './readSse'
import { responsesModelOfBody } from './responsesModel'

/**
 * Random OpenAI Responses bodies (src/test/responsesBodies.ts) read by pi-ai 0.82.1 through the openai SDK and the
 * harness's route, and by Chunkscope: the same chunks (docs/protocol.md §9.2).
 */
describe('random OpenAI Responses bodies agree with pi-ai through the harness route', () => {
  it('gives the same chunks', { timeout: 120_000 }, async () => {
    const error = console.error
    // The SDK logs every unparsable event to the console; the comparison is what matters here.
    console.error = () => {}
    try {
      await fc.assert(
        fc.asyncProperty(body, async (text) => {
          const oracle = await piAiApiChunks('openai-responses', responsesModelOfBody(text), text)
          expect(oracle.fetchCalls).toHaveLength(1)
          const ours = readSseStream(text, 'openai-responses-sse').attempt?.chunks.map((c) => c.chunk) ?? []
          expect(JSON.parse(JSON.stringify(ours))).toEqual(JSON.parse(JSON.stringify(oracle.chunks)))
        }),
        { numRuns: 400 },
      )
    } finally {
      console.error = error
    }
  })
})
