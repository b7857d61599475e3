import { commonEnds } from '../../core/base/commonEnds'
import { diffChars, diffWordsWithSpace } from 'diff'
import { jsonEqual } from '../../core/jsonEqual'
import type { ContentBlock } from '../../core/protocol'

/** One run of a text diff: kept, only in the second text, or only in the first. */
export type DiffPart = { readonly op: 'same' | 'added' | 'removed'; readonly text: string }

/**
 * Myers diff costs O((n + m) · edits): past a budget it gives up and the changed middle is shown as one removal and
 * one addition. The edit limit shrinks with the length so a diff stays within a few tens of milliseconds.
 */
const EDIT_BUDGET = 1_500_000
const MAX_EDITS = 1_000
const TIMEOUT_MS = 100

/**
 * A diff of two texts: by characters (JSON arguments, where a re-serialised block differs by a space) or by words
 * (prose). Common head and tail are cut first in O(n), so a long text with a small change stays cheap.
 *
 * @example
 * diffText('{"a": 1}', '{"a":1}') // [same '{"a":', removed ' ', same '1}']
 */
export function diffText(before: string, after: string, by: 'chars' | 'words' = 'chars'): DiffPart[] {
  if (before === after) return before === '' ? [] : [{ op: 'same', text: before }]
  let { head, tail } = commonEnds(before, after)
  // Never split a surrogate pair, and let word diffs see whole words at the edges.
  head = backToBoundary(before, head, by)
  tail = before.length - forwardToBoundary(before, before.length - tail, by)
  if (after.length - tail < head) tail = after.length - head
  const middleBefore = before.slice(head, before.length - tail)
  const middleAfter = after.slice(head, after.length - tail)
  const size = middleBefore.length + middleAfter.length
  const options = {
    maxEditLength: Math.max(16, Math.min(MAX_EDITS, Math.floor(EDIT_BUDGET / Math.max(1, size)))),
    timeout: TIMEOUT_MS,
  }
  const changes =
    by === 'chars'
      ? diffChars(middleBefore, middleAfter, options)
      : diffWordsWithSpace(middleBefore, middleAfter, options)
  const replaced: DiffPart[] = [
    { op: 'removed', text: middleBefore },
    { op: 'added', text: middleAfter },
  ]
  const diffed: DiffPart[] | null = changes
    ? changes.map((c) => ({ op: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }))
    : null
  // When little of the middle is shared, interleaved fragments read worse than the old and new text whole.
  const shared = diffed?.reduce((sum, part) => sum + (part.op === 'same' ? part.text.length : 0), 0) ?? 0
  const middle = diffed && shared * 2 >= Math.max(middleBefore.length, middleAfter.length) ? diffed : replaced
  return merge([
    { op: 'same', text: before.slice(0, head) },
    ...middle,
    { op: 'same', text: before.slice(before.length - tail) },
  ])
}

