import type { FinishReason } from '../../core/protocol'

/**
 * How the harness's pi-ai route turns a failed pi-ai message into a finish (docs/protocol.md §9, "The harness's pi-ai
 * route"). pi-ai hands the route only an error *message* (the original error is flattened to text), so the route
 * classifies by wording, in this order: 401/403 → AUTH; quota wording → QUOTA; 429 or "rate limit" → RATE_LIMIT;
 * 413 or a too-large body → INVALID_REQUEST; 400 or "invalid request" → INVALID_REQUEST; a 5xx → SERVER;
 * "timeout" → TIMEOUT; "stream ended before/without" (a provider's truncation wording) → TRANSPORT; network /
 * socket / "terminated" wording → TRANSPORT; anything else → PI_AI_ERROR.
 *
 * @example
 * piAiFailureCode('{"type":"error","error":{"type":"rate_limit_error"}}') // 'RATE_LIMIT'
 * piAiFailureCode('{"type":"error","error":{"type":"overloaded_error"}}') // 'PI_AI_ERROR' (no status in the text)
 */
export function piAiFailureCode(message: string): string {
  if (/\b(?:401|403)\b/.test(message)) return 'AUTH'
  if (namesQuotaExceeded(message)) return 'QUOTA'
  if (/\b429\b|rate.?limit/i.test(message)) return 'RATE_LIMIT'
  if (
    /\b413\b|failed to buffer the request body:\s*length limit exceeded|payload too large|request body too large/i.test(
      message,
    )
  )
    return 'INVALID_REQUEST'
  if (/\b400\b|invalid.?request/i.test(message)) return 'INVALID_REQUEST'
  if (/\b5\d\d\b/.test(message)) return 'SERVER'
  if (/\btime(?:d)?\s*out\b|timeout/i.test(message)) return 'TIMEOUT'
  if (/stream ended (?:before|without)\b/i.test(message)) return 'TRANSPORT'
  if (
    /\b(?:network|connection|socket|fetch)\b|\bECONN[A-Z]+\b/i.test(message) ||
    /\b(?:other side closed|HTTP2 request did not get a response|WebSocket closed unexpectedly)\b/i.test(
      message,
    ) ||
    /\bterminated\b|premature close/i.test(message)
  )
    return 'TRANSPORT'
  return 'PI_AI_ERROR'
}

/** The harness's wording test for an exhausted account quota (not a transient rate limit). */
export function namesQuotaExceeded(detail: string): boolean {
  return (
    /\binsufficient[\s_-]+(?:quota|balance|credits?)\b/i.test(detail) ||
    /\b(?:quota|usage[\s_-]+limit)[\s_-]+(?:exceeded|exhausted|reached)\b/i.test(detail) ||
    /\bexceed(?:ed|s)?[\s_-]+(?:(?:your|the)[\s_-]+)?(?:current[\s_-]+)?quota\b/i.test(detail) ||
    /\b(?:balance|credits?)[\s_-]+(?:exhausted|depleted)\b/i.test(detail) ||
    /\bout[\s_-]+of[\s_-]+(?:credits?|budget)\b/i.test(detail)
  )
}

