import { partitionPoint } from '../../core/base/partitionPoint'
import { chunkListOf, type ChunkList } from '../../core/chunkList'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'

/**
 * Every chunk's searchable text in one string, so a worker can search a million chunks with one regular expression
 * instead of a million small ones: chunk `pos` owns `text.slice(starts[pos], starts[pos + 1])`, its fields each
 * followed by a NUL. A query cannot hold a NUL (it is refused), so no hit spans two fields or two chunks.
 */
export type SearchIndex = {
  readonly text: string
  /** `starts[pos]`: where chunk pos's text begins; one more entry, the text's length, at the end. */
  readonly starts: Int32Array
}

/** The strings a chunk is searched by (the timeline's payload fields); the view decides, the index only joins. */
export type FieldsOf = (chunk: AnyChunk) => readonly string[]

const SEPARATOR = '\u0000'
const never = () => false

/**
 * Builds a {@link SearchIndex} a slice at a time (`advance` returns true when done), so a long stream is indexed
 * between frames without a long task.
 *
 * @example
 * const builder = new SearchIndexBuilder(chunks, searchFields)
 * while (!builder.advance(5)) await nextTask()
 * const index = builder.finish()
 */
export class SearchIndexBuilder {
  /** Each slice's text, joined when the slice ends: one join of millions of small strings is a long task. */
  private readonly pieces: string[] = []
  private readonly starts: Int32Array
  private length = 0
  private next = 0
  private readonly chunks: ChunkList

  constructor(
    chunks: readonly SourcedChunk[] | ChunkList,
    private readonly fieldsOf: FieldsOf,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.chunks = chunkListOf(chunks)
    this.starts = new Int32Array(chunks.length + 1)
  }

  /**
   * Indexes chunks for about `budgetMs`, or until `interrupted()` says to stop (input waiting); true once every
   * chunk is in.
   */
  advance(budgetMs = Infinity, interrupted: () => boolean = never): boolean {
    const started = this.now()
    const { chunks, starts } = this
    const groups: string[] = []
    const parts: string[] = []
    while (this.next < chunks.length) {
      // The clock is read every 256 chunks (a fraction of a millisecond of work): reading it per chunk would cost
      // more than the work, reading it rarely lets a slice overrun its budget.
      const stop = Math.min(chunks.length, this.next + 256)
      for (let pos = this.next; pos < stop; pos++) {
        starts[pos] = this.length
        for (const field of this.fieldsOf(chunks.chunkAt(pos))) {
          parts.push(field, SEPARATOR)
          this.length += field.length + 1
        }
      }
      // Joined before the clock is read: the join, which flattens and copies every field, is most of a slice's
      // work, and joined only at the end it ran after the budget was spent (a 6 ms slice took 15–27; bench/README,
      // the search index). The slice's join of these flat groups is one copy.
      groups.push(parts.join(''))
      parts.length = 0
      this.next = stop
      if (this.now() - started >= budgetMs || interrupted()) break
    }
    if (groups.length > 0) this.pieces.push(groups.join(''))
    return this.next >= chunks.length
  }

  /** The text of the slices indexed since the last call, in order: a caller may hand the text on as it grows. */
  takePieces(): string[] {
    return this.pieces.splice(0)
  }

  /** Indexes what is left and closes `starts`; the text is every piece, taken or not, joined in order. */
  end(): Int32Array {
    this.advance()
    this.starts[this.chunks.length] = this.length
    return this.starts
  }

  /** The whole index, when no piece was taken. */
  finish(): SearchIndex {
    const starts = this.end()
    return { text: this.pieces.join(''), starts }
  }
}

/**
 * Positions of the chunks whose text contains `query`, case-insensitively (the `iu` flags, as the timeline's own
 * matcher uses), in order; each chunk once. An empty query, or one holding a NUL, finds nothing.
 *
 * @example
 * searchIndex(index, 'call_04000') // Int32Array [ 480_012, 480_013, … ]
 */
export function searchIndex(index: SearchIndex, query: string): Int32Array {
  if (query === '' || query.includes(SEPARATOR)) return new Int32Array(0)
  const pattern = new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu')
  const { text, starts } = index
  const chunks = starts.length - 1
  let hits = new Int32Array(64)
  let count = 0
  let found: RegExpExecArray | null
  while ((found = pattern.exec(text)) !== null) {
    const pos = partitionPoint(chunks, (p) => starts[p + 1]! <= found!.index)
    if (count === hits.length) {
      const grown = new Int32Array(hits.length * 2)
      grown.set(hits)
      hits = grown
    }
    hits[count++] = pos
    // On to the next chunk: one hit per chunk is enough.
    pattern.lastIndex = Math.max(pattern.lastIndex, starts[pos + 1]!)
  }
  return hits.slice(0, count)
}
