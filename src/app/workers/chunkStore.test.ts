import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunksOf } from '../../core/chunkList'
import type { SourcedChunk } from '../../core/protocol'
import { ReplayEngine } from '../../core/ReplayEngine'
import { buildStreamSession } from '../../core/session'
import type { LoadedSource } from '../../formats/types'
import { anyStream, oddChunk, seekMoves, seekTargets } from '../../test/arbitraries'
import { sourced } from '../../test/chunks'
import { RowMap } from './chunkStore'
import { SourceAssembler, splitSource } from './transfer'

/** A stream as the page holds it after the worker sent it in batches of `batch` (through structured clone). */
function heldOnPage(chunks: SourcedChunk[], batch: number) {
  const source: LoadedSource = { format: null, diagnostics: [], sessions: [buildStreamSession(chunks)] }
  const { shell, plan, parts } = splitSource(structuredClone(source), batch)
  const assembler = new SourceAssembler()
  for (const next of parts) assembler.add(structuredClone(next()))
  return chunksOf(assembler.finish(structuredClone(shell), structuredClone(plan)).sessions[0]!.streams[0]!)
}

const withOdd = fc
  .tuple(anyStream(40), fc.array(fc.tuple(fc.nat(), oddChunk), { maxLength: 3 }))
  .map(([chunks, odd]) => {
    const mixed = [...chunks]
    for (const [at, chunk] of odd) mixed.splice(at % (mixed.length + 1), 0, chunk)
    return sourced(mixed)
  })

describe('replaying column-held chunks', () => {
  it('gives at every seek exactly what replaying the reader’s chunks gives, in any seek order', () => {
    fc.assert(
      fc.property(withOdd, seekMoves, fc.integer({ min: 1, max: 9 }), (stream, moves, batch) => {
        const held = heldOnPage(stream, batch)
        const fromColumns = new ReplayEngine(held, { checkpointEvery: 4 })
        const fromArray = new ReplayEngine(stream, { checkpointEvery: 4 })
        expect(fromColumns.findings).toEqual(fromArray.findings)
        expect(fromColumns.result).toEqual(fromArray.result)
        expect(fromColumns.effectCodes).toEqual(fromArray.effectCodes)
        for (const k of seekTargets(moves, stream.length))
          expect(fromColumns.seek(k)).toEqual(fromArray.seek(k))
      }),
    )
  })
})

describe('RowMap', () => {
  it('finds the row of every position, as runs or row by row, in any order of lookups', () => {
    // Increasing rows with gaps: long runs (a stream's chunk events in a row) or many short ones (interleaved).
    const rows = fc
      .array(fc.tuple(fc.nat({ max: 3 }), fc.integer({ min: 1, max: 12 })), { maxLength: 30 })
      .map((runs) => {
        const out: number[] = []
        let row = 0
        for (const [gap, length] of runs) {
          row += gap
          for (let i = 0; i < length; i++) out.push(row++)
        }
        return Int32Array.from(out)
      })
    fc.assert(
      fc.property(rows, fc.array(fc.nat()), (expected, lookups) => {
        const map = new RowMap(expected)
        for (const at of [...lookups, ...expected.keys()]) {
          if (expected.length === 0) break
          const pos = at % expected.length
          expect(map.row(pos)).toBe(expected[pos])
          // The positions from pos whose rows follow on from its row, and no more.
          let end = pos + 1
          while (end < expected.length && expected[end] === expected[end - 1]! + 1) end += 1
          expect(map.following(pos)).toBe(end - pos)
        }
      }),
    )
  })
})
