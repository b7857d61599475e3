import type { LlmFailure } from '../../core/protocol'

/** Response headers by lower-cased name, or anything with a `get` (a fetch `Headers`). */
export type HeaderSource = Readonly<Record<string, string>> | { get(name: string): string | null }

function header(headers: HeaderSource | undefined, name: string): string | null {
  if (headers === undefined) return null
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name)
  const record = headers as Readonly<Record<string, string>>
  if (name in record) return record[name] ?? null
  for (const key of Object.keys(record)) if (key.toLowerCase() === name) return record[key] ?? null
  return null
}

/**
 * The harness's code for a failed HTTP response (PROTOCOL.md §9): 401/403 AUTH, 429 RATE_LIMIT, 400 mentioning
 * the context length CONTEXT_WINDOW_EXCEEDED, other 400 and 413 INVALID_REQUEST, ≥500 SERVER, else HTTP_<status>.
 */
export function httpFailureCode(status: number, body = ''): string {
  if (status === 401 || status === 403) return 'AUTH'
  if (status === 429) return 'RATE_LIMIT'
  if (status === 400 && mentionsContextLength(body)) return 'CONTEXT_WINDOW_EXCEEDED'
  if (status === 400 || status === 413) return 'INVALID_REQUEST'
  if (status >= 500) return 'SERVER'
  return `HTTP_${status}`
}

function mentionsContextLength(body: string): boolean {
  const lower = body.slice(0, 65536).toLowerCase()
  return (
    lower.includes('context length') ||
    lower.includes('context_length') ||
    lower.includes('context window') ||
    lower.includes('maximum context') ||
    lower.includes('prompt is too long')
  )
}

/**
 * `Retry-After` in ms: delay-seconds, or an HTTP date relative to `now`; `retry-after-ms` (OpenAI) wins when present.
 * Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms')
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(Number(ms))
  const value = header(headers, 'retry-after')
  if (value === null) return undefined
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The provider's own message in a JSON error body (`{error:{message}}`, `{message}`), else the body's start. */
function bodyMessage(body: string): string | null {
  const trimmed = body.trim()
  if (trimmed === '') return null
  try {
    const parsed = JSON.parse(trimmed) as unknown
    if (typeof parsed === 'object' && parsed !== null) {
      const error = (parsed as Record<string, unknown>)['error']
      const inner = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : null
      const message = inner?.['message'] ?? (parsed as Record<string, unknown>)['message'] ?? error
      if (typeof message === 'string') return message
    }
  } catch {
    // not JSON: use the text
  }
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed
}

/**
 * The LlmFailure the harness raises for a non-2xx response (§9): code by status, `status`, `Retry-After` →
 * providerRetryAfterMs, `x-request-id` → requestId. For live capture (issue 6) and captured error responses.
 *
 * @example
 * httpFailure(429, { 'retry-after': '2', 'x-request-id': 'req_1' }, '{"error":{"message":"slow down"}}')
 * // { message: 'HTTP 429: slow down', code: 'RATE_LIMIT', status: 429, providerRetryAfterMs: 2000, requestId: 'req_1' }
 */
export function httpFailure(status: number, headers?: HeaderSource, body = '', now = Date.now()): LlmFailure {
  const detail = bodyMessage(body)
  const retry = retryAfterMs(headers, now)
  const requestId = header(headers, 'x-request-id') ?? header(headers, 'request-id')
  return {
    message: `HTTP ${status}${detail !== null ? `: ${detail}` : ''}`,
    code: httpFailureCode(status, body),
    status,
    ...(retry !== undefined ? { providerRetryAfterMs: retry } : {}),
    ...(requestId !== null ? { requestId } : {}),
  }
}
