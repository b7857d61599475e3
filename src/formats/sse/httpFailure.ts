import type { LlmFailure } from '../../core/protocol'

/** Response headers by lower-cased name, or anything with a `get` (a fetch `Headers`). */
export type HeaderSource = Readonly<Record<string, string>> | { get(name: string): string | null }

/** A header as fetch's `Headers.get` gives it: leading and trailing HTTP whitespace stripped; null when absent. */
function header(headers: HeaderSource | undefined, name: string): string | null {
  if (headers === undefined) return null
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name)
  const record = headers as Readonly<Record<string, string>>
  let value: string | undefined = Object.hasOwn(record, name) ? record[name] : undefined
  if (value === undefined) {
    for (const key of Object.keys(record)) if (key.toLowerCase() === name) value = record[key]
  }
  return value === undefined ? null : value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
}

/**
 * Adds one header line to a lower-cased record as fetch's `Headers` combines it: each value stripped of HTTP
 * whitespace, and a repeated name's values joined with `, ` in their order (so two `x-request-id` lines read as
 * `a, b` in the harness, and two `Retry-After: 2` lines as `2, 2`, which is no number of seconds).
 */
export function appendHeader(record: Record<string, string>, name: string, value: string): void {
  const key = name.toLowerCase()
  const stripped = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
  record[key] = Object.hasOwn(record, key) ? `${record[key]}, ${stripped}` : stripped
}

