import type { SseDialect } from './readSse'

/** Which of the harness's routes a failed HTTP response went through, and what in the capture says so. */
export type HttpErrorRoute = {
  readonly dialect: SseDialect
  /** What names the route ("the body is Anthropic's error shape"); null when nothing does and it is assumed. */
  readonly evidence: string | null
}

// Google's `{"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED"}}`: a numeric code, an UPPER_SNAKE status.
const GOOGLE_ERROR = /^\s*\{\s*"error"\s*:\s*\{(?=[^]*"code"\s*:\s*\d)[^]*"status"\s*:\s*"([A-Z_]+)"/
const ANTHROPIC_ERROR = /"type"\s*:\s*"error"\s*,\s*"error"\s*:\s*\{/

/**
 * The route a non-2xx response was read by, from what the capture holds (docs/protocol.md §9, "HTTP errors"): the
 * request URL when recorded (`/v1/messages` → pi-ai's Anthropic route, `/responses` → its Responses route,
 * `:streamGenerateContent` → its Gemini route, `/chat/completions` → the DeepSeek adapter), else an Anthropic error
 * body (`{"type":"error","error":{…}}`) or an `anthropic-*` response header → the Anthropic route, and Google's
 * error body (`{"error":{"code":429,…,"status":"RESOURCE_EXHAUSTED"}}`) → the Gemini route. Anything else (an empty,
 * HTML, plain-text or OpenAI-shaped body, which any OpenAI-compatible gateway also sends) names no provider: the
 * DeepSeek adapter is assumed, and `evidence` is null so the reader says so.
 *
 * @example
 * httpErrorRoute({}, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')
 * // { dialect: 'anthropic-sse', evidence: "the body is Anthropic's error shape" }
 * httpErrorRoute({}, '') // { dialect: 'openai-sse', evidence: null }
 */
export function httpErrorRoute(
  headers: Readonly<Record<string, string>>,
  body: string,
  url?: string,
): HttpErrorRoute {
  if (url !== undefined) {
    const path = url.replace(/[?#].*$/, '')
    if (/\/messages\/?$/.test(path))
      return { dialect: 'anthropic-sse', evidence: `the request went to ${path}` }
    if (/\/responses\/?$/.test(path))
      return { dialect: 'openai-responses-sse', evidence: `the request went to ${path}` }
    if (/:(?:stream)?generateContent$/i.test(path))
      return { dialect: 'gemini-sse', evidence: `the request went to ${path}` }
    if (/\/chat\/completions\/?$/.test(path))
      return { dialect: 'openai-sse', evidence: `the request went to ${path}` }
  }
  if (ANTHROPIC_ERROR.test(body.replace(/^\uFEFF/, '').slice(0, 4096)))
    return { dialect: 'anthropic-sse', evidence: "the body is Anthropic's error shape" }
  const google = GOOGLE_ERROR.exec(body.replace(/^\uFEFF/, '').slice(0, 4096))
  if (google !== null)
    return { dialect: 'gemini-sse', evidence: `the body is Google's error shape (status ${google[1]})` }
  const anthropicHeader = Object.keys(headers).find((name) => name.toLowerCase().startsWith('anthropic-'))
  if (anthropicHeader !== undefined)
    return {
      dialect: 'anthropic-sse',
      evidence: `the response has an ${anthropicHeader.toLowerCase()} header`,
    }
  return { dialect: 'openai-sse', evidence: null }
}

/** The route's name in messages. */
export function routeName(dialect: SseDialect): string {
  switch (dialect) {
    case 'openai-sse':
      return 'the DeepSeek adapter (OpenAI-compatible Chat Completions)'
    case 'anthropic-sse':
      return "pi-ai's Anthropic Messages route"
    case 'openai-responses-sse':
      return "pi-ai's OpenAI Responses route"
    case 'gemini-sse':
      return "pi-ai's Google Gemini route"
  }
}
