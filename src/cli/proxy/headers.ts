// Which headers the proxy passes on, each way (RFC 9110 §7.6.1), and in which shape.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http'
import type { Transform } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/** RFC 9110 §7.6.1 connection-specific headers, never forwarded (plus those the Connection header names). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** The request headers to send upstream: all but hop-by-hop ones and Host (set from the upstream URL). */
export function forwardHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = String(headers['connection'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean)
  const out: OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'host' || HOP_BY_HOP.has(name) || named.includes(name)) continue
    out[name] = value
  }
  return out
}

/** The request's headers for the upstream; a loopback page's `Origin` and `Referer` stay here (not a browser call). */
export function upstreamHeaders(headers: IncomingHttpHeaders, fromPage: boolean): OutgoingHttpHeaders {
  const out = forwardHeaders(headers)
  if (fromPage) {
    delete out['origin']
    delete out['referer']
  }
  return out
}

export function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out = forwardHeaders(headers)
  delete out['content-length'] // the body is re-framed (chunked) as it streams
  return out
}

/** Header values as single strings, for httpFailure. */
export function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

/** The decoder for a response's Content-Encoding (for the capture only; the client gets the bytes as sent). */
export function decompressor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip()
    case 'deflate':
      return createInflate()
    case 'br':
      return createBrotliDecompress()
    default:
      return null
  }
}
