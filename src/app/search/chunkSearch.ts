import type { ChunkList } from '../../core/chunkList'
import type { SourcedChunk } from '../../core/protocol'
import type { SearchRequest, SearchResponse } from './searchMessages'
import { SearchIndexBuilder, searchIndex, type FieldsOf, type SearchIndex } from './searchIndex'

export type ChunkSearchOptions = {
  /**
   * Yields to the host between indexing slices (a macrotask in the browser, so the page can paint); it may resolve
   * with how long the next slice can run (what is left of an idle period), else the slice runs `sliceMs`. A query
   * does not wait for it: the slices then follow each other as tasks.
   */
  readonly yieldToHost?: () => Promise<number | void>
  /** Indexing slice length. */
  readonly sliceMs?: number
  /** True when input is waiting for the page (`navigator.scheduling.isInputPending`): the slice ends early. */
  readonly inputPending?: () => boolean
}

/** Indexing a slice for this long keeps a key press waiting at most about as long. */
const SLICE_MS = 6
/** A query is waiting on the index: its slices run longer (still far from a long task), the user waits anyway. */
const HURRY_SLICE_MS = 20

/**
 * The timeline search of one stream: the chunks' text is indexed on this thread in short slices (it reads the
 * chunks where they live), handed to a worker once, and every query runs there, so typing never blocks a frame.
 * Only the newest query's answer resolves; an older one still running resolves to null. Without workers (Node)
 * the queries run here, on the same index.
 *
 * @example
 * const search = new ChunkSearch(engine.chunks, searchFields)
 * const hits = await search.find('call_04000') // positions of the matching chunks, or null if overtaken
 */
export class ChunkSearch {
  private readonly worker: Worker | null
  private readonly ready: Promise<SearchIndex | null>
  private disposed = false
  /** A query is waiting for the index: the slices then follow each other as tasks, not idle periods. */
  private hurry = false
  /** Ends the wait for the host early (a query came while the indexing was waiting). */
  private wake: (() => void) | null = null
  private latest = 0
  private readonly waiting = new Map<number, (hits: Int32Array | null) => void>()

  constructor(
    chunks: readonly SourcedChunk[] | ChunkList,
    fieldsOf: FieldsOf,
    options: ChunkSearchOptions = {},
  ) {
    const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
    const yieldToHost = options.yieldToHost ?? nextTask
    const sliceMs = options.sliceMs ?? SLICE_MS
    const worker =
      typeof Worker === 'undefined'
        ? null
        : new Worker(new URL('./searchWorker.ts', import.meta.url), { type: 'module' })
    if (worker !== null)
      worker.onmessage = (event: MessageEvent<SearchResponse>) => this.settle(event.data.id, event.data.hits)
    this.worker = worker
    this.ready = (async () => {
      const builder = new SearchIndexBuilder(chunks, fieldsOf, () => performance.now())
      // Each slice's text goes to the worker as the slice ends: one message of the whole text, and its join, would
      // be a long task at the end.
      const send = () => {
        for (const text of builder.takePieces())
          worker!.postMessage({ type: 'piece', text } satisfies SearchRequest)
      }
      let budget = sliceMs
      const inputPending = options.inputPending ?? (() => false)
      while (!builder.advance(budget, inputPending)) {
        if (worker !== null) send()
        // A busy machine may have no idle period for a long while; a waiting query does not wait for one.
        const offered = await (this.hurry
          ? nextTask()
          : Promise.race([yieldToHost(), new Promise<void>((resolve) => (this.wake = resolve))]))
        this.wake = null
        budget = this.hurry
          ? Math.max(sliceMs, HURRY_SLICE_MS)
          : typeof offered === 'number'
            ? Math.min(sliceMs, offered)
            : sliceMs
        if (this.disposed) return null
      }
      if (worker === null) return builder.finish()
      send()
      const starts = builder.end()
      worker.postMessage({ type: 'index', starts } satisfies SearchRequest, [starts.buffer])
      return null
    })()
  }

  /** Positions of the chunks matching `query` (see `searchIndex`), or null when a newer query overtook it. */
  async find(query: string): Promise<Int32Array | null> {
    const id = ++this.latest
    for (const [older, resolve] of this.waiting) if (older < id) resolve(null)
    this.hurry = true
    this.wake?.()
    const local = await this.ready
    if (this.disposed || id !== this.latest) return null
    if (this.worker === null) return local === null ? null : searchIndex(local, query)
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      const message: SearchRequest = { type: 'search', id, query }
      this.worker!.postMessage(message)
    })
  }

  dispose(): void {
    this.disposed = true
    this.worker?.terminate()
    for (const resolve of this.waiting.values()) resolve(null)
    this.waiting.clear()
  }

  private settle(id: number, hits: Int32Array): void {
    const resolve = this.waiting.get(id)
    this.waiting.delete(id)
    resolve?.(id === this.latest ? hits : null)
  }
}
