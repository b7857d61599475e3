/**
 * Which row element shows which row. The timeline renders a fixed number of row elements (slots); each element's
 * `top` is its row's distance from a base row, and the body is shifted by the base's distance from the view's top
 * (TimelineGrid). Two ways of moving cost the browser differently:
 *
 * - a fling jumps past every row on screen: each element keeps its `top` and only its text and classes change, since
 *   rewriting every row's inline `top` made style recalculation the frame's biggest cost (bench/README.md, the
 *   timeline's fling);
 * - a step that scrolls by a row, or a short scroll, keeps most rows on screen: those keep their element, `top` and
 *   text, and only the rows coming in take the elements of the rows going out, so the step re-renders one row
 *   instead of every row (bench/README.md, the → step).
 *
 * Offsets from the base grow (or fall below 0) as a short scroll goes on; past `reach` rows either way the base moves
 * to the first row and every element gets a new `top` once (the body's backdrop is sized for `reach`, timeline.css).
 * A reach of 0 keeps the base at the first row: slot i shows row `first + i` (TimelineGrid past 2^24 px of scroll,
 * where offsets of thousands of pixels from the base would lose a pixel beside the sticky offset).
 */
export type RowSlots = {
  /** The row whose offset is 0; every row shown is less than `reach` rows from it, either way. */
  readonly base: number
  /** For each slot (the row element's key), the row it shows, or -1 when it shows none. */
  readonly rows: readonly number[]
}

/**
 * The slots for the rows `first` to `end` (exclusive; at most `slots` of them), from the slots last rendered:
 * `previous` itself when nothing moved (TimelineGrid keeps them as state, set while rendering).
 */
export function placeRows(
  previous: RowSlots | null,
  first: number,
  end: number,
  slots: number,
  reach: number,
): RowSlots {
  const next = place(previous, first, end, slots, reach)
  const same =
    previous !== null &&
    previous.base === next.base &&
    previous.rows.length === next.rows.length &&
    previous.rows.every((row, slot) => row === next.rows[slot])
  return same ? previous : next
}

function place(
  previous: RowSlots | null,
  first: number,
  end: number,
  slots: number,
  reach: number,
): RowSlots {
  const fresh = (base: number): RowSlots => ({
    base,
    rows: Array.from({ length: slots }, (_, slot) => (base + slot < end ? base + slot : -1)),
  })
  if (previous === null || previous.rows.length !== slots) return fresh(first)
  let kept = 0
  for (const row of previous.rows) if (row >= first && row < end) kept++
  // No row stays on screen: each element keeps its offset (its `top`) and shows the row at that offset from a base
  // moved by as many rows as the view moved.
  if (kept === 0) {
    // The rows shown are consecutive, so their offsets are too: from `depth` for `used` rows; the slots that showed
    // none take the offsets after them.
    let low = Number.POSITIVE_INFINITY
    let used = 0
    for (const row of previous.rows)
      if (row >= 0) {
        low = Math.min(low, row)
        used++
      }
    const depth = used === 0 ? 0 : low - previous.base
    if (depth <= -reach || depth + slots > reach) return fresh(first)
    const base = first - depth
    let spare = depth + used
    return {
      base,
      rows: previous.rows.map((row) => {
        const next = base + (row >= 0 ? row - previous.base : spare++)
        return next >= first && next < end ? next : -1
      }),
    }
  }
  if (first - previous.base <= -reach || end - previous.base > reach) return fresh(first)
  // Rows still on screen keep their slots; the rows coming in take the free slots in order.
  const taken = new Set<number>()
  for (const row of previous.rows) if (row >= first && row < end) taken.add(row)
  const coming: number[] = []
  for (let row = first; row < end; row++) if (!taken.has(row)) coming.push(row)
  let next = 0
  return {
    base: previous.base,
    rows: previous.rows.map((row) => {
      if (row >= first && row < end) return row
      return next < coming.length ? coming[next++]! : -1
    }),
  }
}
