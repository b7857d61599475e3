import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { piAiApiChunks } from '../../test/piAiOracle'
import { geminiModelOfBody } from './geminiModel'
import { readSseStream } from './readSse'

/**
 * Differential test: every Gemini `streamGenerateContent` body in the fixtures (recorded ones, see
 * fixtures/gemini/SOURCES.md, synthetic ones from scripts/make-piai-fixtures.mjs and their damaged variants) read by
 * the real pi-ai 0.82.1 through `@google/genai` and mapped as the harness's route maps pi-ai's events
 * (docs/protocol.md §9.3) must equal Chunkscope's chunks. The one allowed difference: a tool call id pi-ai makes up
 * (`<name>_<clock>_<counter>`) is compared without its numbers. `PIAI_HELD_OUT_GEMINI` names one more folder.
 */
const dirs = [new URL('../fixtures/gemini/', import.meta.url).pathname]
const heldOut = process.env['PIAI_HELD_OUT_GEMINI']
if (heldOut && existsSync(heldOut)) dirs.push(heldOut)
const bodies = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.sse'))
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, 'utf8') })),
)

/** JSON of the chunks with made-up tool call ids reduced to their name. */
export const withoutClock = (chunks: unknown): unknown =>
  JSON.parse(JSON.stringify(chunks).replace(/"id":"([^"]*)_\d+_\d+"/g, '"id":"$1_#"'))

describe('Gemini bodies agree with pi-ai through the harness route', () => {
  it('has 10+ bodies to compare', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(10)
  })

  it.each(bodies)('$name', async ({ text }) => {
    const oracle = await piAiApiChunks('google-generative-ai', geminiModelOfBody(text), text)
    expect(oracle.fetchCalls).toHaveLength(1)
    const ours = readSseStream(text, 'gemini-sse').attempt!.chunks.map((c) => c.chunk)
    expect(withoutClock(ours)).toEqual(withoutClock(oracle.chunks))
  })
})
