import type { FinishReason } from '../../core/protocol'
import { piAiFinish } from './piAiFailure'

/**
 * An HTTP error response on the pi-ai route's Google Gemini API (docs/protocol.md §9.3): the `@google/genai` SDK
 * (its `throwErrorIfNotOK`) reads a body whose content type says JSON with `response.json()` and throws its
 * re-serialisation (`JSON.stringify` of the parsed body), or — the body being no JSON — the parser's own error
 * (V8's wording, as the harness runs on Node); any other content type becomes `{"error":{"message":<text>,"code":
 * <status>,"status":<status text>}}`, serialised. pi-ai passes the message on unchanged (its error carries no
 * separate body) and the route classifies it like any other failure.
 *
 * @example
 * geminiHttpFinish(429, 'Too Many Requests', 'application/json', '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}')
 * // error RATE_LIMIT, '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}'
 */
export function geminiHttpFinish(
  status: number,
  statusText: string,
  contentType: string | undefined,
  body: string,
): FinishReason {
  let message: string
  if (contentType?.includes('application/json')) {
    try {
      // `response.json()` decodes as UTF-8, which drops a leading BOM.
      message = JSON.stringify(JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body))
    } catch (error) {
      message = error instanceof Error ? error.message : String(error)
    }
  } else message = JSON.stringify({ error: { message: body, code: status, status: statusText } })
  return piAiFinish({ stopReason: 'error', errorMessage: message, model: '', blockCount: 0 })
}
