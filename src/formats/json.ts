/** Small helpers shared by the readers: JSON parsing that reports instead of throwing, and cheap line scanning. */
import { isRecord } from '../core/base/isRecord'
import { MAX_JSON_DEPTH } from './limits'

export type ParsedJson =
  | { ok: true; value: unknown }
  /** `deep`: well-formed as far as it goes, refused for its depth alone (not "malformed"). */
  | { ok: false; reason: string; deep?: true }

/**
 * JSON.parse that reports instead of throwing, and refuses text nested deeper than `maxDepth` (limits.ts): V8
 * parses any depth, but what walks the value next (JSON.stringify, postMessage, the share-link encoder) recurses.
 *
 * @example
 * parseJson('[[1]]', 1) // { ok: false, reason: 'nested deeper than 1 levels (the most a reader accepts)' }
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): ParsedJson {
  if (nestsDeeperThan(text, maxDepth)) return { ok: false, reason: tooDeep(maxDepth), deep: true }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * {@link parseJson}, the depth scan left out when `shallow` vouches for the parsed value (it nests a few levels at
 * most): a packed row (docs/protocol.md §7) is a long line of a few brackets, scanned twice for nothing otherwise.
 * The outcome is parseJson's: a line that does not parse is still called too deep when it is, and a value `shallow`
 * does not vouch for is scanned.
 */
export function parseJsonUnless(
  text: string,
  shallow: (value: unknown) => boolean,
  maxDepth = MAX_JSON_DEPTH,
): ParsedJson {
  if (text.length <= 2 * maxDepth) return parseJson(text, maxDepth)
  let value: unknown
  try {
    value = JSON.parse(text) as unknown
  } catch (error) {
    if (nestsDeeperThan(text, maxDepth)) return { ok: false, reason: tooDeep(maxDepth), deep: true }
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
  if (!shallow(value) && nestsDeeperThan(text, maxDepth))
    return { ok: false, reason: tooDeep(maxDepth), deep: true }
  return { ok: true, value }
}

/** The reason readers give for a value nested past the limit. */
export function tooDeep(maxDepth = MAX_JSON_DEPTH): string {
  return `nested deeper than ${maxDepth} levels (the most a reader accepts)`
}

/**
 * Whether JSON text opens more than `max` arrays/objects at once (brackets inside strings do not count). Balanced
 * text needs two characters per level, so short text is never scanned; string contents are skipped with indexOf,
 * which keeps the scan a fraction of JSON.parse's own cost on logs that are mostly text.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max || opensAtMost(text, max)) return false
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // Jump to the closing quote: one preceded by an even number of backslashes.
      for (;;) {
        const close = text.indexOf('"', i + 1)
        if (close === -1) return false
        let slashes = 0
        while (text.charCodeAt(close - 1 - slashes) === 92) slashes++
        i = close
        if (slashes % 2 === 0) break
      }
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true
    } else if (c === 93 || c === 125) depth--
  }
  return false
}

/**
 * Whether the text holds at most `max` opening brackets, those inside strings included: then it cannot nest deeper
 * than `max`. Counted with indexOf, a native scan, so a long line of mostly text (a packed row, docs/protocol.md §7,
 * holds a few brackets around hundreds of strings) costs two scans instead of a walk from quote to quote.
 */
function opensAtMost(text: string, max: number): boolean {
  let count = 0
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1))
      if (++count > max) return false
  }
  return true
}

/**
 * Whether a parsed value nests more than `max` arrays/objects, walked without recursion: for values that did not
 * come through {@link parseJson} one record at a time (an element of a whole-file JSON array).
 */
export function valueNestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (typeof item !== 'object' || item === null) continue
    if (depth + 1 > max) return true
    for (const child of Object.values(item)) stack.push([child, depth + 1])
  }
  return false
}

/** Re-exported for the readers, which take their JSON helpers from here; defined once in core/base. */
export { isRecord }

