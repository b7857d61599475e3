import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BlockRanges, blocked, IntegerRange, integerWidth, NarrowColumn, narrowTo } from './columnNarrow'
import { BLOCK } from './columns'
import { SeqRuns } from './seqRuns'

/**
 * What the column writer notes while writing stands in for the scans it replaced: on random columns (climbing
 * seqs, constant runs, jumps past a block's 2-byte span, fractions, −0, NaN, values past 2⁵³, unused rows), the
 * offsets and bases from the noted ranges are those a scan of the whole column finds (`blocked`, kept as the
 * reference), blocks of one value and blocks climbing by one included, and a noted range's width is
 * `integerWidth`'s.
 */

const value = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -3, max: 300 }) },
  { weight: 2, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 33 }) },
  fc.constantFrom(-0, NaN, 0.5, 2 ** 53, -(2 ** 53) - 2, 1e300, 70_000, 1_780_000_000_000),
)
/** A column as the writer fills it: pieces of single values and of runs (constant or climbing), some rows unused. */
const piece = fc.record({
  first: value,
  count: fc.integer({ min: 1, max: 2 * BLOCK + 3 }),
  step: fc.constantFrom<0 | 1>(0, 1),
  used: fc.integer({ min: 0, max: 3 }),
  // On from the last piece's last value: climbing on (a log's seqs across packed rows and events), staying, or
  // jumping by a block's span either way (the one jump that leaves a block spanning what a climb would).
  goesOn: fc.constantFrom(null, 1, 1, 0, 1 - BLOCK, BLOCK - 1),
  // Noted as a packed row's times are (noteSafe) when its values allow.
  safe: fc.boolean(),
})

type Piece = {
  first: number
  count: number
  step: 0 | 1
  used: number
  goesOn: number | null
  safe: boolean
}

/**
 * `spare`: the noted ranges write their offsets as they go (`direct`), into arrays `spare` rows longer than the
 * column (a writer's last batch is cut short) that hold an earlier batch's offsets in the rows noted now.
 */
function column(pieces: readonly Piece[], spare: number | null = null) {
  const length = pieces.reduce((n, p) => n + p.count, 0)
  const values = new Float64Array(length)
  const rows = new Uint8Array(length)
  const chunks = new Uint8Array(length)
  const direct = spare === null ? null : new Uint16Array(length + spare).fill(0xa5a5)
  const chunkDirect = direct?.slice() ?? null
  const ranges = new BlockRanges(length, direct)
  const chunkRanges = new BlockRanges(length, chunkDirect)
  let at = 0
  for (const { count, step, used, goesOn, safe, ...piece } of pieces) {
    const first = goesOn !== null && at > 0 ? values[at - 1]! + goesOn : piece.first
    // used: 0 unused, 1 row used but its chunk not (an index slot left empty), 2–3 both.
    if (used > 0) {
      // A run noted as times are (noteSafe) may also fall (rows in any order), spanning what a climb would.
      const falls = safe && step === 0 && count > 1
      for (let k = 0; k < count; k++) {
        // As the writer writes them: a run's one value filled in (−0 stays −0), climbing values computed.
        values[at + k] = falls ? first + (count - 1 - k) : step === 0 ? first : first + k
        rows[at + k] = 1
        chunks[at + k] = used > 1 ? 1 : 0
      }
      const run = values.subarray(at, at + count)
      if (safe && run.every((v) => Number.isSafeInteger(v) && !Object.is(v, -0)))
        ranges.noteSafe(values, at, at + count)
      else if (falls) for (let k = 0; k < count; k++) ranges.note(at + k, values[at + k]!)
      else if (count > 3) ranges.noteRun(at, at + count, first, step)
      else for (let k = 0; k < count; k++) ranges.note(at + k, values[at + k]!)
      if (used > 1) for (let k = 0; k < count; k++) chunkRanges.note(at + k, values[at + k]!)
    }
    at += count
  }
  // The rows never noted read 0, as the writer leaves them (it clears a reused array's rows it does not note).
  for (let i = 0; i < (direct?.length ?? 0); i++) {
    if (i >= length || rows[i] === 0) direct![i] = 0
    if (i >= length || rows[i] === 0 || chunks[i] === 0) chunkDirect![i] = 0
  }
  return { values, rows, chunks, ranges, chunkRanges }
}

