// What a chat request asks for (`"stream": true`, `"model"`), read from its body as it streams upstream: the proxy
// forwards bodies without holding them, so it scans the bytes once, keeping only a few top-level values.

/** Top-level values kept (their JSON text, at most this many bytes each); other values are skipped. */
const WANTED = new Set(['stream', 'model'])
const MAX_VALUE_BYTES = 1024

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const COLON = 0x3a
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

/**
 * A byte-at-a-time scan of one JSON object body that keeps the JSON text of its top-level `stream` and `model`
 * values. It tracks only string/escape state and nesting depth, so memory stays constant whatever the body's size;
 * a body that is not a JSON object (or is cut) yields null.
 *
 * @example
 * const sniffer = new RequestSniffer()
 * sniffer.feed(Buffer.from('{"model":"deepseek-chat","messages":[],"stream":true}'))
 * sniffer.result() // { stream: true, model: 'deepseek-chat' }
 */
export class RequestSniffer {
  private depth = 0
  private inString = false
  private escaped = false
  private started = false
  private done = false
  private broken = false
  /** Where the scan is among the top-level object's members. */
  private expect: 'key' | 'colon' | 'value' | 'after' = 'key'
  private readingKey = false
  private keyBytes: number[] = []
  private key = ''
  /** The JSON text of the current top-level value, while it is a wanted one and short enough. */
  private captured: number[] | null = null
  private readonly values = new Map<string, string>()

  feed(bytes: Uint8Array): void {
    for (const byte of bytes) {
      if (this.broken) return
      this.step(byte)
    }
  }

  /**
   * The request's `stream === true`, whether it said `stream: false` (Ollama streams unless told not to), and its
   * string `model`; null when the body was not one whole JSON object.
   */
  result(): { stream: boolean; noStream: boolean; model: string | null } | null {
    if (this.broken || !this.done) return null
    const parse = (name: string): unknown => {
      try {
        return JSON.parse(this.values.get(name) ?? '')
      } catch {
        return undefined
      }
    }
    const model = parse('model')
    const stream = parse('stream')
    return {
      stream: stream === true,
      noStream: stream === false,
      model: typeof model === 'string' ? model : null,
    }
  }

  private step(byte: number): void {
    if (this.done) {
      if (!isSpace(byte)) this.broken = true
      return
    }
    const endsMember = this.depth === 1 && !this.inString && (byte === COMMA || byte === CLOSE_BRACE)
    if (this.captured !== null && !endsMember) {
      if (this.captured.length < MAX_VALUE_BYTES) this.captured.push(byte)
      else this.captured = null
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false
      else if (byte === BACKSLASH) this.escaped = true
      else if (byte === QUOTE) {
        this.inString = false
        if (this.readingKey) {
          this.readingKey = false
          this.key = Buffer.from(this.keyBytes).toString('utf8')
          this.expect = 'colon'
        }
        return
      }
      if (this.readingKey && this.keyBytes.length <= 64) this.keyBytes.push(byte)
      return
    }
    if (isSpace(byte)) return
    if (!this.started) {
      this.started = true
      if (byte === OPEN_BRACE) this.depth = 1
      else this.broken = true
      return
    }
    if (this.depth === 1) return this.member(byte)
    if (byte === QUOTE) this.inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth += 1
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) this.depth -= 1
  }

  /** A byte between the top-level object's members (depth 1, outside strings). */
  private member(byte: number): void {
    switch (this.expect) {
      case 'key':
        if (byte === QUOTE) {
          this.inString = true
          this.readingKey = true
          this.keyBytes = []
        } else if (byte === CLOSE_BRACE) this.finish()
        else this.broken = true
        return
      case 'colon':
        if (byte !== COLON) this.broken = true
        this.expect = 'value'
        this.captured = WANTED.has(this.key) ? [] : null
        return
      case 'value':
        this.expect = 'after'
        if (byte === QUOTE) this.inString = true
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth += 1
        return
      case 'after':
        if (byte !== COMMA && byte !== CLOSE_BRACE) return // the rest of a literal (`true`, `12.5`)
        if (this.captured !== null) this.values.set(this.key, Buffer.from(this.captured).toString('utf8'))
        this.captured = null
        if (byte === COMMA) this.expect = 'key'
        else this.finish()
        return
    }
  }

  private finish(): void {
    this.depth = 0
    this.done = true
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}
