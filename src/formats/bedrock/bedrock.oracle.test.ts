import { readdirSync, readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { piAiBedrockChunks } from '../../test/piAiOracle'
import { loadBytes } from '../loadBytes'

/**
 * Differential test: every Bedrock event-stream fixture (scripts/make-bedrock-fixtures.mjs) read by the real pi-ai
 * 0.82.1 through the AWS SDK and mapped as the harness's route maps pi-ai's events (docs/protocol.md §9.4) must equal
 * Chunkscope's chunks.
 */
const dir = new URL('../fixtures/bedrock/', import.meta.url)
const bodies = readdirSync(dir)
  .filter((name) => name.endsWith('.eventstream'))
  .map((name) => ({
    name,
    bytes: new Uint8Array(readFileSync(new URL(name, dir))),
  }))

describe('Bedrock bodies agree with pi-ai through the harness route', () => {
  it.each(bodies)('$name', async ({ bytes }) => {
    const oracle = await piAiBedrockChunks(bytes)
    expect(oracle.requests).toBe(1)
    const ours = (await loadBytes(bytes)).sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
    expect(ours).toEqual(oracle.chunks)
  })

  it('a body cut at any of 40 offsets, or with one byte flipped, still agrees', async () => {
    const whole = bodies.find((b) => b.name === 'reasoning-tool-call.eventstream')!.bytes
    const disagreements: unknown[] = []
    for (let k = 1; k <= 40; k++) {
      const at = Math.floor((whole.length * k) / 41)
      const flipped = whole.slice()
      flipped[at] = flipped[at]! ^ 0x20
      for (const [how, bytes] of [
        ['cut', whole.slice(0, at)],
        ['flipped', flipped],
      ] as const) {
        const oracle = await piAiBedrockChunks(bytes)
        const read = await loadBytes(bytes)
        const ours = read.sessions[0]?.streams[0]?.chunks.map((c) => c.chunk) ?? []
        // A body whose first frame is unreadable is not opened; pi-ai then reports only its failure.
        const agrees =
          ours.length === 0
            ? (oracle.chunks.at(-1) as { reason?: { kind?: string } } | undefined)?.reason?.kind === 'error'
            : isDeepStrictEqual(ours, oracle.chunks)
        if (!agrees) disagreements.push({ how, at, ours, oracle: oracle.chunks })
      }
    }
    expect(disagreements).toEqual([])
  })
})