describe('noted block ranges ≡ scanning the column', () => {
  it('gives the same offsets, bases and range, or refuses alike, with or without the offsets written as noted', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 0, maxLength: 8 }),
        fc.boolean(),
        // null: offsets written when the batch is finished; a number: written as noted, into an array that many
        // rows longer than the column, holding another batch's offsets.
        fc.option(fc.nat({ max: BLOCK + 1 })),
        (pieces, nullable, spare) => {
          const { values, rows, chunks, ranges, chunkRanges } = column(pieces, spare)
          const limit = nullable ? 0xfffe : 0xffff
          expect(ranges.blocked(values, rows, null, limit, nullable)).toStrictEqual(
            blocked(values, rows, limit, nullable),
          )
          const indexed = rows.map((row, i) => (row !== 0 && chunks[i] !== 0 ? 1 : 0))
          expect(chunkRanges.blocked(values, rows, chunks, limit, nullable)).toStrictEqual(
            blocked(values, indexed, limit, nullable),
          )
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('a whole column narrowed from its noted range takes integerWidth’s width', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.boolean())), (entries) => {
        const values = new Float64Array(entries.length)
        const range = new IntegerRange()
        entries.forEach(([v, written], i) => {
          if (!written || Number.isNaN(v)) return
          values[i] = v
          range.note(v)
        })
        expect(range.width()).toBe(integerWidth(values))
      }),
    )
  })
})

describe('runs of seqs ≡ one entry per event', () => {
  it('name the owner of the first event with each seq, and each owner’s seqs in order', () => {
    const event = fc.record({
      gap: fc.constantFrom(0, 1, 1, 1, 2, 7),
      count: fc.integer({ min: 1, max: 5 }),
      owner: fc.integer({ min: -1, max: 2 }),
    })
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (added) => {
        const runs = new SeqRuns()
        const seqs: number[] = []
        const owners: number[] = []
        let next = 0
        for (const { gap, count, owner } of added) {
          // A repeat (gap 0) goes back to the last seq, as a duplicate event's would.
          const seq = Math.max(0, next - 1 + gap)
          runs.add(seq, count, owner)
          for (let k = 0; k < count; k++) {
            seqs.push(seq + k)
            owners.push(owner)
          }
          next = seq + count
        }
        expect(runs.size).toBe(seqs.length)
        for (let seq = -1; seq <= next + 1; seq += 0.5) {
          const position = seqs.indexOf(seq)
          expect(runs.ownerOf(seq)).toBe(position === -1 ? -2 : owners[position])
        }
        const byOwner = runs.seqsByOwner(3).map((list) => Array.from(list))
        expect(byOwner).toStrictEqual([0, 1, 2].map((o) => seqs.filter((_, i) => owners[i] === o)))
      }),
    )
  })

  it('find the owners of many seqs as one lookup each finds them, climbing (one walk) or not', () => {
    const event = fc.record({
      gap: fc.constantFrom(0, 1, 1, 2, 7),
      count: fc.integer({ min: 1, max: 5 }),
      owner: fc.integer({ min: -1, max: 2 }),
    })
    const asked = fc.array(fc.oneof(fc.integer({ min: -2, max: 80 }), fc.constantFrom(0.5, 3.5, -0, 1e9)), {
      maxLength: 60,
    })
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), asked, fc.boolean(), (added, seqs, sorted) => {
        const runs = new SeqRuns()
        let next = 0
        for (const { gap, count, owner } of added) {
          const seq = Math.max(0, next - 1 + gap)
          runs.add(seq, count, owner)
          next = seq + count
        }
        const query = sorted ? [...seqs].sort((a, b) => a - b) : seqs
        expect(runs.ownersOf(query)).toStrictEqual(query.map((seq) => runs.ownerOf(seq)))
      }),
    )
  })
})

describe('NarrowColumn', () => {
  it('holds what narrowTo of the same rows written as doubles holds, array type and values, −0 and NaN included', () => {
    // Rows written one by one or filled as runs, in any order, some never written (0), the batch maybe cut short.
    const write = fc.record({ value, from: fc.nat({ max: 40 }), count: fc.integer({ min: 1, max: 5 }) })
    fc.assert(
      fc.property(fc.array(write, { maxLength: 30 }), fc.nat({ max: 50 }), (writes, cut) => {
        const length = 50
        const doubles = new Float64Array(length)
        const range = new IntegerRange()
        const narrow = new NarrowColumn(length)
        for (const { value, from, count } of writes) {
          doubles.fill(value, from, from + count)
          range.note(value)
          if (count === 1) narrow.set(from, value)
          else narrow.fill(value, from, from + count)
        }
        narrow.cut(cut)
        const expected = narrowTo(doubles.slice(0, cut), range.width())
        expect(narrow.values.constructor).toBe(expected.constructor)
        expect([...narrow.values].map(String)).toStrictEqual([...expected].map(String))
        expect([...narrow.values].some((v) => Object.is(v, -0))).toBe(
          [...expected].some((v) => Object.is(v, -0)),
        )
      }),
    )
  })
})
