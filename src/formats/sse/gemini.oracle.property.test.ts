import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { geminiBody as body } from '../../test/geminiBodies'
import { piAiApiChunks } from '../../test/piAiOracle'
import { withoutClock } from './gemini.oracle.test'
import { geminiModelOfBody } from './geminiModel'
import { readSseStream } from './readSse'

/**
 * Random Gemini bodies (src/test/geminiBodies.ts) read by pi-ai 0.82.1 through `@google/genai` and the harness's
 * route, and by Chunkscope: the same chunks, made-up tool call ids compared without their numbers (docs/protocol.md
 * §9.3).
 */
describe('random Gemini bodies agree with pi-ai through the harness route', () => {
  it('gives the same chunks', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const oracle = await piAiApiChunks('google-generative-ai', geminiModelOfBody(text), text)
        const ours = readSseStream(text, 'gemini-sse').attempt?.chunks.map((c) => c.chunk) ?? []
        expect(withoutClock(ours)).toEqual(withoutClock(oracle.chunks))
      }),
      { numRuns: 400 },
    )
  })
})
