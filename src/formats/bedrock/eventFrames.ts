import { EventStreamCodec } from '@smithy/eventstream-codec'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'

/** One decoded `application/vnd.amazon.eventstream` frame (docs/protocol.md §9.4). */
export type EventFrame = {
  /** 1-based position among the body's frames. */
  readonly number: number
  /** Byte offset of its prelude in the body. */
  readonly offset: number
  readonly length: number
  /** `:message-type`: `event`, `exception` or `error`. */
  readonly messageType: string
  /** `:event-type`, `:exception-type` or `:error-code`, whichever the message type names. */
  readonly type: string
  /** The payload as text (JSON for Bedrock), or `:error-message` for an `error` frame. */
  readonly payload: string
}

/** Why the frames stop before the body's end, with the SDK's own wording for the stream's failure. */
export type FrameFailure = {
  readonly number: number
  readonly offset: number
  /** For the diagnostic: what is wrong, and where. */
  readonly diagnostic: string
  /** What the SDK throws there, which pi-ai makes the stream's error message; null when it reads on. */
  readonly sdkMessage: string | null
}

export type FrameRead = { readonly frames: EventFrame[]; readonly failure: FrameFailure | null }

const PRELUDE = 12
const MINIMUM = 16

const codec = new EventStreamCodec(toUtf8, fromUtf8)

/**
 * Whether `bytes` start with an event-stream frame: a total length at least the frame overhead, a headers length
 * that fits inside it, and a first header name starting with `:` (the codec checks the CRCs when reading).
 */
export function isEventStream(bytes: Uint8Array): boolean {
  if (bytes.length < MINIMUM) return false
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const total = view.getUint32(0, false)
  const headers = view.getUint32(4, false)
  if (total < MINIMUM || headers === 0 || headers > total - MINIMUM) return false
  if (bytes.length < PRELUDE + 2) return false
  // A header is a one-byte name length, then the name: Bedrock's all start with ':'.
  const nameLength = bytes[PRELUDE]!
  if (nameLength < 2 || bytes[PRELUDE + 1] !== 0x3a) return false
  // The prelude's own CRC32: text that happens to fit the lengths above does not also fit this.
  return crc32(bytes.subarray(0, 8)) === view.getUint32(8, false)
}

let table: Uint32Array | null = null

/** CRC-32 (IEEE), for the sniff only; reading leaves every check to the codec. */
function crc32(bytes: Uint8Array): number {
  if (table === null) {
    table = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      table[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/**
 * Cuts the body into frames by their length preludes and decodes each with `@smithy/eventstream-codec`, which
 * checks the prelude and message CRC32s. Reading stops at the first frame that fails (the SDK throws there and
 * pi-ai fails the stream), keeping the frames before it; a last frame shorter than its prelude says is torn (the
 * SDK's "Truncated event message received.").
 */
export function readEventFrames(bytes: Uint8Array): FrameRead {
  const frames: EventFrame[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let offset = 0
  while (offset < bytes.length) {
    const number = frames.length + 1
    const where = `frame ${number} at byte ${offset}`
    const left = bytes.length - offset
    const total = left >= 4 ? view.getUint32(offset, false) : 0
    if (left < 4) {
      // The SDK reads a frame's length before anything else: with fewer than 4 bytes left it never starts one.
      return {
        frames,
        failure: {
          number,
          offset,
          diagnostic: `${where}: ${left} stray byte${left === 1 ? '' : 's'} after the last frame; the AWS SDK ignores them`,
          sdkMessage: null,
        },
      }
    }
    if (left < MINIMUM || total > left) {
      const size = `${total} bytes, of which ${left} are there`
      return {
        frames,
        failure: {
          number,
          offset,
          diagnostic: `${where}: the body ends inside this frame (${size}): a capture cut short; the frames before it are read`,
          sdkMessage: 'Truncated event message received.',
        },
      }
    }
    if (total < MINIMUM) {
      return {
        frames,
        failure: {
          number,
          offset,
          diagnostic: `${where}: its prelude gives a length of ${total} bytes, under the 16-byte frame overhead`,
          sdkMessage: 'Provided message too short to accommodate event stream message overhead',
        },
      }
    }
    let decoded: ReturnType<EventStreamCodec['decode']>
    try {
      decoded = codec.decode(bytes.subarray(offset, offset + total))
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const crc = /checksum/i.test(message) ? 'CRC32 check failed: ' : ''
      return {
        frames,
        failure: {
          number,
          offset,
          diagnostic: `${where}: ${crc}${message}; the frames before it are read, the stream fails here`,
          sdkMessage: message,
        },
      }
    }
    const header = (name: string) => {
      const value = decoded.headers[name]?.value
      return typeof value === 'string' ? value : ''
    }
    const messageType = header(':message-type')
    const type =
      messageType === 'exception'
        ? header(':exception-type')
        : messageType === 'error'
          ? header(':error-code')
          : header(':event-type')
    const payload = messageType === 'error' ? header(':error-message') : toUtf8(decoded.body)
    frames.push({ number, offset, length: total, messageType, type, payload })
    offset += total
  }
  return { frames, failure: null }
}
