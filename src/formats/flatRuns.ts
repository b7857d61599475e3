import { PROGRESS_EVERY, type ProgressHook } from './json'

/** Lines per run: JSON.parse's cost per call is spread over this many (more gains little, and a failed run costs it). */
const RUN = 512
/** Longer lines go alone: one call per line is a small part of parsing them. */
const FLAT_MAX = 4096

/**
 * What {@link eachFlatRun} takes a run's values by: `code` is not 0 only for an object whose every field is a string
 * or a number (a flat value: no array or object inside), and `take` gets each such value with its code.
 */
export type FlatTaker = {
  code(value: unknown): number
  take(value: unknown, code: number): void
}

/**
 * The lines of a text as {@link eachLine} visits them (a leading BOM skipped, a trailing `\r` dropped, numbered from
 * 1, or from `from` after `visited` lines as eachLine's), except that runs of lines that look like flat JSON objects are parsed with one JSON.parse call: for short lines
 * (chunk NDJSON, ~70 characters) the cost per call is a large share of the parse.
 *
 * A run of n lines is parsed as `[L1\n,L2\n,…,Ln]`. A JSON string cannot hold a raw newline, so no string
 * crosses a separator, and every line starts with `{` and ends with `}` ({@link looksFlat}). When the result is n
 * flat values (`flat.code`: objects whose fields are strings or numbers, so each one's text holds one `{` and one
 * `}` outside strings), element k is line k whole: the `}` that ends a line is outside any string, so it closes the
 * object that holds it, and no element spans a separator; each line, opening with `{`, makes at least one element,
 * so n elements are one per line, and element k's value is what JSON.parse of line k alone gives. Any other outcome
 * (a throw, another count, one value that is not flat) visits every line of the run one by one, so each line's
 * diagnostics are the per-line reading's, in order. (Wrapping each line in its own array, `[[L1]\n,[L2]…]`, proves
 * the same by counting brackets, and parses 20% slower: one array more per line.)
 *
 * @example
 * eachFlatRun(text, (line, number) => readAlone(line, number), { code: heldChunkCode, take: write })
 */
export function eachFlatRun(
  text: string,
  visit: (line: string, number: number) => void,
  flat: FlatTaker,
  onProgress?: ProgressHook,
  from = 0,
  visited = 0,
): void {
  /** Where each line of the run being gathered ends (its `\n`). */
  const ends = new Int32Array(RUN)
  const codes = new Uint8Array(RUN)
  let pos = from === 0 && text.charCodeAt(0) === 0xfeff ? 1 : from
  let number = visited
  let reported = from
  while (pos < text.length) {
    if (onProgress !== undefined && pos - reported >= PROGRESS_EVERY) {
      onProgress(pos, text.length)
      reported = pos
    }
    let count = 0
    for (let at = pos; count < RUN; count++) {
      const newline = text.indexOf('\n', at)
      if (newline === -1 || !looksFlat(text, at, newline)) break
      ends[count] = newline
      at = newline + 1
    }
    if (count > 1) {
      const values = parseRun(text.slice(pos, ends[count - 1]), count, codes, flat)
      for (let k = 0; k < count; k++) {
        if (values !== null) flat.take(values[k], codes[k]!)
        else visit(lineOf(text, k === 0 ? pos : ends[k - 1]! + 1, ends[k]!), number + k + 1)
      }
      number += count
      pos = ends[count - 1]! + 1
      continue
    }
    const newline = text.indexOf('\n', pos)
    const end = newline === -1 ? text.length : newline
    number += 1
    visit(lineOf(text, pos, end), number)
    pos = end + 1
  }
}

/** The line from `start` to its `\n` at `end`, a trailing `\r` dropped (as eachLine cuts it). */
function lineOf(text: string, start: number, end: number): string {
  return text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end)
}

/**
 * Whether the line may be a flat object: `{` first, `}` last, and that `}` closes no inner object or array (a chunk
 * that holds one, such as a block-end, goes alone instead of failing its run). Only a hint: the parse decides.
 */
function looksFlat(text: string, start: number, end: number): boolean {
  let last = end - 1
  if (text.charCodeAt(last) === 13) last -= 1
  if (last - start < 1 || last - start >= FLAT_MAX) return false
  if (text.charCodeAt(start) !== 123 || text.charCodeAt(last) !== 125) return false
  const before = text.charCodeAt(last - 1)
  return before !== 125 && before !== 93
}

/** The run's values, their codes in `codes`; null when the run must be read line by line. */
function parseRun(body: string, count: number, codes: Uint8Array, flat: FlatTaker): unknown[] | null {
  let values: unknown
  try {
    values = JSON.parse(`[${body.replaceAll('\n', '\n,')}]`)
  } catch {
    return null
  }
  if (!Array.isArray(values) || values.length !== count) return null
  for (let k = 0; k < count; k++) {
    const code = flat.code(values[k])
    if (code === 0) return null
    codes[k] = code
  }
  return values
}
