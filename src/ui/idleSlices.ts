/** A slice never runs longer than this, idle period or not: a key pressed meanwhile waits at most about as long. */
export const IDLE_SLICE_MS = 8
/**
 * A slice that got no idle period (a busy page) still runs after this long, so the work always finishes; long
 * enough that one rarely runs as a task of its own while the user steps (a stepped page still has idle periods).
 */
const IDLE_TIMEOUT_MS = 1000
/** The least a slice gets when the browser's idle period is nearly over (or it ran on the timeout). */
const MIN_SLICE_MS = 3

type Scheduling = { readonly isInputPending?: () => boolean }

/**
 * True when a key press or click is waiting for the page (Chromium's `navigator.scheduling.isInputPending`; false
 * where there is none): background slices end early for it, so it never waits for one.
 */
export function inputPending(): boolean {
  const scheduling = (globalThis.navigator as { scheduling?: Scheduling } | undefined)?.scheduling
  return scheduling?.isInputPending?.() ?? false
}

/**
 * Runs `work(budgetMs)` in the page's idle periods until it returns true (done), each call given what is left of the
 * idle period (between {@link MIN_SLICE_MS} and {@link IDLE_SLICE_MS}): background counting over a long stream
 * never takes the frame a key press needs. Without `requestIdleCallback` (Node, Safari) each slice is a task.
 * Returns the cancel function.
 *
 * @example
 * const cancel = inIdleSlices((budgetMs) => counter.advance(budgetMs))
 */
export function inIdleSlices(work: (budgetMs: number) => boolean): () => void {
  // Dropped once done or cancelled: the cancel function outlives the work, and the work may hold a lot.
  let job: typeof work | null = work
  let handle: number | ReturnType<typeof setTimeout> | undefined
  const idle = typeof requestIdleCallback === 'function'
  const run = (deadline?: IdleDeadline) => {
    if (job === null) return
    const left = deadline === undefined || deadline.didTimeout ? MIN_SLICE_MS : deadline.timeRemaining()
    if (job(Math.max(MIN_SLICE_MS, Math.min(IDLE_SLICE_MS, left)))) job = null
    else schedule()
  }
  const schedule = () => {
    handle = idle ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(run, 0)
  }
  schedule()
  return () => {
    job = null
    if (handle === undefined) return
    if (idle) cancelIdleCallback(handle as number)
    else clearTimeout(handle)
  }
}
