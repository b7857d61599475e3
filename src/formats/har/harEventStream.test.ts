import { readFileSync } from 'node:fs'
import type { StreamChunk } from '../../core/protocol'
import { describe, expect, it } from 'vitest'
import { readEventFrames } from '../bedrock/eventFrames'
import { readTextFrames } from '../bedrock/textFrames'
import { loadBytes } from '../loadBytes'
import { loadSource } from '../load'

/** A Bedrock event stream inside a HAR, as base64 or saved as text (docs/protocol.md §9.4, "In a HAR"). */
const bedrock = (name: string) => readFileSync(new URL(`../fixtures/bedrock/${name}`, import.meta.url))
const harFile = (name: string) =>
  readFileSync(new URL(`../fixtures/bedrock-har/${name}`, import.meta.url), 'utf8')
const har = (name: string) => loadSource(harFile(name), name)
const FRAMES = readEventFrames(new Uint8Array(bedrock('reasoning-tool-call.eventstream'))).frames.length
const messages = (source: { diagnostics: readonly { message: string }[] }) =>
  source.diagnostics.map((d) => d.message).join('\n')
const chunks = (source: Awaited<ReturnType<typeof loadBytes>>) =>
  source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)

describe('a Bedrock event stream in a HAR', () => {
  it('a base64 body is the binary body: the same chunks, CRCs checked', async () => {
    const binary = await loadBytes(new Uint8Array(bedrock('reasoning-tool-call.eventstream')))
    const source = har('base64.har')
    expect(source.format).toBe('har')
    expect(chunks(source)).toEqual(chunks(binary))
    expect(messages(source)).toContain(`a Bedrock event stream, ${FRAMES} frames, CRCs checked`)
  })

  it('a body saved as UTF-8 text is recovered from its headers and payloads, and says its CRCs were not checked', async () => {
    const binary = await loadBytes(new Uint8Array(bedrock('reasoning-tool-call.eventstream')))
    const source = har('text-utf8.har')
    // The text really is lossy: it does not encode back to the original bytes.
    const text = (
      JSON.parse(harFile('text-utf8.har')) as {
        log: { entries: { response: { content: { text: string } } }[] }
      }
    ).log.entries[0]!.response.content.text
    expect(Buffer.from(text, 'utf8').equals(bedrock('reasoning-tool-call.eventstream'))).toBe(false)
    expect(chunks(source)).toEqual(chunks(binary))
    const warning = source.diagnostics.find((d) => d.severity === 'warning')!
    expect(warning.message).toMatch(/^har1 \(POST https:\/\/bedrock-runtime\./)
    expect(warning.message).toMatch(
      new RegExp(
        `a Bedrock event stream saved as text, not base64: UTF-8 decoding replaced bytes of its binary framing \\(\\d+ U\\+FFFD\\), so frame lengths and CRC32s cannot be checked; ${FRAMES} frames recovered`,
      ),
    )
  })

  it('text cut inside a payload: the entry and the frame named, the frames before it read, the stream fails there', () => {
    const source = har('text-utf8-torn.har')
    expect(messages(source)).toMatch(
      /har1 \(POST [^)]+\): body frame \d+ at character \d+: the text ends inside this frame's JSON payload/,
    )
    const stream = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk as StreamChunk)
    expect(stream.at(-1)).toMatchObject({
      type: 'finish',
      reason: { kind: 'error', failure: { message: 'Truncated event message received.' } },
    })
    const ends = stream.flatMap((c) => (c.type === 'block-end' ? [c.block.type] : []))
    expect(ends).toEqual(['reasoning', 'text'])
  })

  it('text whose characters are the bytes (a Latin-1 decoding) is read exactly, CRCs checked', () => {
    const bytes = bedrock('reasoning-tool-call.eventstream')
    const read = readTextFrames(bytes.toString('latin1'))
    expect(read.how).toBe('exact')
    expect(read.failure).toBeNull()
    // One flipped payload character is then a CRC failure the binary decoder names, not a silent recovery.
    const flipped = bytes.toString('latin1').replace('Paris', 'Parix')
    const damaged = readTextFrames(flipped)
    expect(damaged.how).toBe('recovered')
  })

  it('text with no header block a frame could start from cannot be read, and says why', () => {
    // Header names with their length and type bytes, but no value length, value or payload after them.
    const framed = (name: string) => String.fromCharCode(name.length) + name + String.fromCharCode(7)
    const text = `${framed(':message-type')}??${framed(':event-type')}?? no frames`
    const entry = {
      request: { method: 'POST', url: 'https://bedrock/x' },
      response: { status: 200, content: { mimeType: 'application/vnd.amazon.eventstream', text } },
    }
    const source = loadSource(JSON.stringify({ log: { entries: [entry] } }))
    expect(messages(source)).toMatch(
      /har1 \(POST https:\/\/bedrock\/x\): a Bedrock event stream saved as text, not base64: no frame's header block/,
    )
    expect(source.sessions).toEqual([])
  })

  it('the body alone saved as text (not in a HAR) opens the same way, as its own format', async () => {
    const binary = await loadBytes(new Uint8Array(bedrock('reasoning-tool-call.eventstream')))
    const source = loadSource(harFile('reasoning-tool-call.utf8.txt'))
    expect(source.format).toBe('bedrock-eventstream-text')
    expect(chunks(source)).toEqual(chunks(binary))
    expect(source.diagnostics[0]).toMatchObject({ line: 1, severity: 'warning' })
    expect(source.diagnostics[0]!.message).toMatch(/^a Bedrock event stream saved as text, not base64: /)
  })

  it('an event-stream entry the browser saved without its body says so by entry', () => {
    const entry = {
      request: { method: 'POST', url: 'https://bedrock/x' },
      response: { status: 200, content: { mimeType: 'application/vnd.amazon.eventstream', size: 900 } },
    }
    const source = loadSource(JSON.stringify({ log: { entries: [entry] } }))
    expect(messages(source)).toMatch(
      /har1 \(POST https:\/\/bedrock\/x\): application\/vnd\.amazon\.eventstream response with no body/,
    )
  })
})
