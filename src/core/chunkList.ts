import type { AnyChunk, SourcedChunk } from './protocol'
import type { SessionEvent } from './sessionTypes'

/**
 * A stream's chunks, read by position. The page holds the chunks of a big source as columns (typed arrays and one
 * string table, core/columns.ts) instead of one object per chunk, so the engine and the views read through this:
 * the accessors read one field without building anything; `at` builds a plain {@link SourcedChunk} equal to the one
 * the reader made (same keys, same order), a new object per call when the list is held as columns.
 *
 * Positions are 0-based; out of range, `at` gives undefined and the field accessors are not to be called.
 *
 * @example
 * const chunks = chunkListOf(attempt.chunks)
 * chunks.typeAt(0) // 'block-start'
 * chunks.at(0) // { seq: 3, time: null, chunk: { type: 'block-start', index: 0, blockType: 'text' } }
 */
export interface ChunkList {
  readonly length: number
  /** The whole sourced chunk at `pos` (no negative positions, unlike `Array.prototype.at`). */
  at(pos: number): SourcedChunk | undefined
  chunkAt(pos: number): AnyChunk
  seqAt(pos: number): number
  timeAt(pos: number): number | null
  typeAt(pos: number): string
  /** The chunk's `index` when it is a number (the five indexed chunk types, docs/protocol.md §1), else undefined. */
  indexAt(pos: number): number | undefined
  /** Chunks [from, to) as sourced chunks, in order. */
  slice(from?: number, to?: number): SourcedChunk[]
  [Symbol.iterator](): Iterator<SourcedChunk>
}

/** A list over an array the caller keeps (it may still grow: a live capture appends to it). */
class ArrayChunkList implements ChunkList {
  constructor(readonly array: readonly SourcedChunk[]) {}

  get length(): number {
    return this.array.length
  }

  at(pos: number): SourcedChunk | undefined {
    return pos >= 0 ? this.array[pos] : undefined
  }

  chunkAt(pos: number): AnyChunk {
    return this.array[pos]!.chunk
  }

  seqAt(pos: number): number {
    return this.array[pos]!.seq
  }

  timeAt(pos: number): number | null {
    return this.array[pos]!.time
  }

  typeAt(pos: number): string {
    return this.array[pos]!.chunk.type
  }

  indexAt(pos: number): number | undefined {
    const index = (this.array[pos]!.chunk as { index?: unknown }).index
    return typeof index === 'number' ? index : undefined
  }

  slice(from?: number, to?: number): SourcedChunk[] {
    return this.array.slice(from, to)
  }

  [Symbol.iterator](): Iterator<SourcedChunk> {
    return this.array[Symbol.iterator]()
  }
}

/** One list per array, so two lists over the same chunks are the same object (views compare them). */
const lists = new WeakMap<readonly SourcedChunk[], ChunkList>()

/** The list over `chunks`: itself when it already is one. */
export function chunkListOf(chunks: readonly SourcedChunk[] | ChunkList): ChunkList {
  if (!Array.isArray(chunks)) return chunks as ChunkList
  const array = chunks as readonly SourcedChunk[]
  let list = lists.get(array)
  if (list === undefined) lists.set(array, (list = new ArrayChunkList(array)))
  return list
}

/**
 * Lists a page holds for attempts whose `chunks` array it builds only when something asks for it (the loaded
 * source keeps its chunks as columns, core/chunkStore.ts). Everything that can read by position asks
 * {@link chunksOf} instead, so a million-chunk stream is never turned into a million objects to be replayed.
 */
const held = new WeakMap<object, ChunkList>()

export function holdChunks(attempt: { readonly chunks: readonly SourcedChunk[] }, list: ChunkList): void {
  held.set(attempt, list)
}

/** Forgets a held list: the attempt's `chunks` were replaced (a stream cut to the browser's limits). */
export function releaseChunks(attempt: { readonly chunks: readonly SourcedChunk[] }): void {
  held.delete(attempt)
}

/**
 * The attempt's chunks by position: the list the page holds for it, else one over its `chunks` array (the same
 * list object each time for the same attempt, so views may compare them).
 *
 * @example
 * new ReplayEngine(chunksOf(attempt))
 */
export function chunksOf(attempt: { readonly chunks: readonly SourcedChunk[] }): ChunkList {
  return held.get(attempt) ?? chunkListOf(attempt.chunks)
}

/**
 * A session whose events a page holds as columns: how many there are, and the ones that travelled whole (every
 * event but the `assistant/chunk` ones of the readers' shape), in order.
 */
export type HeldEvents = { readonly count: number; readonly whole: readonly SessionEvent[] }

const heldEvents = new WeakMap<object, HeldEvents>()

export function holdEvents(session: { readonly events: readonly SessionEvent[] }, events: HeldEvents): void {
  heldEvents.set(session, events)
}

/** How many events the session has, without building the ones held as columns. */
export function eventCountOf(session: { readonly events: readonly SessionEvent[] }): number {
  return heldEvents.get(session)?.count ?? session.events.length
}

/**
 * Every event of the session in order, except possibly `assistant/chunk` ones held as columns: for views that skip
 * chunk events anyway (they are read through the attempts' {@link chunksOf}).
 */
export function eventsBesideChunks(session: {
  readonly events: readonly SessionEvent[]
}): readonly SessionEvent[] {
  return heldEvents.get(session)?.whole ?? session.events
}