// The harness's classifiers (its llm package, `error.ts`), as docs/protocol.md §9 "Exact details" states them: quota
// wording wins on any status; context-window wording only on a 400, over the error's code, type and message.
const QUOTA: readonly RegExp[] = [
  /\binsufficient[\s_-]+(?:quota|balance|credits?)\b/i,
  /\b(?:quota|usage[\s_-]+limit)[\s_-]+(?:exceeded|exhausted|reached)\b/i,
  /\bexceed(?:ed|s)?[\s_-]+(?:(?:your|the)[\s_-]+)?(?:current[\s_-]+)?quota\b/i,
  /\b(?:balance|credits?)[\s_-]+(?:exhausted|depleted)\b/i,
  /\bout[\s_-]+of[\s_-]+(?:credits?|budget)\b/i,
]
const CONTEXT_WINDOW: readonly RegExp[] = [
  /(?:^|[^a-z0-9])context[\s_-](?:length|window)[\s_-](?:exceed(?:ed|s)?|overflow(?:ed)?|limit[\s_-]exceeded)(?:$|[^a-z0-9])/i,
  /\b(?:maximum|max)(?:\s+(?:allowed|supported))?\s+context\s+(?:length|window)\b/i,
  /\b(?:request|prompt|input|messages?)\s+(?:is\s+|are\s+)?too\s+(?:large|long)\s+for\s+(?:(?:this|the)\s+)?(?:model(?:'s)?\s+)?context(?:\s+window)?\b/i,
  /\b(?:input|prompt|request)\s+(?:is\s+)?too\s+(?:long|large)\s+for\s+(?:this|the)\s+model\b/i,
  /\b(?:input|prompt|request|messages?)\b.{0,40}\b(?:exceed(?:s|ed)?|overflows?|is\s+larger\s+than)\b.{0,40}\b(?:the\s+)?(?:model(?:'s)?\s+)?context(?:\s+(?:length|window))?\b/i,
]

/** The provider's `error` object of a JSON error body (`{error: {code, type, message}}`), as the adapter reads it. */
type ProviderError = { readonly found: boolean; readonly error: unknown }

function providerError(body: string): ProviderError {
  try {
    // `response.json()`: the body decoded (a BOM dropped) and parsed; `parsed.error` throws on null, caught too.
    const parsed: unknown = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body)
    if (parsed === null) return { found: false, error: undefined }
    return { found: true, error: (parsed as Record<string, unknown>)['error'] }
  } catch {
    return { found: false, error: undefined }
  }
}

function field(error: unknown, key: string): unknown {
  return error === null || error === undefined ? undefined : (error as Record<string, unknown>)[key]
}

/**
 * The harness's code for a failed HTTP response (its adapter's `httpErrorCode`, docs/protocol.md §9): 401/403 AUTH,
 * 413 INVALID_REQUEST, quota wording in the error's code / type / message QUOTA on any other status, 429
 * RATE_LIMIT, 400 with context-window wording CONTEXT_WINDOW_EXCEEDED else INVALID_REQUEST, ≥500 SERVER, else
 * HTTP_<status>.
 */
export function httpFailureCode(status: number, body = ''): string {
  return codeFor(status, providerError(body).error) ?? 'TRANSPORT'
}

/**
 * The code, or undefined where the harness's `httpErrorCode` throws: joining a code, type or message that is an
 * object with its own `toString` key (JSON can write one) raises a TypeError, which its adapter reports as TRANSPORT
 * (docs/protocol.md §9 "Exact details").
 */
function codeFor(status: number, error: unknown): string | undefined {
  try {
    return classify(status, error)
  } catch {
    return undefined
  }
}

function classify(status: number, error: unknown): string {
  if (status === 401 || status === 403) return 'AUTH'
  if (status === 413) return 'INVALID_REQUEST'
  const detail = [field(error, 'code'), field(error, 'type'), field(error, 'message')]
    .filter(Boolean)
    .join(' ')
  if (QUOTA.some((pattern) => pattern.test(detail))) return 'QUOTA'
  if (status === 429) return 'RATE_LIMIT'
  if (status === 400)
    return CONTEXT_WINDOW.some((pattern) => pattern.test(detail))
      ? 'CONTEXT_WINDOW_EXCEEDED'
      : 'INVALID_REQUEST'
  if (status >= 500) return 'SERVER'
  return `HTTP_${status}`
}

/**
 * `Retry-After` in ms as the harness reads it: digits only → seconds, kept when positive and finite; anything else
 * a date (`Date.parse`) kept when in the future relative to `now`. `retry-after-ms` is not read.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  const value = header(headers, 'retry-after')
  if (value === null) return undefined
  const delay = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now
  return Number.isFinite(delay) && delay > 0 ? delay : undefined
}

/**
 * The LlmFailure the harness's DeepSeek adapter raises for a non-2xx response (§9): the provider's
 * `error.message`, else `DeepSeek API error (HTTP n)`; the code above; `status`; `Retry-After` →
 * providerRetryAfterMs; `x-request-id`, else `x-deepseek-request-id` → requestId (an empty value gives none). A
 * truthy `error.message` that is not a string makes the harness's error constructor throw, and an error field that
 * cannot become a string makes its code throw: its adapter reports both as TRANSPORT (`baseURL` names the endpoint
 * in that message).
 *
 * @example
 * httpFailure(429, { 'retry-after': '2', 'x-request-id': 'req_1' }, '{"error":{"message":"slow down"}}')
 * // { message: 'slow down', code: 'RATE_LIMIT', status: 429, providerRetryAfterMs: 2000, requestId: 'req_1' }
 */
export function httpFailure(
  status: number,
  headers?: HeaderSource,
  body = '',
  now = Date.now(),
  baseURL?: string,
): LlmFailure {
  const { error } = providerError(body)
  const message = field(error, 'message')
  const delay = retryAfterMs(headers, now)
  const id = header(headers, 'x-request-id') ?? header(headers, 'x-deepseek-request-id')
  const code = codeFor(status, error)
  const valid =
    (typeof message === 'string' || !message) && Number.isInteger(status) && status >= 100 && status <= 599
  if (!valid || code === undefined)
    return {
      message: `DeepSeek API stream from ${baseURL ?? '(base URL not recorded)'} failed`,
      code: 'TRANSPORT',
    }
  return {
    message: typeof message === 'string' && message !== '' ? message : `DeepSeek API error (HTTP ${status})`,
    code,
    status,
    ...(delay !== undefined ? { providerRetryAfterMs: delay } : {}),
    ...(id !== null && id.length > 0 ? { requestId: id } : {}),
  }
}
