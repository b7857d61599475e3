import { describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { generateSessionLog } from '../../test/generateSession'
import { buildOutline } from './buildOutline'
import { flattenOutline, groupIds, keepUnchangedRows, type OutlineRow } from './flattenOutline'

describe('keepUnchangedRows', () => {
  const { roots } = buildOutline(loadSource(generateSessionLog({ targetChars: 200_000, deltas: 20 }).text))
  const groups = groupIds(roots)

  it('reads exactly as the fresh rows, keeping the earlier object of every row that did not change', () => {
    let shown: readonly OutlineRow[] = flattenOutline(roots, new Set())
    // Open groups one by one, then close them in another order: every state's rows are the fresh ones.
    const steps = [
      ...groups.slice(0, 6).map((id) => [id, true] as const),
      ...groups
        .slice(0, 6)
        .reverse()
        .map((id) => [id, false] as const),
    ]
    const open = new Set<string>()
    for (const [id, opening] of steps) {
      if (opening) open.add(id)
      else open.delete(id)
      const fresh = flattenOutline(roots, open)
      const kept = keepUnchangedRows(fresh, shown)
      expect(kept).toEqual(fresh)
      const before = new Map(shown.map((row) => [row.node.id, row]))
      for (const row of kept) {
        const old = before.get(row.node.id)
        const same =
          old !== undefined && JSON.stringify({ ...old, node: 0 }) === JSON.stringify({ ...row, node: 0 })
        expect(row === old, `${row.node.id} kept its object`).toBe(same)
      }
      shown = kept
    }
  })

  it('gives the toggled group a new row and keeps the rows before it', () => {
    const closed = flattenOutline(roots, new Set())
    const turn = closed.findIndex((row) => row.expanded === false && row.level === 1 && row.posInSet > 1)
    const opened = keepUnchangedRows(flattenOutline(roots, new Set([closed[turn]!.node.id])), closed)
    expect(opened.slice(0, turn).every((row, index) => row === closed[index])).toBe(true)
    expect(opened[turn]).not.toBe(closed[turn])
    expect(opened[turn]!.expanded).toBe(true)
  })
})
