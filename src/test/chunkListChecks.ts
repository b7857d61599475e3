import { expect } from 'vitest'
import type { ChunkList } from '../core/chunkList'
import type { SourcedChunk } from '../core/protocol'

/**
 * A held list reads back the chunks it stands for: every field accessor at every position, whole chunks by
 * `chunkAt`, `slice` and iteration, and nothing outside its length (docs/ARCHITECTURE.md "How chunks are held").
 */
export function expectListReads(list: ChunkList, chunks: readonly SourcedChunk[]): void {
  expect(list.length).toBe(chunks.length)
  chunks.forEach((sourced, pos) => {
    expect(list.seqAt(pos)).toBe(sourced.seq)
    expect(list.timeAt(pos)).toBe(sourced.time)
    expect(list.typeAt(pos)).toBe(sourced.chunk.type)
    const index = (sourced.chunk as { index?: unknown }).index
    expect(list.indexAt(pos)).toBe(typeof index === 'number' ? index : undefined)
    expect(JSON.stringify(list.chunkAt(pos))).toBe(JSON.stringify(sourced.chunk))
  })
  expect(list.slice()).toStrictEqual(chunks)
  expect([...list]).toStrictEqual(chunks)
  expect(list.at(-1)).toBeUndefined()
  expect(list.at(chunks.length)).toBeUndefined()
}
