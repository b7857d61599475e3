import { streamsSession, type Attempt, type WireTrace } from '../../core/session'
import { isEventStream, readEventFrames } from '../bedrock/eventFrames'
import { readFrames } from '../bedrock/readBedrock'
import { looksLikeEventStreamText, readTextFrames } from '../bedrock/textFrames'
import type { Diagnostic, ReadResult } from '../types'

type Say = (severity: Diagnostic['severity'], message: string) => void

/** The bytes of a base64 body, or null when it is none (the caller decodes it as text and says why). */
export function base64Bytes(text: string): Uint8Array | null {
  try {
    const binary = atob(text.replace(/\s+/g, ''))
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  } catch {
    return null
  }
}

/**
 * A HAR entry whose body is a Bedrock event stream (docs/protocol.md §9.4, "In a HAR"): base64 bytes go through
 * the binary decoder, CRCs checked; a body saved as text is read back (`readTextFrames`) and says how — exactly,
 * or recovered from its headers and JSON payloads with its CRCs unverifiable. Undefined when the body is no event
 * stream; null when it is one but yields no stream (the diagnostics say why).
 */
export function readHarEventStream(
  body: { bytes: Uint8Array } | { text: string },
  id: string,
  request: WireTrace['request'] | undefined,
  say: Say,
): Attempt | null | undefined {
  let read: ReturnType<typeof readFrames>
  if ('bytes' in body) {
    if (!isEventStream(body.bytes)) return undefined
    const { frames, failure } = readEventFrames(body.bytes)
    read = readFrames(frames, failure, { id, request })
    say(
      'info',
      `base64 body of ${body.bytes.length} bytes: a Bedrock event stream, ${frames.length} frames, CRCs checked`,
    )
  } else {
    if (!looksLikeEventStreamText(body.text)) return undefined
    const frames = readTextFrames(body.text)
    read = readFrames(frames.frames, frames.failure, { id, request })
    if (frames.how === 'exact')
      say(
        'info',
        `a Bedrock event stream saved as text whose characters map back to its bytes: ${frames.frames.length} frames, CRCs checked`,
      )
    else if (frames.frames.length > 0)
      say(
        'warning',
        `a Bedrock event stream saved as text, not base64: UTF-8 decoding replaced bytes of its binary framing (${frames.lost} U+FFFD), so frame lengths and CRC32s cannot be checked; ${frames.frames.length} frames recovered from their headers and JSON payloads, unverified (its bytes, as a HAR keeps them with base64 bodies, can be checked)`,
      )
    else
      say(
        'error',
        `a Bedrock event stream saved as text, not base64: no frame's header block and JSON payload could be found in it (UTF-8 decoding lost ${frames.lost} bytes), so it cannot be read; its bytes can be (a HAR keeps them with base64 bodies)`,
      )
  }
  for (const d of read.diagnostics) say(d.severity, `body ${d.message}`)
  return read.attempt
}

/** A file holding a Bedrock event stream saved as text (a body copied out of devtools), read as a HAR's would be. */
export function readEventStreamText(text: string): ReadResult {
  const diagnostics: Diagnostic[] = []
  // The whole file is the body: its notes point at its start, the frames' own at their characters.
  const stream = readHarEventStream({ text }, 'stream', undefined, (severity, message) =>
    diagnostics.push({ line: 1, severity, message }),
  )
  return { diagnostics, sessions: stream ? [streamsSession([stream])] : [] }
}
