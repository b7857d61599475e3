import type { AnyChunk, ContentBlock, SourcedChunk } from '../../core/protocol'
import { buildSession, compareRecorded, type SessionEvent } from '../../core/session'
import { isRecord } from '../../core/base/isRecord'
import { BlockAssembler } from '../../core/BlockAssembler'
import { jsonEqual } from '../../core/jsonEqual'

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
  return text.replace(MASKED, 'x')
}

/**
 * What redaction replaces: every code unit but space, tab, `\n`, `\r` and the invisible ones that change how text
 * reads (bidirectional controls, zero-width characters: the Trojan Source marks the UI shows, src/ui/hiddenChars.ts).
 * Those carry no words, and a redacted link must still show the marks the sender saw.
 */
const MASKED = /[^ \t\n\r\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/g
const HIDDEN = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/

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
      out += '"' + (isKey ? body : maskStringBody(body)) + (closed ? '"' : '')
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
      // A number token: digits 1–9 become 1, zeros stay (so `1.50` and `1.5` stay one value written two ways, and a
      // leading zero stays invalid); sign, point and exponent stay.
      let j = i
      while (j < n && /[0-9eE.+-]/.test(text[j]!)) j += 1
      out += text.slice(i, j).replace(/[1-9]/g, '1')
      i = j
      continue
    }
    out += 'x'
    i += 1
  }
  return out
}

/**
 * A JSON string's body, masked: each unit `x`, a valid escape as many `x` (`\n` → `xx`, `\u00e9` → `xxxxxx`), but
 * what makes the string invalid stays invalid (a backslash before anything else, a raw control character) and the
 * invisible characters stay (see {@link redactText}): valid JSON stays valid, invalid stays invalid
 * (`tool-arguments-invalid`, docs/protocol.md §5).
 */
function maskStringBody(body: string): string {
  let out = ''
  let i = 0
  while (i < body.length) {
    const c = body[i]!
    if (c === '\\') {
      const next = body[i + 1]
      if (next !== undefined && '"\\/bfnrt'.includes(next)) {
        out += 'xx'
        i += 2
      } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 2, i + 6))) {
        out += 'xxxxxx'
        i += 6
      } else {
        out += '\\'
        i += 1
      }
      continue
    }
    out += c < ' ' || HIDDEN.test(c) ? c : 'x'
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
  const redacted = chunks.map((sourced, position) => {
    const chunk = redactChunk(sourced.chunk, options, maskedArguments?.get(position))
    return chunk === sourced.chunk ? sourced : { seq: sourced.seq, time: sourced.time, chunk }
  })
  keepEndDifferences(chunks, redacted, options)
  return redacted
}

/**
 * A block-end that differs from what its deltas built must still differ once both are masked, or the opener loses
 * `end-content-mismatch` (docs/protocol.md §5): `hello` and `world` both mask to `xxxxx`. Each first block-end's
 * text or arguments is masked against what the redacted deltas built ({@link maskAgainst}). Arguments that differ
 * only in how their JSON is written are left as masked: they still parse to equal values (`formatting: yes`).
 */
function keepEndDifferences(
  chunks: readonly SourcedChunk[],
  redacted: SourcedChunk[],
  options: RedactionOptions,
): void {
  const original = new BlockAssembler()
  const masked = new BlockAssembler()
  chunks.forEach((sourced, position) => {
    const chunk = sourced.chunk
    if (chunk.type === 'block-end' && isRecord(chunk['block'])) {
      const index = chunk['index'] as number
      const built = original.partial(index)
      const maskedBuilt = masked.partial(index)
      const block = chunk['block']
      const field = block['type'] === 'tool-call' ? 'toolCallArguments' : 'text'
      const key = field === 'text' ? 'text' : 'arguments'
      const redactedChunk = redacted[position]!.chunk as Record<string, unknown>
      const redactedBlock = redactedChunk['block'] as Record<string, unknown>
      const value = block[key]
      const applies = field === 'text' ? options.text : options.arguments
      if (
        applies &&
        built !== undefined &&
        maskedBuilt !== undefined &&
        !built.block &&
        typeof value === 'string' &&
        typeof redactedBlock[key] === 'string' &&
        !(field === 'toolCallArguments' && sameJson(value, built[field]))
      ) {
        const kept = maskAgainst(
          value,
          built[field],
          redactedBlock[key] as string,
          maskedBuilt[field],
          field === 'toolCallArguments',
        )
        if (kept !== redactedBlock[key]) {
          redacted[position] = {
            seq: sourced.seq,
            time: sourced.time,
            chunk: { ...redactedChunk, block: { ...redactedBlock, [key]: kept } } as AnyChunk,
          }
        }
      }
    }
    original.push(chunk)
    masked.push(redacted[position]!.chunk)
  })
}

