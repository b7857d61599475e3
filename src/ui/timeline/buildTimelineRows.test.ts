import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { chunkListOf } from '../../core/chunkList'
import type { AnyChunk } from '../../core/protocol'
import type { TimelineFilter } from '../../app/store'
import { be, bs, finish, rd, sourced, tcd, td, text, toolCall, usage } from '../../test/chunks'
import { generateStream } from '../../test/generate'
import {
  ROW_RUN,
  ROW_RUN_HEAD,
  adjacentRow,
  buildTimelineRows,
  rowOf,
  scrollScale,
  seekTargetOf,
  type TimelineRows,
} from './buildTimelineRows'

const all: TimelineFilter = { types: [], index: null, search: '', collapseRuns: false, expanded: [] }

const engineOf = (chunks: AnyChunk[]) => new ReplayEngine(sourced(chunks))

/** Rows as text: "pos" for a chunk, "pos+N" for a collapsed run of N, "pos▾N" for an expanded run's head. */
function print(rows: TimelineRows): string {
  const out: string[] = []
  for (let r = 0; r < rows.count; r++) {
    const pos = rows.positions[r]!
    const kind = rows.kinds[r]
    out.push(
      kind === ROW_RUN
        ? `${pos}+${rows.spans[r]}`
        : kind === ROW_RUN_HEAD
          ? `${pos}▾${rows.spans[r]}`
          : `${pos}`,
    )
  }
  return out.join(' ')
}

// 0 bs0 · 1–5 td0 ×5 · 6 be0 · 7 bs1 · 8–9 tcd1 ×2 · 10 be1 · 11 td0 straggler ×3 (12, 13) · 14 usage · 15 finish
const stream = engineOf([
  bs(0, 'text'),
  td(0, 'Zebra '),
  td(0, 'quartz '),
  td(0, 'lantern'),
  td(0, ' and'),
  td(0, ' more'),
  be(0, text('Zebra quartz lantern and more')),
  bs(1, 'tool-call'),
  tcd(1, 'call-1', 'grep', '{"pattern":'),
  tcd(1, 'call-1', undefined, '"TODO"}'),
  be(1, toolCall('call-1', 'grep', '{"pattern":"TODO"}')),
  td(0, 'STRAGGLER'),
  td(0, 'again'),
  td(0, 'and again'),
  usage(10, 5),
  finish('tool-calls'),
])

