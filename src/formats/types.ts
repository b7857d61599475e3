import type { Session } from '../core/session'
import type { Lesson } from './lesson/lesson'
import type { TraceReference } from './reference/traceReference'
import type { FormatId } from './registry'

/**
 * Something a reader noticed about its input. Readers are lenient: they report and keep going, so a
 * diagnostic never means "nothing was read". `line` is 1-based; `byte` is an offset when a reader knows one.
 * The message names where on its own (`line 12: malformed text-chunks row: …`) so it reads well out of context.
 */
export type Diagnostic = {
  readonly line?: number
  readonly byte?: number
  readonly severity: 'error' | 'warning' | 'info'
  readonly message: string
}

/** Input formats Chunkscope reads: one per entry of the registry (registry.ts), where ids and labels live. */
export type { FormatId } from './registry'

/**
 * The result of loading one input: what it was, what was wrong with it, and the sessions it held.
 * `format` is null when the input was empty or not recognised (then `sessions` is empty and one error says why).
 */
export type LoadedSource = {
  readonly format: FormatId | null
  readonly name?: string
  readonly diagnostics: Diagnostic[]
  readonly sessions: Session[]
  /** Narration and questions, when the input was a lesson (docs/protocol.md §15) or a commented snippet. */
  readonly lesson?: Lesson
  /** Reference finals a trace export holds, for the streams of another source (docs/protocol.md §9, "A reference final"). */
  readonly references?: readonly TraceReference[]
  /** How a derived stream was made (`edited: 1 edit (drop #4)`): set for what-if edits, carried by share links. */
  readonly derived?: string
}

/** What a reader makes of its input: the sessions it could read, and what it noticed on the way. */
export type ReadResult = {
  readonly diagnostics: Diagnostic[]
  readonly sessions: Session[]
  readonly lesson?: Lesson
  readonly references?: readonly TraceReference[]
}