/**
 * `masked` (the mask of `value`), changed at each position where `value` differs from `reference` but the mask
 * agrees with `maskedReference`: `x` → `y` → `z`, a digit to the next one. Lengths stay; a masked JSON string or
 * number stays one; the two masks differ wherever the originals did, so a comparison of them says what the
 * original's said.
 */
export function maskAgainst(
  value: string,
  reference: string,
  masked: string,
  maskedReference: string,
  json: boolean,
): string {
  if (value === reference) return maskedReference
  // Per position, not only when the whole masks agree: where a recorded text stops following the deltas is its
  // first divergence, which the opener must find at the same chunk.
  let out = ''
  for (let i = 0; i < masked.length; i++) {
    const c = masked[i]!
    const r = maskedReference[i]
    if (value[i] !== reference[i]) out += c === r ? (NEXT[c] ?? c) : c
    // Where they agree, the reference's own mark (a `y` it got against the deltas) too: a record equal to a
    // block-end up to here stays equal to the redacted block-end up to here.
    // (Text takes it whatever it is: a delta whose `text` is `{}` builds an unmasked `[object Object]`, §3.)
    else out += r !== undefined && (!json || sameClass(c, r)) ? r : c
  }
  return out
}

function sameClass(a: string, b: string): boolean {
  return ('xyz'.includes(a) && 'xyz'.includes(b)) || (/[0-9]/.test(a) && /[0-9]/.test(b))
}

const NEXT: Readonly<Record<string, string>> = { x: 'y', y: 'z', z: 'x', '0': '2', '1': '2', '2': '3' }

function sameJson(a: string, b: string): boolean {
  try {
    return jsonEqual(JSON.parse(a), JSON.parse(b))
  } catch {
    return false
  }
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
  const against = recordedReferences(kept, out)
  return out.map((event) =>
    event.type === 'assistant/chunk' ? event : redactOtherEvent(event, options, against.get(event.seq)),
  )
}

/** What a recorded message is compared with, before and after redaction: the attempt's assembled blocks (§6). */
type RecordedReference = {
  readonly assembled: readonly ContentBlock[] | null
  readonly masked: readonly ContentBlock[] | null
}

/** Per `assistant/message` seq, the blocks its attempt assembles from the original and from the redacted chunks. */
function recordedReferences(
  original: readonly SessionEvent[],
  redacted: readonly SessionEvent[],
): Map<number, RecordedReference> {
  const references = new Map<number, RecordedReference>()
  const after = new Map(buildSession(null, redacted.slice()).streams.map((attempt) => [attempt.id, attempt]))
  for (const attempt of buildSession(null, original.slice()).streams) {
    const masked = after.get(attempt.id)
    if (attempt.recorded === null || masked?.recorded == null) continue
    references.set(attempt.recorded.seq, {
      assembled: compareRecorded(attempt)?.assembled ?? null,
      masked: compareRecorded(masked)?.assembled ?? null,
    })
  }
  return references
}

/**
 * A recorded message's content, redacted so that it compares with the redacted chunks as the original compares with
 * the original chunks (`recorded-mismatch` and its first divergence, docs/protocol.md §5, §6): a block equal to
 * the assembled one becomes the redacted assembled block, any other is masked against it ({@link maskAgainst}).
 */
export function redactRecordedContent(
  content: readonly unknown[],
  reference: RecordedReference | undefined,
  options: RedactionOptions,
): unknown[] {
  return content.map((block, i) => {
    if (!isRecord(block)) return block
    const redacted = redactBlock(block, options)
    const assembled = reference?.assembled?.[i] as Record<string, unknown> | undefined
    const masked = reference?.masked?.[i] as Record<string, unknown> | undefined
    if (assembled === undefined || masked === undefined) return redacted
    if (jsonEqual(block, assembled)) return masked
    if (block['type'] !== assembled['type'] || block['type'] !== masked['type']) return redacted
    const key = block['type'] === 'tool-call' ? 'arguments' : 'text'
    const [value, reference_, maskedValue, maskedReference] = [
      block[key],
      assembled[key],
      redacted[key],
      masked[key],
    ]
    if (
      typeof value !== 'string' ||
      typeof reference_ !== 'string' ||
      typeof maskedValue !== 'string' ||
      typeof maskedReference !== 'string' ||
      (key === 'arguments' && sameJson(value, reference_))
    )
      return redacted
    return {
      ...redacted,
      [key]: maskAgainst(value, reference_, maskedValue, maskedReference, key === 'arguments'),
    }
  })
}

function redactOtherEvent(
  event: SessionEvent,
  options: RedactionOptions,
  reference: RecordedReference | undefined,
): SessionEvent {
  const data = event.data
  if (!isRecord(data)) return event
  if (event.type === 'assistant/message') {
    const message = isRecord(data['message']) ? data['message'] : data
    const content = message['content']
    if (!Array.isArray(content)) return event
    const redacted = redactRecordedContent(content, reference, options)
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
