import { isRecord } from '../base/isRecord'
import type { AnyChunk, SourcedChunk } from '../protocol'

/**
 * What-if edits of a recorded stream (docs/protocol.md §13). Each edit's positions are positions in the stream as
 * the edits before it left it; the edited stream is numbered 0, 1, 2… afresh.
 */
export type ChunkEdit =
  | { readonly kind: 'drop'; readonly pos: number }
  | { readonly kind: 'duplicate'; readonly pos: number }
  | { readonly kind: 'move'; readonly from: number; readonly to: number }
  | { readonly kind: 'replace'; readonly pos: number; readonly chunk: AnyChunk }
  | { readonly kind: 'insert'; readonly pos: number; readonly chunk: AnyChunk }

export type EditedStream = {
  readonly chunks: SourcedChunk[]
  /** For each chunk: its position in the recording, or null when an edit made it (insert, duplicate, replace). */
  readonly origin: readonly (number | null)[]
  /** Positions of chunks that are new or moved (what the timeline marks). */
  readonly changed: readonly number[]
  /** Recording positions no longer in the stream (dropped, or replaced). */
  readonly removed: readonly number[]
}

/**
 * @example
 * applyEdits(chunks, [{ kind: 'drop', pos: 3 }, { kind: 'move', from: 0, to: 2 }]).changed // [2]
 */
export function applyEdits(recording: readonly SourcedChunk[], edits: readonly ChunkEdit[]): EditedStream {
  let items = recording.map((sourced, pos) => ({ sourced, origin: pos as number | null, moved: false }))
  for (const edit of edits) {
    const next = [...items]
    switch (edit.kind) {
      case 'drop':
        next.splice(edit.pos, 1)
        break
      case 'duplicate': {
        const item = items[edit.pos]
        if (item !== undefined) next.splice(edit.pos + 1, 0, { ...item, origin: null })
        break
      }
      case 'move': {
        const [item] = next.splice(edit.from, 1)
        if (item !== undefined) next.splice(Math.min(edit.to, next.length), 0, { ...item, moved: true })
        break
      }
      case 'replace': {
        const item = items[edit.pos]
        if (item !== undefined)
          next[edit.pos] = { sourced: { ...item.sourced, chunk: edit.chunk }, origin: null, moved: false }
        break
      }
      case 'insert': {
        const time = items[edit.pos - 1]?.sourced.time ?? items[edit.pos]?.sourced.time ?? null
        next.splice(edit.pos, 0, {
          sourced: { seq: -1, time, chunk: edit.chunk },
          origin: null,
          moved: false,
        })
        break
      }
    }
    items = next
  }
  const kept = new Set(items.flatMap((item) => (item.origin === null ? [] : [item.origin])))
  return {
    chunks: items.map((item, seq) => ({ ...item.sourced, seq })),
    origin: items.map((item) => item.origin),
    changed: items.flatMap((item, pos) => (item.origin === null || item.moved ? [pos] : [])),
    removed: recording.flatMap((_, pos) => (kept.has(pos) ? [] : [pos])),
  }
}

/** `drop #4`, `move #2 → #5`, `edit #3`, `insert #7`. */
export function describeEdit(edit: ChunkEdit): string {
  switch (edit.kind) {
    case 'move':
      return `move #${edit.from} → #${edit.to}`
    case 'replace':
      return `edit #${edit.pos} (${edit.chunk.type})`
    case 'insert':
      return `insert #${edit.pos} (${edit.chunk.type})`
    default:
      return `${edit.kind} #${edit.pos}`
  }
}

/** Done and undone edits: undo moves the last done edit to `undone`, a new edit clears `undone`. */
export type EditHistory = { readonly done: readonly ChunkEdit[]; readonly undone: readonly ChunkEdit[] }

export const NO_EDITS: EditHistory = { done: [], undone: [] }

export function withEdit(history: EditHistory, edit: ChunkEdit): EditHistory {
  return { done: [...history.done, edit], undone: [] }
}

export function undoEdit(history: EditHistory): EditHistory {
  const last = history.done.at(-1)
  return last === undefined ? history : { done: history.done.slice(0, -1), undone: [last, ...history.undone] }
}

export function redoEdit(history: EditHistory): EditHistory {
  const [next, ...rest] = history.undone
  return next === undefined ? history : { done: [...history.done, next], undone: rest }
}

/**
 * A chunk typed by the user: one JSON object with a string `type` (any type: the assembler records an unknown one,
 * §3 A7). A string says what is wrong.
 */
export function parseChunk(text: string): AnyChunk | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `not JSON: ${error instanceof Error ? error.message : String(error)}`
  }
  if (!isRecord(value)) return 'a chunk is a JSON object, e.g. {"type":"text-delta","index":0,"text":"hi"}'
  if (typeof value['type'] !== 'string') return 'a chunk needs a "type" string (text-delta, block-end, …)'
  return value as AnyChunk
}
