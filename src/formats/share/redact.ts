import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import type { SessionEvent } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'

/**
 * What a redacted share link hides. Every option keeps lengths, so chunk boundaries, character counts, the
 * timeline's shape and the assembler's behaviour (which never looks inside text) are preserved.
 */
export type RedactionOptions = {
  /** text-delta / reasoning-delta text, text and reasoning blocks, and the strings inside replayState. */
  readonly text: boolean
  /** Tool-call argument values: strings and numbers masked, JSON structure and keys kept. */
  readonly arguments: boolean
  /** (Sessions) Drop every event that is not a chunk or a turn/step/retry boundary. */
  readonly events: boolean
}

export const NO_REDACTION: RedactionOptions = { text: false, arguments: false, events: false }
export const FULL_REDACTION: RedactionOptions = { text: true, arguments: true, events: true }

export function isRedacting(options: RedactionOptions | undefined): boolean {
  return options !== undefined && (options.text || options.arguments || options.events)
}

/**
 * Same-length placeholder for model text: every UTF-16 code unit becomes `x` except space, tab, `\n` and `\r`,
 * which stay (so line structure and word lengths remain visible). Per code unit, so it commutes with
 * concatenation: the redacted deltas of a block concatenate to the redacted block-end text, whatever the split.
 *
 * @example
 * redactText('Hi there,\nBob') // 'xx xxxxxx\nxxx'
 */
export function redactText(text: string): string {
  return text.replace(/[^ \t\n\r]/g, 'x')
}

/**
 * Masks the values of (possibly partial or invalid) JSON text, keeping its length and structure: object keys,
 * braces, brackets, colons, commas, whitespace and `true`/`false`/`null` stay; string values become `x…x` (escapes
 * included, so the string stays valid); digits of numbers become `1` (no leading-zero problems; sign, point and
 * exponent stay); any other
 * character outside a string becomes `x`. Valid JSON stays valid JSON of the same shape.
 *
 * @example
 * maskJsonValues('{"path": "/etc/passwd", "n": 42}') // '{"path": "xxxxxxxxxxx", "n": 11}'
 */
export function maskJsonValues(text: string): string {
  let out = ''
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text[i]!
    if (c === '"') {
      // Find the string's end (an unescaped quote), or the text's end for a string cut short.
      let j = i + 1
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      const end = Math.min(j, n)
      const closed = end < n
      let after = end + 1
      while (after < n && /\s/.test(text[after]!)) after += 1
      const isKey = closed && text[after] === ':'
      const body = text.slice(i + 1, end)
      out += '"' + (isKey ? body : 'x'.repeat(body.length)) + (closed ? '"' : '')
      i = closed ? end + 1 : n
      continue
    }
    if ('{}[]:,'.includes(c) || c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      out += c
      i += 1
      continue
    }
    const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i))
    if (literal !== undefined) {
      out += literal
      i += literal.length
      continue
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      // A number token: digits become 1; sign, point and exponent stay.
      let j = i
      while (j < n && /[0-9eE.+-]/.test(text[j]!)) j += 1
      out += text.slice(i, j).replace(/[0-9]/g, '1')
      i = j
      continue
    }
    out += 'x'
    i += 1
  }
  return out
}

/**
 * Redacts a stream's chunks (see {@link RedactionOptions}). Tool-call arguments are masked per block index over the
 * concatenation of all its argumentsDelta fragments (stragglers included) and re-split at the original boundaries,
 * so a value split across chunks is masked exactly as the whole would be; a block-end's `arguments` is masked on
 * its own, which gives the same text when it equals the deltas. seq, time, indexes, ids, names, usage and finish
 * reasons stay; unknown chunks keep only their `type` and the shape of their other fields.
 */
export function redactChunks(chunks: readonly SourcedChunk[], options: RedactionOptions): SourcedChunk[] {
  if (!options.text && !options.arguments) return chunks.slice()
  const maskedArguments = options.arguments ? maskArgumentsByIndex(chunks) : null
  return chunks.map((sourced, position) => {
    const chunk = redactChunk(sourced.chunk, options, maskedArguments?.get(position))
    return chunk === sourced.chunk ? sourced : { seq: sourced.seq, time: sourced.time, chunk }
  })
}

/** position → masked argumentsDelta, for every tool-call-delta. */
function maskArgumentsByIndex(chunks: readonly SourcedChunk[]): Map<number, string> {
  const byIndex = new Map<unknown, number[]>()
  chunks.forEach((sourced, position) => {
    const chunk = sourced.chunk
    if (chunk.type !== 'tool-call-delta' || typeof chunk['argumentsDelta'] !== 'string') return
    const key = chunk['index']
    let positions = byIndex.get(key)
    if (positions === undefined) byIndex.set(key, (positions = []))
    positions.push(position)
  })
  const masked = new Map<number, string>()
  for (const positions of byIndex.values()) {
    const pieces = positions.map(
      (position) => (chunks[position]!.chunk as Record<string, unknown>)['argumentsDelta'] as string,
    )
    const whole = maskJsonValues(pieces.join(''))
    let at = 0
    positions.forEach((position, k) => {
      const length = pieces[k]!.length
      masked.set(position, whole.slice(at, at + length))
      at += length
    })
  }
  return masked
}

