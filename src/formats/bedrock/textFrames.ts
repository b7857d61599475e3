import { jsonValueEnd } from '../wire/concatenatedJson'
import { readEventFrames, type EventFrame, type FrameRead } from './eventFrames'

/** What a Bedrock event stream saved as text gave back (docs/protocol.md §9.4, "Saved as text"). */
export type TextFrameRead = FrameRead & {
  /** `exact`: the text maps back to the original bytes, CRCs checked; `recovered`: read by structure, unchecked. */
  readonly how: 'exact' | 'recovered'
  /** Characters that stand for bytes UTF-8 decoding could not keep (U+FFFD), when `recovered`. */
  readonly lost: number
}

/** A string header as it sits in a frame: its name's length byte, the name, then type 7 (string). */
const framed = (name: string) => String.fromCharCode(name.length) + name + String.fromCharCode(7)
const MESSAGE_TYPE = framed(':message-type')
const FIRST_HEADERS = [':event-type', ':exception-type', ':message-type', ':content-type', ':error-code'].map(
  framed,
)
/** A frame's 12-byte prelude decodes to at most 12 characters; its first header comes right after. */
const PRELUDE_CHARS = 12

/**
 * Whether a text is AWS event-stream frames decoded to text: it opens with a frame (a prelude of at most 12
 * characters, then a header with its length byte and string type byte) and carries a `:message-type` header —
 * which no text written as text does.
 */
export function looksLikeEventStreamText(text: string): boolean {
  const head = text.slice(0, 4096)
  const first = head.slice(0, PRELUDE_CHARS + 16)
  return (
    head.includes(MESSAGE_TYPE) &&
    FIRST_HEADERS.some((header) => first.indexOf(header) !== -1 && first.indexOf(header) <= PRELUDE_CHARS)
  )
}

/**
 * A Bedrock event stream whose bytes were saved as text (a HAR's `content.text` without base64), read back:
 * - when every character is one byte (a Latin-1 decoding) or the text encodes back to bytes whose frames all pass
 *   their CRCs, those bytes are read by the binary decoder, checked as any body is (`exact`);
 * - otherwise UTF-8 decoding replaced some bytes of the lengths and CRCs with U+FFFD and they are gone. What it
 *   cannot touch are ASCII bytes and valid UTF-8: the header names and string values, and the JSON payloads. Each
 *   frame is found by its header block (a name-length byte, `:name`, type 7, a two-byte value length, the value)
 *   and its payload is the balanced JSON object after it (`recovered`, nothing verified). A payload the text ends
 *   inside is a torn frame, failing as the SDK's "Truncated event message received." does.
 */
export function readTextFrames(text: string): TextFrameRead {
  for (const bytes of candidateBytes(text)) {
    const read = readEventFrames(bytes)
    if (read.frames.length > 0 && (read.failure === null || read.failure.sdkMessage === null))
      return { ...read, how: 'exact', lost: 0 }
  }
  let lost = 0
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0xfffd) lost += 1
  return { ...recoverFrames(text), how: 'recovered', lost }
}

/** The bytes the text may stand for: Latin-1 (one byte a character) when it can be, and UTF-8. */
function* candidateBytes(text: string): Generator<Uint8Array> {
  let latin1 = true
  for (let i = 0; i < text.length && latin1; i++) if (text.charCodeAt(i) > 0xff) latin1 = false
  if (latin1) {
    const bytes = new Uint8Array(text.length)
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
    yield bytes
  }
  yield new TextEncoder().encode(text)
}

/** The header names Bedrock frames carry; a frame's header block is found by one of them (checked in `headerAt`). */
const HEADER_NAME = /:(?:message-type|event-type|exception-type|error-code|error-message|content-type)/g

type Header = { readonly name: string; readonly value: string; readonly end: number }

/** One string header at `at` (name length, name, type 7, two-byte length, value), or null. */
function headerAt(text: string, at: number): Header | null {
  const nameLength = text.charCodeAt(at)
  if (!(nameLength >= 2 && nameLength < 0x80) || text.charCodeAt(at + 1) !== 0x3a) return null
  const name = text.slice(at + 1, at + 1 + nameLength)
  if (!/^:[a-z-]+$/.test(name)) return null
  let pos = at + 1 + nameLength
  if (text.charCodeAt(pos) !== 7) return null
  const high = text.charCodeAt(pos + 1)
  const low = text.charCodeAt(pos + 2)
  // Value lengths under 32 KiB have ASCII length bytes, which UTF-8 decoding keeps.
  if (!(high < 0x80 && low < 0x80)) return null
  let bytes = high * 256 + low
  pos += 3
  const start = pos
  while (bytes > 0 && pos < text.length) {
    const code = text.codePointAt(pos)!
    bytes -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
    pos += code >= 0x10000 ? 2 : 1
  }
  if (bytes !== 0) return null
  return { name, value: text.slice(start, pos), end: pos }
}

function recoverFrames(text: string): FrameRead {
  const frames: EventFrame[] = []
  HEADER_NAME.lastIndex = 0
  let from = 0
  for (;;) {
    HEADER_NAME.lastIndex = from
    const found = HEADER_NAME.exec(text)
    if (found === null) return { frames, failure: null }
    const number = frames.length + 1
    const headers = new Map<string, string>()
    // The name's length byte comes just before it.
    const at = found.index - 1
    let pos = at
    for (let header = headerAt(text, pos); header !== null; header = headerAt(text, pos)) {
      headers.set(header.name, header.value)
      pos = header.end
    }
    if (headers.size === 0) {
      from = found.index + 1
      continue
    }
    const begin = at
    const messageType = headers.get(':message-type') ?? ''
    const type =
      messageType === 'exception'
        ? (headers.get(':exception-type') ?? '')
        : messageType === 'error'
          ? (headers.get(':error-code') ?? '')
          : (headers.get(':event-type') ?? '')
    let payload = ''
    let end = pos
    if (messageType === 'error') payload = headers.get(':error-message') ?? ''
    else if (text.charCodeAt(pos) === 123) {
      end = jsonValueEnd(text, pos)
      if (end === -1)
        return {
          frames,
          failure: {
            number,
            offset: begin,
            diagnostic: `frame ${number} at character ${begin}: the text ends inside this frame's JSON payload (a capture cut short); the frames before it are read`,
            sdkMessage: 'Truncated event message received.',
          },
        }
      payload = text.slice(pos, end)
    } else {
      // No payload after the headers: the text ends in them (no payload anywhere after), or a header's bytes were
      // lost. Either way this frame cannot be read, and (as a frame that fails its CRC) the stream fails here.
      const cut = text.indexOf('{', pos) === -1
      return {
        frames,
        failure: {
          number,
          offset: begin,
          diagnostic: `frame ${number} at character ${begin}: ${cut ? "the text ends inside this frame's headers (a capture cut short)" : "no JSON payload follows its headers (a header's bytes were lost to the decoding)"}; the frames before it are read`,
          sdkMessage: cut
            ? 'Truncated event message received.'
            : 'Event stream frame could not be recovered from text',
        },
      }
    }
    frames.push({ number, offset: begin, length: end - begin, messageType, type, payload })
    from = end
  }
}
