import type { TokenUsage } from '../../core/protocol'

/**
 * How pi-ai reads a parsed event (docs/protocol.md §9, "The harness's pi-ai route"): without checks, with
 * JavaScript's own semantics, so a body with a missing or odd field fails the stream with the TypeError the engine
 * throws. The translators that follow pi-ai read through these, so their failure messages are pi-ai's word for word.
 */

/**
 * `value[key]`, throwing what the engine throws for `null` / `undefined` (`optional` is `?.`).
 *
 * @example
 * at(null, 'type') // throws TypeError "Cannot read properties of null (reading 'type')"
 */
export function at(value: unknown, key: string, optional = false): unknown {
  if (value === null || value === undefined) {
    if (optional) return undefined
    throw new TypeError(`Cannot read properties of ${String(value)} (reading '${key}')`)
  }
  return (value as Record<string, unknown>)[key]
}

/** A value as a template literal shows it (`${value}`). */
export function js(value: unknown): string {
  return String(value)
}

/** `value.startsWith(prefix)` with the engine's errors; `expression` names `value` as pi-ai's source does. */
export function startsWith(value: unknown, prefix: unknown, expression: string): boolean {
  if (value === null || value === undefined)
    throw new TypeError(`Cannot read properties of ${String(value)} (reading 'startsWith')`)
  if (typeof value !== 'string') throw new TypeError(`${expression}.startsWith is not a function`)
  return value.startsWith(String(prefix))
}

/** pi-ai's usage counts as they stand (they may be whatever the wire sent). */
export type PiUsage = { input: unknown; output: unknown; cacheRead: unknown; cacheWrite: unknown }

/** The route's usage: pi-ai's counts, cache fields only when > 0. */
export function piAiUsage(usage: PiUsage): TokenUsage {
  return {
    inputTokens: usage.input as number,
    outputTokens: usage.output as number,
    ...((usage.cacheRead as number) > 0 ? { cacheReadTokens: usage.cacheRead as number } : {}),
    ...((usage.cacheWrite as number) > 0 ? { cacheWriteTokens: usage.cacheWrite as number } : {}),
  }
}
