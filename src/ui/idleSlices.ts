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
 * Background slices wait until no key press, click or scroll has come for this long: stepping with → (a press every few
 * frames) gets the whole machine — the frame's raster and compositing threads included — rather than sharing it with
 * counting, indexing or summarising that can as well run when the user pauses.
 */
const QUIET_MS = 250
/** …unless input keeps coming for this long: then a slice runs anyway, so the work still finishes. */
const QUIET_AT_MOST_MS = 2000

/**
 * When the page last saw a key press, a click or a scroll (one listener each for every background job of the page,
 * installed with the first of them; not a cache: a clock reading). A scroll is input too: a fling of the timeline
 * leaves no idle period, so without it each search-index slice ran on its timeout in the middle of the fling, 15–27
 * ms each, ~12 of a 120-frame fling's frames at 10M chunks (bench/README.md, the timeline's fling).
 */
let lastInput = Number.NEGATIVE_INFINITY
let watching = false

function watchInput(): void {
  if (watching || typeof window === 'undefined') return
  watching = true
  const mark = () => {
    lastInput = performance.now()
  }
  window.addEventListener('keydown', mark, { capture: true, passive: true })
  window.addEventListener('pointerdown', mark, { capture: true, passive: true })
  // Scroll events do not bubble; a capturing listener on the window sees every element's.
  window.addEventListener('scroll', mark, { capture: true, passive: true })
}

/**
 * Calls `run` in an idle period (`requestIdleCallback` with `timeout`, or a task where there is none) once the page
 * has had no input for {@link QUIET_MS}, or after `atMostMs` of input (work that must finish while the user keeps
 * stepping; Infinity for work that can wait until the user stops). Returns the cancel function.
 */
export function whenQuiet(
  run: (deadline?: IdleDeadline) => void,
  timeout: number,
  atMostMs: number = QUIET_AT_MOST_MS,
): () => void {
  watchInput()
  const since = performance.now()
  let timer: ReturnType<typeof setTimeout> | undefined
  let idle: number | undefined
  const attempt = () => {
    const now = performance.now()
    const wait = lastInput + QUIET_MS - now
    if (wait > 0 && now - since < atMostMs) {
      timer = setTimeout(attempt, wait)
      return
    }
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout })
    else timer = setTimeout(run, 0)
  }
  attempt()
  return () => {
    clearTimeout(timer)
    if (idle !== undefined) cancelIdleCallback(idle)
  }
}

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
 * idle period (between {@link MIN_SLICE_MS} and {@link IDLE_SLICE_MS}), and none while the user is stepping
 * ({@link whenQuiet}): background counting over a long stream never takes the frame a key press needs. Without
 * `requestIdleCallback` (Node, Safari) each slice is a task.
 * Returns the cancel function.
 *
 * @example
 * const cancel = inIdleSlices((budgetMs) => counter.advance(budgetMs))
 */
export function inIdleSlices(work: (budgetMs: number) => boolean): () => void {
  // Dropped once done or cancelled: the cancel function outlives the work, and the work may hold a lot.
  let job: typeof work | null = work
  let cancel = () => {}
  const run = (deadline?: IdleDeadline) => {
    if (job === null) return
    const left = deadline === undefined || deadline.didTimeout ? MIN_SLICE_MS : deadline.timeRemaining()
    if (job(Math.max(MIN_SLICE_MS, Math.min(IDLE_SLICE_MS, left)))) job = null
    else schedule()
  }
  const schedule = () => {
    cancel = whenQuiet(run, IDLE_TIMEOUT_MS)
  }
  schedule()
  return () => {
    job = null
    cancel()
  }
}
