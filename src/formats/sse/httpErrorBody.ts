import { preview } from '../json'
import type { ReadResult } from '../types'

/** Bodies larger than this are no error body: the sniffer parses the whole text, so it stays cheap. */
const MAX_CHARS = 64 * 1024
/** Keys a flat `{"message": …}` error body carries (API gateways, proxies, frameworks' default handlers). */
const FLAT_KEYS: ReadonlySet<string> = new Set([
  'message',
  'code',
  'status',
  'statusCode',
  'detail',
  'type',
  'request_id',
  'requestId',
  'timestamp',
  'path',
  'success',
])

type ErrorBody =
  | { readonly kind: 'anthropic' | 'openai' | 'flat'; readonly message: string; readonly type: string }
  | { readonly kind: 'html'; readonly message: string; readonly type: string }

function stripped(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).trim()
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)
}

/** What kind of error body `text` is, or null when it is none. */
function errorBody(text: string): ErrorBody | null {
  if (text.length > MAX_CHARS) return null
  const body = stripped(text)
  if (/^<(?:!doctype\s+html|html)\b/i.test(body)) {
    const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1]?.trim() ?? ''
    return { kind: 'html', message: title, type: '' }
  }
  if (!body.startsWith('{')) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const record = parsed as Record<string, unknown>
  const { type, error } = record
  // The seed tutorial's simplified `{type:'error', error, recoverable}` is a chunk of its stream (docs/protocol.md §12).
  if (Object.hasOwn(record, 'recoverable') || (type !== undefined && type !== 'error')) return null
  if (typeof error === 'object' && error !== null && !Array.isArray(error)) {
    const inner = error as Record<string, unknown>
    return {
      kind: type === 'error' ? 'anthropic' : 'openai',
      message: asString(inner['message']),
      type: asString(inner['type'] ?? inner['code'] ?? inner['status']),
    }
  }
  if (typeof error === 'string') return { kind: 'flat', message: error, type: '' }
  if (typeof record['message'] === 'string' && Object.keys(record).every((key) => FLAT_KEYS.has(key)))
    return { kind: 'flat', message: record['message'], type: asString(record['code'] ?? record['type']) }
  return null
}

/**
 * A failed response's body saved without its status line and headers: a JSON error object (Anthropic's
 * `{"type":"error","error":{…}}`, OpenAI's `{"error":{…}}`, a flat `{"error":"…"}` or `{"message":…}`) or an HTML
 * error page. The harness's failure for it depends on the status, the headers and the route (docs/protocol.md §9,
 * "HTTP errors"), which the file does not hold, so it is recognised and refused with what it does say.
 */
export function sniffHttpErrorBody(text: string): boolean {
  return errorBody(text) !== null
}

const SHAPES = {
  anthropic: "Anthropic's error shape, which pi-ai's Anthropic route reads",
  openai: 'an OpenAI-style error object, which the DeepSeek adapter and any OpenAI-compatible route read',
  flat: 'a flat error object, which names no provider',
  html: 'an HTML page, a gateway or proxy error page most likely, which names no provider',
} as const

/**
 * The refusal: what the body says, and what only the status line and headers would tell.
 *
 * @example
 * readHttpErrorBody('{"error":{"message":"Rate limit reached","type":"requests"}}').diagnostics[0].message
 * // 'line 1: an HTTP error body without its status line and headers (an OpenAI-style error object, …): …'
 */
export function readHttpErrorBody(text: string): ReadResult {
  const body = errorBody(text)
  if (body === null) return { sessions: [], diagnostics: [] }
  const said = [
    body.type !== '' ? `type ${preview(body.type)}` : '',
    body.message !== '' ? `${body.kind === 'html' ? 'title' : 'message'} ${preview(body.message)}` : '',
  ]
    .filter(Boolean)
    .join(', ')
  const message =
    `line 1: an HTTP error body without its status line and headers (${SHAPES[body.kind]}${said === '' ? '' : `; ${said}`}). ` +
    "The harness's failure code depends on the status (401/403 → AUTH, 429 → RATE_LIMIT, 5xx → SERVER, …), its " +
    'retry delay and request id on the headers, and its route on the endpoint, none of which this file holds, so no ' +
    'stream is shown: save the whole response (curl -i, or a HAR from the browser) to see what the harness raises'
  return { sessions: [], diagnostics: [{ line: 1, severity: 'error', message }] }
}
