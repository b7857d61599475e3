import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ChunkSearch } from '../../app/search/chunkSearch'
import { SearchIndexBuilder, searchIndex } from '../../app/search/searchIndex'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import { anyStream } from '../../test/arbitraries'
import { generateStream } from '../../test/generate'
import { payloadMatcher, searchFields } from './describeChunk'

const sourced = (chunks: readonly AnyChunk[]): SourcedChunk[] =>
  chunks.map((chunk, seq) => ({ seq, time: null, chunk }))

/** The positions the timeline's own matcher accepts, one chunk at a time: the oracle for the index. */
function matching(chunks: readonly SourcedChunk[], query: string): number[] {
  const matches = payloadMatcher(query)
  return matches === null ? [] : chunks.flatMap((c, pos) => (matches(c.chunk) ? [pos] : []))
}

function indexOf(chunks: readonly SourcedChunk[]) {
  return new SearchIndexBuilder(chunks, searchFields).finish()
}

describe('the timeline search index', () => {
  it('finds exactly the chunks the per-chunk matcher finds, on random streams and queries taken from them', () => {
    fc.assert(
      fc.property(anyStream(40), fc.nat(), fc.nat(), fc.boolean(), (chunks, at, length, upper) => {
        const stream = sourced(chunks)
        const index = indexOf(stream)
        // A query cut from the index text itself (so it usually hits), sometimes upper-cased.
        const start = index.text.length === 0 ? 0 : at % index.text.length
        let query = index.text.slice(start, start + 1 + (length % 6)).replaceAll('\u0000', '')
        if (upper) query = query.toUpperCase()
        expect([...searchIndex(index, query)]).toEqual(matching(stream, query))
      }),
    )
  })

  it('on a generated stream: tool-call ids, words across case, nothing for an empty query or a NUL', () => {
    const stream = generateStream(20_000, 50)
    const index = indexOf(stream)
    for (const query of ['call_17', 'QUARTZ', '思考', 'delta\n', '"k": ', 'bash', 'in 1000', 'zebra q'])
      expect([...searchIndex(index, query)]).toEqual(matching(stream, query))
    expect(matching(stream, 'call_17').length).toBeGreaterThan(50)
    expect(searchIndex(index, '')).toHaveLength(0)
    expect(searchIndex(index, 'a\u0000b')).toHaveLength(0)
  })

  it('indexes in slices that stop on the clock and give the same index as one go', () => {
    const stream = generateStream(5_000)
    let clock = 0
    const builder = new SearchIndexBuilder(stream, searchFields, () => (clock += 1))
    let slices = 1
    while (!builder.advance(1)) slices += 1
    expect(slices).toBeGreaterThan(2)
    expect(builder.finish()).toEqual(indexOf(stream))
  })

  it('handed over in pieces (as the worker gets it), the text joins to the index built in one go', () => {
    const stream = generateStream(5_000, 30)
    let clock = 0
    const builder = new SearchIndexBuilder(stream, searchFields, () => (clock += 1))
    const pieces: string[] = []
    while (!builder.advance(1)) pieces.push(...builder.takePieces())
    pieces.push(...builder.takePieces())
    const starts = builder.end()
    expect(pieces.length).toBeGreaterThan(2)
    expect({ text: pieces.join(''), starts }).toEqual(indexOf(stream))
  })

  it('ChunkSearch answers the newest query; an overtaken one gets null', async () => {
    const stream = generateStream(3_000, 40)
    const search = new ChunkSearch(stream, searchFields, { yieldToHost: () => Promise.resolve() })
    const first = search.find('call_1')
    const second = search.find('call_2')
    expect(await first).toBeNull()
    expect([...((await second) ?? [])]).toEqual(matching(stream, 'call_2'))
    search.dispose()
    expect(await search.find('call_2')).toBeNull()
  })
  it('a query does not wait for the host: indexing held back (the user stepping) resumes at once for it', async () => {
    const stream = generateStream(3_000, 40)
    let yields = 0
    const search = new ChunkSearch(stream, searchFields, {
      // A host that never offers time again after the first slice, as a page that keeps getting keys.
      yieldToHost: () => {
        yields += 1
        return new Promise<void>(() => {})
      },
      sliceMs: 0,
    })
    await Promise.resolve()
    expect(yields).toBe(1)
    expect([...((await search.find('call_2')) ?? [])]).toEqual(matching(stream, 'call_2'))
    expect(yields).toBe(1)
    search.dispose()
  })
})