/** A JSON value's kind for messages: `array`, `null`, `string`, … */
export function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

/** Whether the text holds only whitespace, without copying it (`trim()` would, on a 100 MB input). */
export function isBlank(text: string, from = 0, to = text.length): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    // space, \t, \n, \r, BOM
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 0xfeff) return false
  }
  return true
}

/** One line of a text: its 1-based number, its content without the line break, and whether a `\n` ended it. */
export type TextLine = { readonly number: number; readonly text: string; readonly terminated: boolean }

/** Told how far a reader got: `done` of `total` characters of its text. */
export type ProgressHook = (done: number, total: number) => void

/** Line readers report progress every this many characters (4 Mi: a few dozen reports for a 100 MB log). */
export const PROGRESS_EVERY = 4 << 20

/**
 * The lines of a text, lazily (sniffers stop after a few): what {@link eachLine} visits, one object per line.
 */
export function* lines(text: string): Generator<TextLine> {
  let from = 0
  let number = 0
  let line: TextLine | null = null
  const take = (text: string, at: number, terminated: boolean): boolean => {
    line = { number: at, text, terminated }
    number = at
    return false
  }
  while (from !== -1) {
    line = null
    from = eachLine(text, take, undefined, from, number)
    if (line !== null) yield line
  }
}

/**
 * The lines of a text in one pass: `indexOf('\n')` and one slice per line, a trailing `\r` dropped, a leading BOM
 * skipped; a final empty segment after the last `\n` is not a line. `visit` gets each line's text, 1-based number
 * and whether a `\n` ended it (no object per line: readers of 100 MB logs call it millions of times), and returns
 * false to pause; the result is where to resume (pass it back as `from`, with the lines visited so far), or -1.
 */
export function eachLine(
  text: string,
  visit: (line: string, number: number, terminated: boolean) => boolean | void,
  onProgress?: ProgressHook,
  from = 0,
  visited = 0,
): number {
  let pos = from === 0 && text.charCodeAt(0) === 0xfeff ? 1 : from
  let number = visited
  let reported = from
  while (pos < text.length) {
    if (onProgress !== undefined && pos - reported >= PROGRESS_EVERY) {
      onProgress(pos, text.length)
      reported = pos
    }
    const newline = text.indexOf('\n', pos)
    const terminated = newline !== -1
    const end = terminated ? newline : text.length
    const stop = end > pos && text.charCodeAt(end - 1) === 13 ? end - 1 : end
    number += 1
    const more = visit(text.slice(pos, stop), number, terminated)
    pos = end + 1
    if (more === false) return pos < text.length ? pos : -1
  }
  return -1
}

/** The first `max` characters of a line, JSON-quoted, for messages: `"{\"type\":\"ses…"`. */
export function preview(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text)
}

/** Lines longer than this are not parsed while sniffing (a huge single-line array must not be parsed twice). */
const PEEK_MAX_LINE = 1 << 20

/**
 * What a sniffer looks at: the first `count` non-blank lines, each the object it parses to, or null when it is
 * not a JSON object (or is too long to parse twice). Sniffers never read the whole text.
 *
 * @example
 * peekObjects('{"type":"session"}\n\nnot json\n', 20) // [{ type: 'session' }, null]
 */
export function peekObjects(text: string, count: number): (Record<string, unknown> | null)[] {
  const peeked: (Record<string, unknown> | null)[] = []
  if (count <= 0) return peeked
  for (const line of lines(text)) {
    if (isBlank(line.text)) continue
    peeked.push(asObjectLine(line.text))
    if (peeked.length === count) break
  }
  return peeked
}

function asObjectLine(line: string): Record<string, unknown> | null {
  if (line.length > PEEK_MAX_LINE) return null
  let first = 0
  while (first < line.length && isBlank(line, first, first + 1)) first += 1
  if (line[first] !== '{') return null
  const parsed = parseJson(line)
  return parsed.ok && isRecord(parsed.value) ? parsed.value : null
}
