// Byte columns of a v2 share link (docs/protocol.md §14): unsigned LEB128 varints, zigzag for signed values.
// Arithmetic, not bit operators, so every safe integer codes exactly.

/** The largest magnitude a zigzag-coded value may have (its code must stay a safe integer). */
export const MAX_ZIGZAG = 2 ** 52 - 1

/** A growable byte buffer. */
export class ByteWriter {
  private bytes = new Uint8Array(64)
  length = 0

  byte(value: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2)
      grown.set(this.bytes)
      this.bytes = grown
    }
    this.bytes[this.length++] = value
  }

  /** A non-negative safe integer. */
  varint(value: number): void {
    let rest = value
    while (rest >= 128) {
      this.byte((rest % 128) + 128)
      rest = Math.floor(rest / 128)
    }
    this.byte(rest)
  }

  /** A signed integer of magnitude ≤ {@link MAX_ZIGZAG}: 0, −1, 1, −2… as 0, 1, 2, 3… */
  zigzag(value: number): void {
    this.varint(value >= 0 ? value * 2 : -value * 2 - 1)
  }

  append(bytes: Uint8Array): void {
    for (const byte of bytes) this.byte(byte)
  }

  /** A byte string preceded by its length. */
  block(bytes: Uint8Array): void {
    this.varint(bytes.length)
    if (this.length + bytes.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + bytes.length))
      grown.set(this.bytes.subarray(0, this.length))
      this.bytes = grown
    }
    this.bytes.set(bytes, this.length)
    this.length += bytes.length
  }

  result(): Uint8Array<ArrayBuffer> {
    return this.bytes.slice(0, this.length)
  }
}

/** Thrown by {@link ByteReader} on bytes no writer produces; the link decoder turns it into "damaged". */
export class Malformed extends Error {}

/** Thrown by a decoder whose output would pass the caller's cap: the opener says "too large", not "damaged". */
export class TooLarge extends Error {}

export class ByteReader {
  at = 0
  constructor(private readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.at
  }

  get done(): boolean {
    return this.at >= this.bytes.length
  }

  byte(): number {
    if (this.at >= this.bytes.length) throw new Malformed('a column ends early')
    return this.bytes[this.at++]!
  }

  varint(): number {
    let value = 0
    let scale = 1
    for (;;) {
      const byte = this.byte()
      value += (byte % 128) * scale
      if (byte < 128) break
      scale *= 128
      if (scale > 2 ** 49) throw new Malformed('a number is too long')
    }
    if (!Number.isSafeInteger(value)) throw new Malformed('a number is out of range')
    return value
  }

  zigzag(): number {
    const code = this.varint()
    return code % 2 === 0 ? code / 2 : -(code + 1) / 2
  }

  block(): Uint8Array {
    const length = this.varint()
    if (this.at + length > this.bytes.length) throw new Malformed('a column is cut short')
    const out = this.bytes.subarray(this.at, this.at + length)
    this.at += length
    return out
  }
}
