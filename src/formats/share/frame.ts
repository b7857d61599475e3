import { crc32 } from '../../core/base/crc32'

// The frame around a share link's body (docs/protocol.md §14): its mode (plain or encrypted) and its check.

/**
 * The frame's mode and check: v1–v3, a mode byte and a CRC-32 (5 bytes); v4, the mode in the top 2 bits of byte 0
 * and the CRC-32's top 14 bits in the rest of bytes 0–1 (2 bytes: a short link is mostly its frame otherwise).
 */
export const headerOf = (version: number) => (version >= 4 ? 2 : 5)

/** The header as GCM additional data, with the check zeroed (it is written after encryption). */
export function aad(head: Uint8Array, version: number): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(head)
  if (version >= 4) {
    copy[0] = copy[0]! & 0xc0
    copy[1] = 0
  } else copy.fill(0, 1, 5)
  return copy
}

/** The mode a frame's byte 0 gives. */
export function modeOf(first: number, version: number): number {
  return version >= 4 ? first >> 6 : first
}

export function setMode(frame: Uint8Array, version: number, mode: number): void {
  frame[0] = version >= 4 ? mode << 6 : mode
}

/**
 * The CRC-32 of the mode byte (v4: the mode as a byte of its own) and everything after the header; v1–v3 write it
 * whole in bytes 1–4, v4 its top 14 bits in the low 6 bits of byte 0 and byte 1.
 */
function frameCrc(frame: Uint8Array, version: number): number {
  return crc32(frame.subarray(headerOf(version)), crc32(Uint8Array.of(modeOf(frame[0]!, version))))
}

export function writeCheck(frame: Uint8Array, version: number): void {
  const crc = frameCrc(frame, version)
  if (version < 4) new DataView(frame.buffer, frame.byteOffset).setUint32(1, crc)
  else {
    frame[0] = (frame[0]! & 0xc0) | (crc >>> 26)
    frame[1] = (crc >>> 18) & 0xff
  }
}

export function checkMatches(frame: Uint8Array, version: number): boolean {
  const crc = frameCrc(frame, version)
  if (version < 4) return new DataView(frame.buffer, frame.byteOffset).getUint32(1) === crc
  return (frame[0]! & 0x3f) === crc >>> 26 && frame[1] === ((crc >>> 18) & 0xff)
}
