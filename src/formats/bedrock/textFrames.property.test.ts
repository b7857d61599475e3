import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readEventFrames } from './eventFrames'
import { readTextFrames } from './textFrames'

/**
 * A Bedrock event stream saved as text (docs/protocol.md §9.4, "In a HAR, or saved as text"), checked against the
 * binary decoder (`@smithy/eventstream-codec`, CRCs verified) on every Bedrock fixture: what the text gives back is
 * what the bytes hold, frame for frame, and a text cut anywhere gives a prefix of those frames, never a frame the
 * bytes do not have.
 */
const dir = new URL('../fixtures/bedrock/', import.meta.url)
const bodies = readdirSync(dir)
  .filter((name) => name.endsWith('.eventstream'))
  .map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(name, dir))) }))
  .filter(({ bytes }) => readEventFrames(bytes).failure === null)
const shape = (frames: readonly { messageType: string; type: string; payload: string }[]) =>
  frames.map(({ messageType, type, payload }) => ({ messageType, type, payload }))

describe('frames recovered from text agree with the binary decoder', () => {
  it.each(bodies)('$name decoded as UTF-8, or as Latin-1', ({ bytes }) => {
    const truth = shape(readEventFrames(bytes).frames)
    const utf8 = readTextFrames(new TextDecoder().decode(bytes))
    expect(shape(utf8.frames)).toEqual(truth)
    expect(utf8.failure).toBeNull()
    const latin1 = readTextFrames(String.fromCharCode(...bytes))
    expect(latin1.how).toBe('exact')
    expect(shape(latin1.frames)).toEqual(truth)
  })

  it('a UTF-8 text cut at any point gives a prefix of the frames, and says so when it cut one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bodies), fc.double({ min: 0, max: 1, noNaN: true }), ({ bytes }, at) => {
        const truth = shape(readEventFrames(bytes).frames)
        const text = new TextDecoder().decode(bytes)
        const cut = text.slice(0, Math.floor(text.length * at))
        const read = readTextFrames(cut)
        const got = shape(read.frames)
        expect(got).toEqual(truth.slice(0, got.length))
        // Fewer frames than the whole text holds: the last was cut (or only its CRC and prelude remain, then none).
        expect([undefined, 'Truncated event message received.']).toContain(read.failure?.sdkMessage)
      }),
      { numRuns: 300, seed: 20261201 },
    )
  })
})
