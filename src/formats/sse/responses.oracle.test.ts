import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { piAiApiChunks } from '../../test/piAiOracle'
import { readSseStream } from './readSse'
import { responsesModelOfBody } from './responsesModel'
import { readHttpHead } from './sseEvents'

/**
 * Differential test: every OpenAI Responses body in the fixtures (recorded ones from public repositories, see
 * fixtures/responses/SOURCES.md, synthetic ones from scripts/make-piai-fixtures.mjs and their damaged variants) read
 * by the real pi-ai 0.82.1 through the openai SDK — what the harness's pi-ai route runs — and mapped as the route maps
 * pi-ai's events (docs/protocol.md §9), must equal Chunkscope's translation chunk for chunk. `PIAI_HELD_OUT`, when
 * set, names one more folder of `.sse` bodies (recordings kept out of the repository) checked the same way.
 */
const dirs = [new URL('../fixtures/responses/', import.meta.url).pathname]
const heldOut = process.env['PIAI_HELD_OUT']
if (heldOut && existsSync(heldOut)) dirs.push(heldOut)
const bodies = dirs.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.sse') || name.endsWith('.http'))
    .map((name) => ({ name, text: readFileSync(`${dir}/${name}`, 'utf8') })),
)

const chunkscope = (text: string) =>
  JSON.parse(
    JSON.stringify(readSseStream(text, 'openai-responses-sse').attempt!.chunks.map((c) => c.chunk)),
  ) as unknown

describe('OpenAI Responses bodies agree with pi-ai through the harness route', () => {
  it('has 20+ bodies to compare', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(20)
  })

  it.each(bodies)('$name', async ({ text }) => {
    const head = readHttpHead(text)
    const body = head === null ? text : text.slice(head.bodyStart)
    const oracle = await piAiApiChunks(
      'openai-responses',
      responsesModelOfBody(body),
      body,
      head?.status ?? 200,
      head === null ? undefined : { ...head.headers },
    )
    expect(oracle.fetchCalls).toEqual(['https://api.openai.com/v1/responses'])
    expect(chunkscope(text)).toEqual(JSON.parse(JSON.stringify(oracle.chunks)))
  })
})