/** The harness's own wording test for a request over the model's context window. */
export function namesContextWindowExceeded(detail: string): boolean {
  return (
    /(?:^|[^a-z0-9])context[\s_-](?:length|window)[\s_-](?:exceed(?:ed|s)?|overflow(?:ed)?|limit[\s_-]exceeded)(?:$|[^a-z0-9])/i.test(
      detail,
    ) ||
    /\b(?:maximum|max)(?:\s+(?:allowed|supported))?\s+context\s+(?:length|window)\b/i.test(detail) ||
    /\b(?:request|prompt|input|messages?)\s+(?:is\s+|are\s+)?too\s+(?:large|long)\s+for\s+(?:(?:this|the)\s+)?(?:model(?:'s)?\s+)?context(?:\s+window)?\b/i.test(
      detail,
    ) ||
    /\b(?:input|prompt|request)\s+(?:is\s+)?too\s+(?:long|large)\s+for\s+(?:this|the)\s+model\b/i.test(
      detail,
    ) ||
    /\b(?:input|prompt|request|messages?)\b.{0,40}\b(?:exceed(?:s|ed)?|overflows?|is\s+larger\s+than)\b.{0,40}\b(?:the\s+)?(?:model(?:'s)?\s+)?context(?:\s+(?:length|window))?\b/i.test(
      detail,
    )
  )
}

/**
 * pi-ai's own context-overflow wording (its `isContextOverflow`, error case): one of these matches and none of the
 * rate-limit exclusions does. The usage-based cases need the route's catalog context window, which a body does
 * not carry, so they are not applied (README of this folder).
 */
export const PI_AI_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /request_too_large/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /exceeds (?:the )?(?:model'?s )?maximum context length(?: of [\d,]+ tokens?|\s*\([\d,]+\))/i,
  /input token count.*exceeds the maximum/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /maximum context length is \d+ tokens/i,
  /exceeds (?:the )?maximum allowed input length of [\d,]+ tokens?/i,
  /input \(\d+ tokens\) is longer than the model'?s context length \(\d+ tokens\)/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /too large for model with \d+ maximum context length/i,
  /prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i,
  /model_context_window_exceeded/i,
  /prompt too long; exceeded (?:max )?context length/i,
  /range of input length should be/i,
  /context[_ ]length[_ ]exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i,
]

const PI_AI_NOT_OVERFLOW: readonly RegExp[] = [
  /^(Throttling error|Service unavailable):/i,
  /rate limit/i,
  /too many requests/i,
]

function piAiSeesOverflow(errorMessage: string): boolean {
  return (
    !PI_AI_NOT_OVERFLOW.some((pattern) => pattern.test(errorMessage)) &&
    PI_AI_OVERFLOW_PATTERNS.some((pattern) => pattern.test(errorMessage))
  )
}

/** What the route needs of pi-ai's final message. */
export type PiAiOutcome = {
  readonly stopReason: 'stop' | 'length' | 'toolUse' | 'error' | 'aborted'
  readonly errorMessage: string | undefined
  readonly model: string
  readonly blockCount: number
}

/**
 * The route's finish for pi-ai's final message: context overflow (pi-ai's wording or the harness's) →
 * CONTEXT_WINDOW_EXCEEDED; stop with no block → EMPTY_RESPONSE; length → max-tokens; toolUse → tool-calls;
 * error → the classified code of its message.
 */
export function piAiFinish(outcome: PiAiOutcome): FinishReason {
  const { stopReason, errorMessage, model } = outcome
  if (stopReason === 'error' && errorMessage !== undefined && errorMessage !== '') {
    if (piAiSeesOverflow(errorMessage) || namesContextWindowExceeded(errorMessage))
      return { kind: 'error', failure: { message: errorMessage, code: 'CONTEXT_WINDOW_EXCEEDED' } }
  }
  switch (stopReason) {
    case 'stop':
      return outcome.blockCount === 0
        ? {
            kind: 'error',
            failure: {
              message: `model "${model}" returned a completed response with no content`,
              code: 'EMPTY_RESPONSE',
            },
          }
        : { kind: 'stop' }
    case 'length':
      return { kind: 'max-tokens' }
    case 'toolUse':
      return { kind: 'tool-calls' }
    case 'aborted':
      return {
        kind: 'aborted',
        failure: { message: errorMessage ?? 'pi-ai stream aborted', code: 'ABORTED' },
      }
    case 'error': {
      const text = errorMessage ?? 'pi-ai stream error'
      return { kind: 'error', failure: { message: text, code: piAiFailureCode(text) } }
    }
  }
}

/**
 * An HTTP error response on the pi-ai route: the Anthropic SDK throws with the message `<status> <detail>`, where
 * detail is the body's top-level `message` when it is JSON with one, else the JSON body re-serialised, else the raw
 * text (`<status> status code (no body)` when empty); pi-ai passes that message on and the route classifies it
 * like any other (a 529 → SERVER, a 413 `request_too_large` → CONTEXT_WINDOW_EXCEEDED).
 *
 * @example
 * piAiHttpFinish(429, '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}')
 * // error RATE_LIMIT, message '429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'
 */
export function piAiHttpFinish(status: number, body: string): FinishReason {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    json = undefined
  }
  const text = json ? undefined : body
  const topMessage = json ? (json as Record<string, unknown>)['message'] : undefined
  const detail = topMessage
    ? typeof topMessage === 'string'
      ? topMessage
      : JSON.stringify(topMessage)
    : json
      ? JSON.stringify(json)
      : text
  const message =
    status && detail ? `${status} ${detail}` : status ? `${status} status code (no body)` : (detail ?? '')
  return piAiFinish({ stopReason: 'error', errorMessage: message, model: '', blockCount: 0 })
}
