import { describe, expect, it } from 'vitest'
import { placeRows, type RowSlots } from './rowSlots'

const SLOTS = 30
const REACH = 256

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function shown(slots: RowSlots): number[] {
  return slots.rows.filter((row) => row >= 0).sort((a, b) => a - b)
}

describe('placeRows', () => {
  it('shows each row of the window once, at an offset within reach, for any sequence of moves', () => {
    const problems: string[] = []
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed)
      const count = 1 + Math.floor(next() * 5000)
      let previous: RowSlots | null = null
      for (let move = 0; move < 60; move++) {
        const kind = next()
        const last: number = previous === null ? 0 : (shown(previous)[0] ?? 0)
        const first: number =
          kind < 0.5
            ? Math.max(0, Math.min(count - 1, last + Math.floor(next() * 9) - 4))
            : Math.floor(next() * count)
        const end = Math.min(count, first + SLOTS)
        const slots = placeRows(previous, first, end, SLOTS, REACH)
        // Each row of the window once; offsets within reach and distinct (no two elements share a `top`).
        const offsets = slots.rows.filter((row) => row >= 0).map((row) => row - slots.base)
        const wrong = [
          shown(slots).join() !== Array.from({ length: end - first }, (_, i) => first + i).join() && 'rows',
          slots.rows.length !== SLOTS && 'slots',
          !offsets.every((offset) => Math.abs(offset) < REACH) && 'reach',
          new Set(offsets).size !== offsets.length && 'distinct',
        ].filter(Boolean)
        if (wrong.length > 0) problems.push(`seed ${seed}, move ${move}: ${wrong.join(', ')}`)
        previous = slots
      }
    }
    expect(problems).toEqual([])
  })

  it('keeps the rows still in view in their slots, at their offsets, until the offsets pass the reach', () => {
    let previous = placeRows(null, 1000, 1000 + SLOTS, SLOTS, REACH)
    for (let first = 1001; first <= 1000 + REACH - SLOTS; first++) {
      const slots = placeRows(previous, first, first + SLOTS, SLOTS, REACH)
      expect(slots.base).toBe(1000)
      const changed = slots.rows.filter((row, slot) => row !== previous.rows[slot])
      // A scroll by one row: only the row coming in takes an element, the one of the row going out.
      expect(changed).toEqual([first + SLOTS - 1])
      previous = slots
    }
    // Past the reach the base moves to the first row: every element gets its new place once.
    const first = 1000 + REACH - SLOTS + 1
    const moved = placeRows(previous, first, first + SLOTS, SLOTS, REACH)
    expect(moved.base).toBe(first)
  })

  it('keeps every element at its offset when the view jumps past all the rows it showed', () => {
    let previous = placeRows(null, 0, SLOTS, SLOTS, REACH)
    previous = placeRows(previous, 7, 7 + SLOTS, SLOTS, REACH)
    for (const first of [500, 5000, 130, 4000]) {
      const slots = placeRows(previous, first, first + SLOTS, SLOTS, REACH)
      previous.rows.forEach((row, slot) => {
        expect(slots.rows[slot]! - slots.base).toBe(row - previous.base)
      })
      previous = slots
    }
  })

  it('keeps the rows in their slots while the view scrolls up past the base, row by row', () => {
    let previous = placeRows(null, 1000, 1000 + SLOTS, SLOTS, REACH)
    for (let first = 999; first > 1000 - REACH + 1; first--) {
      const slots = placeRows(previous, first, first + SLOTS, SLOTS, REACH)
      expect(slots.base).toBe(1000)
      expect(slots.rows.filter((row, slot) => row !== previous.rows[slot])).toEqual([first])
      previous = slots
    }
  })

  it('with a reach of 0, keeps the base at the first row: slot i shows row first + i after any move', () => {
    let previous = placeRows(null, 1000, 1000 + SLOTS, SLOTS, REACH)
    previous = placeRows(previous, 1003, 1003 + SLOTS, SLOTS, REACH)
    for (const first of [1004, 1004, 1003, 900, 5000, 5001]) {
      const slots = placeRows(previous, first, first + SLOTS, SLOTS, 0)
      expect(slots.base).toBe(first)
      expect(slots.rows).toEqual(Array.from({ length: SLOTS }, (_, i) => first + i))
      previous = slots
    }
  })

  it('gives back the same slots when nothing moved', () => {
    const slots = placeRows(null, 10, 10 + SLOTS, SLOTS, REACH)
    expect(placeRows(slots, 10, 10 + SLOTS, SLOTS, REACH)).toBe(slots)
    const none = placeRows(null, 0, 0, SLOTS, REACH)
    expect(placeRows(none, 0, 0, SLOTS, REACH)).toBe(none)
  })

  it('leaves the slots past the last row empty, and fills them again when rows come back', () => {
    const count = 40
    const top = placeRows(null, 0, SLOTS, SLOTS, REACH)
    const atEnd = placeRows(top, 25, count, SLOTS, REACH)
    expect(atEnd.rows.filter((row) => row < 0)).toHaveLength(SLOTS - (count - 25))
    const back = placeRows(atEnd, 5, 5 + SLOTS, SLOTS, REACH)
    expect(shown(back)).toEqual(Array.from({ length: SLOTS }, (_, i) => 5 + i))
  })
})
