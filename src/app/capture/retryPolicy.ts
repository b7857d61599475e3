// The retry policy of a browser capture (docs/protocol.md §11): the harness's default, configurable, or off.
import type { FinishReason, LlmFailure } from '../../core/protocol'

export type RetryPolicy = {
  /** Retries after the first attempt (0 = none). */
  readonly maxRetries: number
  /** The first retry's delay; retry n waits baseMs × 2^(n−1). */
  readonly baseMs: number
  /** No wait is longer, a provider's Retry-After included. */
  readonly capMs: number
  /** ±fraction of the backoff (0.1 = ±10%); a provider's Retry-After is used as given. */
  readonly jitter: number
  /** Failure codes worth a retry; any other code ends the step. */
  readonly codes: readonly string[]
}

/** §11: the harness's default — EMPTY_RESPONSE, RATE_LIMIT, SERVER, TIMEOUT, TRANSPORT; ≤ 5; 500 ms × 2^(n−1) ≤ 10 s, ±10%. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 5,
  baseMs: 500,
  capMs: 10_000,
  jitter: 0.1,
  codes: Object.freeze(['EMPTY_RESPONSE', 'RATE_LIMIT', 'SERVER', 'TIMEOUT', 'TRANSPORT']),
})

/** No retries: the first attempt's end is the step's end. */
export const NO_RETRY: RetryPolicy = Object.freeze({ ...DEFAULT_RETRY_POLICY, maxRetries: 0 })

/**
 * A policy from a setting: `'default'`, `'off'`, or changes to the default (out-of-range numbers are clamped: retries
 * to 0…20, delays to ≥ 0, jitter to 0…1).
 *
 * @example
 * retryPolicy({ maxRetries: 2, codes: ['RATE_LIMIT'] }) // 429 retried twice, nothing else
 */
export function retryPolicy(setting: 'default' | 'off' | Partial<RetryPolicy> = 'default'): RetryPolicy {
  if (setting === 'default') return DEFAULT_RETRY_POLICY
  if (setting === 'off') return NO_RETRY
  const merged = { ...DEFAULT_RETRY_POLICY, ...setting }
  const clamp = (value: number, low: number, high: number, fallback: number) =>
    Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : fallback
  return {
    maxRetries: Math.round(clamp(merged.maxRetries, 0, 20, DEFAULT_RETRY_POLICY.maxRetries)),
    baseMs: clamp(merged.baseMs, 0, 600_000, DEFAULT_RETRY_POLICY.baseMs),
    capMs: clamp(merged.capMs, 0, 600_000, DEFAULT_RETRY_POLICY.capMs),
    jitter: clamp(merged.jitter, 0, 1, DEFAULT_RETRY_POLICY.jitter),
    codes: [...merged.codes],
  }
}

/** The failure a finish retries on, or null when it is no failure (stop, tool-calls, max-tokens, aborted). */
export function retryableFailure(finish: FinishReason | null): LlmFailure | null {
  return finish?.kind === 'error' ? finish.failure : null
}

/**
 * The wait before retry `retry` (1-based) after `failure`, or null when the policy does not retry it (code not
 * listed, or more than `maxRetries`). A provider's `providerRetryAfterMs` is honoured up to the cap (no jitter);
 * otherwise baseMs × 2^(retry−1), capped, ± jitter. `random` returns [0, 1).
 *
 * @example
 * nextDelay(DEFAULT_RETRY_POLICY, 1, { code: 'SERVER', message: '' }, () => 0.5) // 500
 * nextDelay(DEFAULT_RETRY_POLICY, 1, { code: 'RATE_LIMIT', message: '', providerRetryAfterMs: 2000 }) // 2000
 * nextDelay(DEFAULT_RETRY_POLICY, 1, { code: 'AUTH', message: '' }) // null
 */
export function nextDelay(
  policy: RetryPolicy,
  retry: number,
  failure: LlmFailure,
  random: () => number = Math.random,
): number | null {
  if (!Number.isInteger(retry) || retry < 1 || retry > policy.maxRetries) return null
  if (!policy.codes.includes(failure.code)) return null
  const after = failure.providerRetryAfterMs
  if (after !== undefined && Number.isFinite(after) && after >= 0) return Math.min(after, policy.capMs)
  const backoff = Math.min(policy.baseMs * 2 ** (retry - 1), policy.capMs)
  const spread = backoff * policy.jitter * (2 * random() - 1)
  return Math.max(0, Math.round(backoff + spread))
}
