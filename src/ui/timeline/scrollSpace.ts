import { scrollScale } from './buildTimelineRows'

/**
 * The timeline's scrolled length against its content. Chromium caps an element's height at 33,554,430 px, so past
 * MAX_SCROLL_PX of rows one scrolled pixel stands for `scale` content pixels (see {@link scrollScale}).
 */
export type ScrollSpace = {
  /** Content pixels per scrolled pixel: 1 while the rows fit under the cap. */
  readonly scale: number
  /** The scrolled length (the table's height below its header). */
  readonly body: number
  /** The content offset at the top of the view when scrolled to the end: the last rows fill the view. */
  readonly bottom: number
}

/**
 * @example
 * scrollSpace(10_000_000, 22, 856) // { scale: ~7.33, body: ~30M, bottom: 219_999_144 }
 */
export function scrollSpace(count: number, rowHeight: number, view: number): ScrollSpace {
  const content = count * rowHeight
  const scale = scrollScale(content, view)
  // Scrolled to the bottom (body − view), the top of the view must show content − view.
  const body = scale === 1 ? content : view + (content - view) / scale
  return { scale, body, bottom: Math.max(0, content - view) }
}

/** The content offset at the top of the view for a scroll offset. */
export function contentTop(space: ScrollSpace, view: number, scrollTop: number): number {
  // Scroll offsets near the cap are floats with 2 px steps: within them of the end is the end.
  if (scrollTop >= space.body - view - 2) return space.bottom
  return Math.min(space.bottom, Math.max(0, scrollTop * space.scale))
}

/** The scroll offset that shows content offset `top` at the top of the view (the inverse of {@link contentTop}). */
export function scrollTopFor(space: ScrollSpace, view: number, top: number): number {
  const clamped = Math.min(space.bottom, Math.max(0, top))
  return clamped === space.bottom ? Math.max(0, space.body - view) : clamped / space.scale
}

/**
 * Where the view's top goes so that the row at content offset `y` is wholly in view, or null when it already is:
 * the row centred, after a step past the view's edge as after a far jump, as a debugger reveals the line it stopped
 * on. Stepping on then shows half a view of the chunks still to come and scrolls once per half view; kept at the
 * nearer edge, the row sat on the view's last line, the next chunk was never in view and every step past it scrolled
 * (each such step rewrites every row's text: bench/README.md, the → step).
 */
export function followTop(
  space: ScrollSpace,
  view: number,
  top: number,
  y: number,
  rowHeight: number,
): number | null {
  if (y >= top && y + rowHeight <= top + view) return null
  // A view shorter than two rows cannot centre one: its top goes to the row's.
  const next = view < 2 * rowHeight ? y : y + rowHeight / 2 - view / 2
  return Math.min(space.bottom, Math.max(0, next))
}

/** Rows [first, end) that intersect a view whose top is at content offset `top`, plus `overscan` below it. */
export function rowsInView(
  count: number,
  rowHeight: number,
  view: number,
  top: number,
  overscan: number,
): { readonly first: number; readonly end: number } {
  return {
    first: Math.min(count, Math.floor(top / rowHeight)),
    end: Math.min(count, Math.ceil((top + view) / rowHeight) + overscan),
  }
}

/**
 * Where the view is: the scroll offset, and the content offset when the page set it (a cursor-follow scroll).
 * Chromium rounds a scroll offset it is given (to whole pixels, and to 2 px steps past 16M px), and past the
 * element cap one scrolled pixel stands for several content pixels: the offset read back would put a row the
 * cursor brought to the view's edge up to `scale` px outside it. So the content offset the page asked for stands
 * until the user scrolls.
 */
export type Scroll = { readonly scrollTop: number; readonly top: number | null }

/** The scroll event that follows setting a scroll offset reports it rounded: the asked-for content offset stays. */
export function echoOf(previous: Scroll, scrollTop: number): Scroll {
  if (previous.top !== null && Math.abs(scrollTop - previous.scrollTop) <= 2) return previous
  return { scrollTop, top: null }
}
