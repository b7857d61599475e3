/** Small helpers shared by the readers: JSON parsing that reports instead of throwing, and cheap line scanning. */

export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: string }

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

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
const PROGRESS_EVERY = 4 << 20

/**
 * The lines of a text, lazily, in one pass: `indexOf('\n')` and one slice per line, a trailing `\r` dropped,
 * a leading BOM skipped. A final empty segment after the last `\n` is not a line.
 */
export function* lines(text: string, onProgress?: ProgressHook): Generator<TextLine> {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let number = 0
  let reported = 0
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
    yield { number, text: text.slice(pos, stop), terminated }
    pos = end + 1
  }
}

/** The first `max` characters of a line, JSON-quoted, for messages: `"{\"type\":\"ses…"`. */
export function preview(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text)
}