describe('buildTimelineRows', () => {
  it('shows every chunk by default', () => {
    expect(print(buildTimelineRows(stream, all))).toBe('0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15')
  })

  it('collapses runs of 3+ same-type, same-index deltas after their head; shorter runs stay', () => {
    const rows = buildTimelineRows(stream, { ...all, collapseRuns: true })
    // td0 ×5 → head 1 + run of 4; tcd1 ×2 stays; the three stragglers are a run of their own (same effect).
    expect(print(rows)).toBe('0 1 2+4 6 7 8 9 10 11 12+2 14 15')
  })

  it('an expanded run shows its head with the run length, then every member', () => {
    const rows = buildTimelineRows(stream, { ...all, collapseRuns: true, expanded: [1] })
    expect(print(rows)).toBe('0 1▾5 2 3 4 5 6 7 8 9 10 11 12+2 14 15')
  })

  it('a run does not absorb a delta with another effect (an implicit open, a straggler)', () => {
    const engine = engineOf([td(0, 'a'), td(0, 'b'), td(0, 'c'), be(0, text('abc')), td(0, 'x'), td(0, 'y')])
    // td0 'a' opens block 0 implicitly: b, c alone are too short to collapse.
    expect(print(buildTimelineRows(engine, { ...all, collapseRuns: true }))).toBe('0 1 2 3 4 5')
  })

  it('a run breaks at a delta of another index or type', () => {
    const engine = engineOf([
      bs(0, 'reasoning'),
      bs(1, 'text'),
      rd(0, 'a'),
      rd(0, 'b'),
      td(1, 'x'),
      rd(0, 'c'),
    ])
    expect(print(buildTimelineRows(engine, { ...all, collapseRuns: true }))).toBe('0 1 2 3 4 5')
  })

  it('filters by type; unknown chunks only show when no type is chosen', () => {
    const engine = engineOf([bs(0, 'text'), { type: 'mystery', index: 0 }, td(0, 'hi'), finish('stop')])
    expect(print(buildTimelineRows(engine, all))).toBe('0 1 2 3')
    expect(print(buildTimelineRows(engine, { ...all, types: ['text-delta', 'finish'] }))).toBe('2 3')
  })

  it('filters by index, keeping usage and finish', () => {
    expect(print(buildTimelineRows(stream, { ...all, index: 1 }))).toBe('7 8 9 10 14 15')
  })

  it('search keeps matching payloads, case-insensitively, and never collapses', () => {
    const rows = buildTimelineRows(stream, { ...all, search: 'AGAIN', collapseRuns: true })
    expect(rows.searching).toBe(true)
    expect(print(rows)).toBe('12 13')
    // tool-call id/name and arguments, block-end content, whitespace as typed.
    expect(print(buildTimelineRows(stream, { ...all, search: 'grep' }))).toBe('8 10')
    expect(print(buildTimelineRows(stream, { ...all, search: '"todo"' }))).toBe('9 10')
    expect(print(buildTimelineRows(stream, { ...all, search: 'quartz l' }))).toBe('6')
    expect(print(buildTimelineRows(stream, { ...all, search: 'in 10' }))).toBe('14')
    expect(print(buildTimelineRows(stream, { ...all, search: '(.*' }))).toBe('')
  })

  it('combines type, index and search', () => {
    const rows = buildTimelineRows(stream, { ...all, types: ['text-delta'], index: 0, search: 'a' })
    expect(print(rows)).toBe('1 2 3 4 11 12 13')
  })

  it('stays compact for long streams: typed arrays, one pass', () => {
    const engine = { chunks: chunkListOf(generateStream(200_000)), effectCodes: new Uint8Array(200_000) }
    const rows = buildTimelineRows(engine, { ...all, collapseRuns: true })
    expect(rows.positions).toBeInstanceOf(Int32Array)
    // Per 400-delta block: start, head, one run row, end.
    expect(rows.count).toBeLessThan(2_100)
    expect(rows.kinds.filter((kind) => kind === ROW_RUN).length).toBeGreaterThan(480)
  })
})

describe('row lookups', () => {
  const rows = buildTimelineRows(stream, { ...all, collapseRuns: true }) // 0 1 2+4 6 7 8 9 10 11 12+2 14 15

  it('finds the row showing a position, including inside a collapsed run', () => {
    expect(rowOf(rows, 0)).toBe(0)
    expect(rowOf(rows, 4)).toBe(2)
    expect(rowOf(rows, 6)).toBe(3)
    expect(rowOf(rows, 13)).toBe(9)
    expect(rowOf(buildTimelineRows(stream, { ...all, index: 1 }), 3)).toBe(-1)
  })

  it('seeks to the last chunk of a row so the row becomes current', () => {
    expect(seekTargetOf(rows, 1)).toBe(2)
    expect(seekTargetOf(rows, 2)).toBe(6)
  })

  it('steps to the next / previous row and wraps like a find bar', () => {
    expect(adjacentRow(rows, -1, 1)).toBe(0)
    expect(adjacentRow(rows, 3, 1)).toBe(3)
    expect(adjacentRow(rows, 3, -1)).toBe(1)
    expect(adjacentRow(rows, 6, -1)).toBe(2)
    expect(adjacentRow(rows, 15, 1)).toBe(0)
    expect(adjacentRow(rows, -1, -1)).toBe(rows.count - 1)
    expect(adjacentRow(rows, 0, -1)).toBe(rows.count - 1)
    const matches = buildTimelineRows(stream, { ...all, search: 'again' }) // 12 13
    expect(adjacentRow(matches, 5, 1)).toBe(0)
    expect(adjacentRow(matches, 12, 1)).toBe(1)
    expect(adjacentRow(matches, 13, 1)).toBe(0)
    expect(adjacentRow(matches, 5, -1)).toBe(1)
  })
})

describe('scrollScale', () => {
  it('is 1 while the content fits under the cap', () => {
    expect(scrollScale(1_000_000 * 22, 800)).toBe(1)
  })

  it('maps the clamped range onto the whole content beyond it', () => {
    const scale = scrollScale(2_000_000 * 22, 800)
    expect(scale).toBeGreaterThan(1)
    // The bottom of the clamped scroll range shows the last rows.
    expect((30_000_000 - 800) * scale + 800).toBeCloseTo(2_000_000 * 22)
  })
})
