import { describe, expect, it } from 'vitest'
import { piAiFinish } from './piAiFailure'

/**
 * The route's finish for a failed pi-ai message, one wording at a time (docs/protocol.md §9, "The harness's pi-ai
 * route"). The oracle tests map pi-ai's events through this same module, so they cannot catch a wrong
 * classification; these expectations were written from the route's own code: the harness's wording test, then
 * pi-ai's `isContextOverflow` patterns and exclusions, then the ordered classification.
 */
const codeOf = (errorMessage: string) => {
  const finish = piAiFinish({ stopReason: 'error', errorMessage, model: 'claude-x', blockCount: 0 })
  return finish.kind === 'error' ? finish.failure.code : finish.kind
}

describe('piAiFinish classifies a failed message as the harness route does', () => {
  it.each([
    // Order matters: a status number wins over the words after it, quota wording wins over 429.
    ['403 quota exceeded', 'AUTH'],
    ['429 insufficient_quota: You exceeded your current quota', 'QUOTA'],
    ['HTTP 429 Too Many Requests', 'RATE_LIMIT'],
    ['413 Payload Too Large', 'INVALID_REQUEST'],
    [
      '400 {"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 100000 > 64000"}}',
      'INVALID_REQUEST',
    ],
    ['529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'SERVER'],
    // An Anthropic error event carries no status number: nothing in its text names a class.
    ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'PI_AI_ERROR'],
    ['HTTP 5000', 'PI_AI_ERROR'],
    ['Request timed out.', 'TIMEOUT'],
    ['Anthropic stream ended before message_stop', 'TRANSPORT'],
    ['terminated', 'TRANSPORT'],
    ['read ECONNRESET', 'TRANSPORT'],
  ])('%s → %s', (message, code) => {
    expect(codeOf(message)).toBe(code)
  })

  it.each([
    // pi-ai's own patterns, Anthropic's and the generic ones, checked before any status number.
    '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
    '413 status code (no body)',
    '400 status code (no body)',
    'Too many tokens in this request',
    // pi-ai excludes only the human-readable "Throttling error:" prefix, not the exception name.
    'ThrottlingException: Too many tokens, please wait before trying again.',
    // The harness's own wording test ("exceeds" with the model context as its object).
    'the input exceeds the model context window',
  ])('%s → CONTEXT_WINDOW_EXCEEDED', (message) => {
    expect(codeOf(message)).toBe('CONTEXT_WINDOW_EXCEEDED')
  })

  it('does not read throttling or rate-limit wording as an overflow', () => {
    expect(codeOf('Throttling error: Too many tokens, please wait before trying again.')).toBe('PI_AI_ERROR')
    expect(codeOf('rate limit: too many tokens')).toBe('RATE_LIMIT')
  })

  it('keeps an empty message as it is (only a missing one becomes "pi-ai stream error")', () => {
    expect(piAiFinish({ stopReason: 'error', errorMessage: '', model: 'm', blockCount: 0 })).toEqual({
      kind: 'error',
      failure: { message: '', code: 'PI_AI_ERROR' },
    })
    expect(piAiFinish({ stopReason: 'error', errorMessage: undefined, model: 'm', blockCount: 0 })).toEqual({
      kind: 'error',
      failure: { message: 'pi-ai stream error', code: 'PI_AI_ERROR' },
    })
  })
})
