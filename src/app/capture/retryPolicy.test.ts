import { describe, expect, it } from 'vitest'
import type { LlmFailure } from '../../core/protocol'
import { DEFAULT_RETRY_POLICY, NO_RETRY, nextDelay, retryableFailure, retryPolicy } from './retryPolicy'

const failure = (code: string, extra: Partial<LlmFailure> = {}): LlmFailure => ({
  message: code,
  code,
  ...extra,
})
const mid = () => 0.5

describe('retry policy (docs/protocol.md §11)', () => {
  it('the default retries EMPTY_RESPONSE, RATE_LIMIT, SERVER, TIMEOUT, TRANSPORT, nothing else', () => {
    for (const code of ['EMPTY_RESPONSE', 'RATE_LIMIT', 'SERVER', 'TIMEOUT', 'TRANSPORT'])
      expect(nextDelay(DEFAULT_RETRY_POLICY, 1, failure(code), mid)).toBe(500)
    for (const code of ['AUTH', 'INVALID_REQUEST', 'STREAM_CLOSED', 'MALFORMED_RESPONSE', 'ABORTED'])
      expect(nextDelay(DEFAULT_RETRY_POLICY, 1, failure(code), mid)).toBeNull()
  })

  it('backs off 500 ms × 2^(n−1), capped at 10 s, at most 5 times', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((n) => nextDelay(DEFAULT_RETRY_POLICY, n, failure('SERVER'), mid))
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, null])
    const long = retryPolicy({ maxRetries: 8 })
    expect(nextDelay(long, 6, failure('SERVER'), mid)).toBe(10_000)
    expect(nextDelay(long, 8, failure('SERVER'), mid)).toBe(10_000)
  })

  it('jitters ±10%', () => {
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, failure('SERVER'), () => 0)).toBe(450)
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, failure('SERVER'), () => 0.999999)).toBe(550)
    expect(nextDelay(DEFAULT_RETRY_POLICY, 5, failure('SERVER'), () => 0)).toBe(7200)
    expect(nextDelay(DEFAULT_RETRY_POLICY, 6, failure('SERVER'), () => 0)).toBeNull()
  })

  it("honours the provider's Retry-After up to the cap, without jitter", () => {
    expect(
      nextDelay(DEFAULT_RETRY_POLICY, 1, failure('RATE_LIMIT', { providerRetryAfterMs: 2000 }), () => 0),
    ).toBe(2000)
    expect(
      nextDelay(DEFAULT_RETRY_POLICY, 3, failure('RATE_LIMIT', { providerRetryAfterMs: 0 }), () => 0),
    ).toBe(0)
    expect(nextDelay(DEFAULT_RETRY_POLICY, 1, failure('RATE_LIMIT', { providerRetryAfterMs: 60_000 }))).toBe(
      10_000,
    )
  })

  it('off never retries; settings change the default and are clamped', () => {
    expect(retryPolicy('off')).toBe(NO_RETRY)
    expect(retryPolicy()).toBe(DEFAULT_RETRY_POLICY)
    expect(nextDelay(NO_RETRY, 1, failure('SERVER'), mid)).toBeNull()
    const custom = retryPolicy({ maxRetries: 3, baseMs: 1000, capMs: 3000, jitter: 0, codes: ['RATE_LIMIT'] })
    expect([1, 2, 3, 4].map((n) => nextDelay(custom, n, failure('RATE_LIMIT'), mid))).toEqual([
      1000,
      2000,
      3000,
      null,
    ])
    expect(nextDelay(custom, 1, failure('SERVER'), mid)).toBeNull()
    expect(retryPolicy({ maxRetries: -4, jitter: 7, baseMs: Number.NaN })).toMatchObject({
      maxRetries: 0,
      jitter: 1,
      baseMs: 500,
    })
    expect(nextDelay(DEFAULT_RETRY_POLICY, 0, failure('SERVER'), mid)).toBeNull()
  })

  it('retries on error finishes only', () => {
    expect(retryableFailure({ kind: 'error', failure: failure('SERVER') })).toEqual(failure('SERVER'))
    expect(retryableFailure({ kind: 'aborted', failure: failure('ABORTED') })).toBeNull()
    expect(retryableFailure({ kind: 'stop' })).toBeNull()
    expect(retryableFailure(null)).toBeNull()
  })
})