function redactChunk(
  chunk: AnyChunk,
  options: RedactionOptions,
  maskedArguments: string | undefined,
): AnyChunk {
  switch (chunk.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return options.text && typeof chunk['text'] === 'string'
        ? { ...chunk, text: redactText(chunk['text']) }
        : chunk
    case 'tool-call-delta':
      return maskedArguments !== undefined ? { ...chunk, argumentsDelta: maskedArguments } : chunk
    case 'block-end':
      return isRecord(chunk['block']) ? { ...chunk, block: redactBlock(chunk['block'], options) } : chunk
    case 'block-start':
    case 'usage':
      return chunk
    case 'finish': {
      const replayState = chunk['replayState']
      return options.text && replayState !== undefined
        ? { ...chunk, replayState: maskStrings(replayState) as never }
        : chunk
    }
    default:
      return options.text ? (maskStrings(chunk, ['type']) as AnyChunk) : chunk
  }
}

/** A content block, redacted like the deltas that build it. */
export function redactBlock(
  block: Record<string, unknown>,
  options: RedactionOptions,
): Record<string, unknown> {
  switch (block['type']) {
    case 'text':
    case 'reasoning':
      return options.text && typeof block['text'] === 'string'
        ? { ...block, text: redactText(block['text']) }
        : block
    case 'tool-call':
      return options.arguments && typeof block['arguments'] === 'string'
        ? { ...block, arguments: maskJsonValues(block['arguments']) }
        : block
    default:
      // tool-result, image and unknown types: every string but the type tags.
      return options.text ? (maskStrings(block, ['type']) as Record<string, unknown>) : block
  }
}

/** Every string in a JSON value replaced by a same-length placeholder; `keep` names keys whose values stay. */
export function maskStrings(value: unknown, keep: readonly string[] = []): unknown {
  if (typeof value === 'string') return 'x'.repeat(value.length)
  if (Array.isArray(value)) return value.map((item) => maskStrings(item, keep))
  if (isRecord(value)) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, not assignment: a "__proto__" key from a stream stays an own property.
      Object.defineProperty(out, key, {
        value: keep.includes(key) ? item : maskStrings(item, keep),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return out
  }
  return value
}

/**
 * Event types kept by `events: true`: what segmenting a log into turns, steps and attempts needs (§6), and the
 * recorded `assistant/message` (redacted like the chunks) without which `recorded-mismatch` would vanish.
 */
export const STRUCTURAL_EVENTS: ReadonlySet<string> = new Set([
  'assistant/chunk',
  'assistant/message',
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'llm/retry-started',
])

/**
 * Redacts a session's events: chunks as {@link redactChunks} does (per attempt is not needed: arguments are masked
 * per (turn, step, index) run of the log), `assistant/message` content and `tool/call` arguments consistently with
 * them (so recorded-message comparison keeps working), and with `events` every other event dropped.
 */
export function redactEvents(events: readonly SessionEvent[], options: RedactionOptions): SessionEvent[] {
  const kept = options.events ? events.filter((event) => STRUCTURAL_EVENTS.has(event.type)) : events.slice()
  if (!options.text && !options.arguments) return kept
  // Chunks of one (turn, step) share index numbers across attempts; mask arguments per (turn, step) group so a
  // retry's arguments do not join the failed attempt's.
  const groups = new Map<string, number[]>()
  kept.forEach((event, position) => {
    if (event.type !== 'assistant/chunk' || !isRecord(event.data) || !isRecord(event.data['chunk'])) return
    const key = JSON.stringify([event.data['turn'], event.data['step']])
    let positions = groups.get(key)
    if (positions === undefined) groups.set(key, (positions = []))
    positions.push(position)
  })
  const out = kept.slice()
  for (const positions of groups.values()) {
    const sourced = positions.map((position) => {
      const event = kept[position]!
      return { seq: event.seq, time: event.time, chunk: (event.data as { chunk: AnyChunk }).chunk }
    })
    const redacted = redactChunks(sourced, options)
    positions.forEach((position, k) => {
      const event = kept[position]!
      const chunk = redacted[k]!.chunk
      if (chunk !== sourced[k]!.chunk)
        out[position] = { ...event, data: { ...(event.data as object), chunk } }
    })
  }
  return out.map((event) => (event.type === 'assistant/chunk' ? event : redactOtherEvent(event, options)))
}

function redactOtherEvent(event: SessionEvent, options: RedactionOptions): SessionEvent {
  const data = event.data
  if (!isRecord(data)) return event
  if (event.type === 'assistant/message') {
    const message = isRecord(data['message']) ? data['message'] : data
    const content = message['content']
    if (!Array.isArray(content)) return event
    const redacted = content.map((block: unknown) => (isRecord(block) ? redactBlock(block, options) : block))
    const source = message['source']
    const newMessage = {
      ...message,
      content: redacted,
      ...(options.text && isRecord(source) && source['replayState'] !== undefined
        ? { source: { ...source, replayState: maskStrings(source['replayState']) } }
        : {}),
    }
    return { ...event, data: isRecord(data['message']) ? { ...data, message: newMessage } : newMessage }
  }
  if (event.type === 'tool/call' && options.arguments && typeof data['arguments'] === 'string') {
    return { ...event, data: { ...data, arguments: maskJsonValues(data['arguments']) } }
  }
  return event
}
