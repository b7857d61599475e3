// Who may talk to Chunkscope's loopback servers (the capture proxy, the attach relay's feed): the user's own tools
// and pages, not a web page that rebinds its DNS name to 127.0.0.1 or posts cross-site to a local port.
import type { IncomingMessage, ServerResponse } from 'node:http'

export type GuardOptions = {
  /** The address the server is bound to (`127.0.0.1` by default; a Host naming it is accepted too). */
  readonly host: string
  /** The port it listens on: a Host header must name it. */
  readonly port: number
  /** Page origins allowed besides loopback ones, exactly as a browser sends them (`https://chunkscope.example`). */
  readonly allowedOrigins?: readonly string[]
}

export type GuardVerdict =
  /** `origin`: the page's origin when a browser page sent the request (CORS is answered for it), else null. */
  { readonly ok: true; readonly origin: string | null } | { readonly ok: false; readonly reason: string }

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `[::1]` for `::1`, names and IPv4 addresses as they are (lower case), as a Host header or URL spells them. */
function hostName(address: string): string {
  const lower = address.toLowerCase()
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower
}

/** Whether `origin` is a page served from this machine (`http://127.0.0.1:5173`, `http://localhost:4173`, …). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname)
  } catch {
    return false
  }
}

/**
 * An origin as given on the command line, normalised the way a browser sends it (`https://App.example/` →
 * `https://app.example`); an error message for what is not an http(s) origin.
 */
export function parseAllowedOrigin(text: string): { origin: string } | { error: string } {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return { error: `--allow-origin ${text}: not a URL (give an origin such as https://chunkscope.example)` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `--allow-origin ${text}: must be an http(s) origin` }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '')
    return { error: `--allow-origin ${text}: an origin has no path, query or credentials` }
  return { origin: url.origin }
}

/**
 * Checks a request's `Host` and `Origin` (DNS rebinding, cross-site requests). `Host` must be a loopback name
 * (`localhost`, `127.0.0.1`, `[::1]`) or the bound address, with the bound port. `Origin` must be absent (a
 * program, not a page: the harness, an SDK, curl), a loopback page, or one of `allowedOrigins`; `Origin: null`
 * (a sandboxed frame, a file page) is refused.
 *
 * @example
 * const check = requestGuard({ host: '127.0.0.1', port: 8787 })
 * check(req) // { ok: false, reason: 'Host "attacker.example:8787" is not this server …' }
 */
export function requestGuard(options: GuardOptions): (req: IncomingMessage) => GuardVerdict {
  const names = new Set([...LOOPBACK_NAMES, hostName(options.host)])
  const allowed = new Set(options.allowedOrigins ?? [])
  const port = String(options.port)
  return (req) => {
    const host = req.headers.host
    if (host === undefined || host === '') return { ok: false, reason: 'the request has no Host header' }
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.toLowerCase())
    if (match === null || !names.has(match[1]!) || (match[2] ?? '80') !== port)
      return {
        ok: false,
        reason:
          `Host ${JSON.stringify(host)} is not this server (expected 127.0.0.1:${port}, localhost:${port} or ` +
          `[::1]:${port}): a page whose name points at this machine may not read it`,
      }
    const origin = req.headers.origin
    if (origin === undefined) return { ok: true, origin: null }
    if (allowed.has(origin) || (origin !== 'null' && isLoopbackOrigin(origin))) return { ok: true, origin }
    return {
      ok: false,
      reason:
        `Origin ${JSON.stringify(origin)} is not allowed: only pages on this machine (http://localhost:*, ` +
        `http://127.0.0.1:*) and origins given with --allow-origin may call this server`,
    }
  }
}

/** The 403 for a refused request: JSON `{error:{message, code:'FORBIDDEN'}}`, no CORS (the page cannot read it). */
export function refuse(req: IncomingMessage, res: ServerResponse, reason: string): void {
  req.resume()
  res
    .writeHead(403, {
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    })
    .end(JSON.stringify({ error: { message: `chunkscope: forbidden: ${reason}`, code: 'FORBIDDEN' } }))
}
