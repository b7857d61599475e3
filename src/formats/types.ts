import type { Session } from '../core/session'

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

/** Input formats Chunkscope reads; detected from content, never from the file name. */
export type FormatId =
  | 'dsh-session-jsonl'
  | 'chunk-ndjson'
  | 'chunk-json'
  | 'openai-sse'
  | 'anthropic-sse'
  | 'har'
  | 'dsh-live-recording'
  | 'js-snippet'
  | 'simplified-stream'
  | 'dsh-session-zstd'
  | 'dsh-session-zip'
  | 'dsh-sqlite'
  /** Not read from a file: the live captures of the page and its feeds (issue 6). */
  | 'chunkscope-live'

/**
 * The result of loading one input: what it was, what was wrong with it, and the sessions it held.
 * `format` is null when the input was empty or not recognised (then `sessions` is empty and one error says why).
 */
export type LoadedSource = {
  readonly format: FormatId | null
  readonly name?: string
  readonly diagnostics: Diagnostic[]
  readonly sessions: Session[]
}