function isWordChar(code: number): boolean {
  return code > 0x7f || (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
}

function backToBoundary(text: string, at: number, by: 'chars' | 'words'): number {
  let i = at
  if (i > 0 && i < text.length && isLowSurrogate(text.charCodeAt(i))) i--
  if (by === 'words') while (i > 0 && isWordChar(text.charCodeAt(i - 1))) i--
  return i
}

function forwardToBoundary(text: string, at: number, by: 'chars' | 'words'): number {
  let i = at
  if (i > 0 && i < text.length && isLowSurrogate(text.charCodeAt(i))) i++
  if (by === 'words') while (i < text.length && isWordChar(text.charCodeAt(i))) i++
  return i
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** Drops empty runs and joins neighbours of the same kind. */
function merge(parts: readonly DiffPart[]): DiffPart[] {
  const merged: DiffPart[] = []
  for (const part of parts) {
    if (part.text === '') continue
    const last = merged.at(-1)
    if (last && last.op === part.op) merged[merged.length - 1] = { op: part.op, text: last.text + part.text }
    else merged.push(part)
  }
  return merged
}

/** One field of a block that differs between two versions of it. */
export type FieldDiff = {
  readonly field: string
  /** JSON text of the value in the first block; undefined when the field is absent there. */
  readonly before: string | undefined
  readonly after: string | undefined
  /** A text diff for `text` and `arguments` present on both sides (short fields read better as before → after). */
  readonly parts: DiffPart[] | null
}

const TEXT_FIELDS: Readonly<Record<string, 'chars' | 'words'>> = { text: 'words', arguments: 'chars' }
/** The protocol's fields first (docs/protocol.md §1), any other key after them in its own order. */
const FIELD_ORDER = ['type', 'id', 'name', 'text', 'arguments']

/**
 * The fields that differ between two content blocks: `type`, `id`, `name` as values, `text` and `arguments` with a
 * text diff, any other key compared as JSON.
 *
 * @example
 * diffBlocks(toolCall('c1', 'echo', '{"a": 1}'), toolCall('c1', 'echo', '{"a":1}'))
 * // [{ field: 'arguments', before: '"{\"a\": 1}"', after: '"{\"a\":1}"', parts: [...] }]
 */
export function diffBlocks(before: ContentBlock, after: ContentBlock): FieldDiff[] {
  const left = before as Readonly<Record<string, unknown>>
  const right = after as Readonly<Record<string, unknown>>
  const keys = [...new Set([...FIELD_ORDER, ...Object.keys(left), ...Object.keys(right)])]
  const diffs: FieldDiff[] = []
  for (const field of keys) {
    const a = left[field]
    const b = right[field]
    if (jsonEqual(a, b)) continue
    const by = TEXT_FIELDS[field] ?? 'chars'
    diffs.push({
      field,
      before: a === undefined ? undefined : JSON.stringify(a),
      after: b === undefined ? undefined : JSON.stringify(b),
      parts:
        Object.hasOwn(TEXT_FIELDS, field) && typeof a === 'string' && typeof b === 'string'
          ? diffText(a, b, by)
          : null,
    })
  }
  return diffs
}

/** How an assembled message differs from another (the recorded one). */
export type MessageDiff = {
  readonly match: boolean
  readonly counts: { readonly before: number; readonly after: number }
  /** Per position present on both sides and differing. */
  readonly blocks: readonly { readonly position: number; readonly fields: FieldDiff[] }[]
  /** Positions present on one side only. */
  readonly onlyBefore: readonly number[]
  readonly onlyAfter: readonly number[]
}

/**
 * Compares two lists of content blocks position by position.
 *
 * @example
 * diffMessages([text('hi')], [text('hi'), text('more')]) // { match: false, onlyAfter: [1], … }
 */
export function diffMessages(before: readonly ContentBlock[], after: readonly ContentBlock[]): MessageDiff {
  const blocks: { position: number; fields: FieldDiff[] }[] = []
  const shared = Math.min(before.length, after.length)
  for (let position = 0; position < shared; position++) {
    const fields = diffBlocks(before[position]!, after[position]!)
    if (fields.length > 0) blocks.push({ position, fields })
  }
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k)
  const onlyBefore = range(shared, before.length)
  const onlyAfter = range(shared, after.length)
  return {
    match: blocks.length === 0 && onlyBefore.length === 0 && onlyAfter.length === 0,
    counts: { before: before.length, after: after.length },
    blocks,
    onlyBefore,
    onlyAfter,
  }
}

/** "block 1: arguments, id" — a one-line summary of a message diff. */
export function describeMessageDiff(diff: MessageDiff, beforeName: string, afterName: string): string {
  if (diff.match) return 'identical'
  const lines = diff.blocks.map(
    ({ position, fields }) =>
      `block ${position}: ${fields.map((f) => f.field).join(', ')} ${fields.length === 1 ? 'differs' : 'differ'}`,
  )
  if (diff.onlyBefore.length > 0)
    lines.push(`${plural(diff.onlyBefore, 'block')} only in the ${beforeName} message`)
  if (diff.onlyAfter.length > 0)
    lines.push(`${plural(diff.onlyAfter, 'block')} only in the ${afterName} message`)
  return lines.join('; ')
}

function plural(positions: readonly number[], noun: string): string {
  return positions.length === 1 ? `${noun} ${positions[0]}` : `${noun}s ${positions.join(', ')}`
}
