import type { FinishReason } from '../../core/protocol'
import { piAiFinish } from './piAiFailure'

const MAX_BODY_CHARS = 4000

/**
 * An HTTP error response on the pi-ai route's OpenAI Responses API (docs/protocol.md §9.2): the `openai` SDK throws
 * `<status> <detail>` (detail: the body's `error.message`, else its `error` re-serialised, else the raw text when
 * the body is no JSON; `<status> status code (no body)` when there is none), and pi-ai rewrites that as
 * `OpenAI API error (<status>): <the body's error object as JSON>` when there is one, else with the SDK's message.
 * The route then classifies the text like any other failure.
 *
 * @example
 * responsesHttpFinish(429, '{"error":{"message":"Rate limit reached","type":"requests"}}')
 * // error RATE_LIMIT, 'OpenAI API error (429): {"message":"Rate limit reached","type":"requests"}'
 */
export function responsesHttpFinish(status: number, text: string): FinishReason {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const error = json === undefined || json === null ? undefined : (json as Record<string, unknown>)['error']
  const raw = json ? undefined : text
  const inner =
    error === undefined || error === null ? undefined : (error as Record<string, unknown>)['message']
  const detail = inner
    ? typeof inner === 'string'
      ? inner
      : JSON.stringify(inner)
    : error
      ? JSON.stringify(error)
      : raw
  const message = status && detail ? `${status} ${detail}` : `${status} status code (no body)`
  let body: string | undefined
  if (typeof error === 'object' && error !== null && Object.keys(error).length > 0) {
    const trimmed = JSON.stringify(error).trim()
    if (trimmed.length > 0)
      body =
        trimmed.length <= MAX_BODY_CHARS
          ? trimmed
          : `${trimmed.slice(0, MAX_BODY_CHARS)}... [truncated ${trimmed.length - MAX_BODY_CHARS} chars]`
  }
  const shown = body === undefined || message.includes(body) ? message : body
  return piAiFinish({
    stopReason: 'error',
    errorMessage: `OpenAI API error (${status}): ${shown}`,
    model: '',
    blockCount: 0,
  })
}
