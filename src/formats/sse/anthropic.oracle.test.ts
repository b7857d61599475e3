import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { piAiChunks } from '../../test/piAiOracle'
import { readSseStream } from './readSse'
import { readHttpHead } from './sseEvents'

/**
 * Differential test: every Anthropic body in the fixtures (recorded ones from public repositories, see
 * fixtures/anthropic/SOURCES.md, and synthetic edge cases) read by the real pi-ai 0.82.1 — the library the
 * harness's pi-ai route runs — mapped to chunks as the route maps pi-ai's events (docs/protocol.md §9), must equal
 * Chunkscope's translation chunk for chunk. pi-ai's only transport is a fake `fetch` answering with the body.
 */
const dir = new URL('../fixtures/anthropic/', import.meta.url)
const older = new URL('../fixtures/', import.meta.url)
const bodies = [
  ...readdirSync(dir)
    .filter((name) => name.endsWith('.sse') || name.endsWith('.http'))
    .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') })),
  ...readdirSync(older)
    .filter((name) => name.startsWith('anthropic-') && name.endsWith('.sse'))
    .map((name) => ({ name, text: readFileSync(new URL(name, older), 'utf8') })),
]

const chunkscope = (text: string) =>
  JSON.parse(
    JSON.stringify(readSseStream(text, 'anthropic-sse').attempt!.chunks.map((c) => c.chunk)),
  ) as unknown

describe('Anthropic bodies agree with pi-ai through the harness route', () => {
  it('has 20+ bodies to compare', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(20)
  })

  it.each(bodies)('$name', async ({ text }) => {
    // A capture with an HTTP head (`curl -i`): pi-ai gets the status, headers and body it describes.
    const head = readHttpHead(text)
    const oracle =
      head === null
        ? await piAiChunks(text)
        : await piAiChunks(text.slice(head.bodyStart), head.status, { ...head.headers })
    expect(oracle.fetchCalls).toEqual(['https://api.anthropic.com/v1/messages'])
    expect(chunkscope(text)).toEqual(JSON.parse(JSON.stringify(oracle.chunks)))
  })
})
