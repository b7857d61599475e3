// Credentials a request carried, kept out of everything the proxy writes or publishes (a hostile or careless
// upstream may echo the key back in a 401 body, a stream, an error message).
import type { IncomingHttpHeaders } from 'node:http'

/** Header names whose value is a credential (the whole value, or what follows the auth scheme). */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key']

/** Query parameters whose value is a credential (`?key=…`, Google's; `?api_key=…`, several providers'). */
const SECRET_PARAMS = /^(key|api[-_]?key|apikey|access[-_]?token|token|auth|secret|password)$/i

/** Shorter values are not hidden: replacing every `ab` in a log would wreck it, and no real key is that short. */
export const MIN_SECRET_LENGTH = 4

export const REDACTED = '[redacted]'

/**
 * The credentials one request carries: the values of Authorization (and the token after its scheme: `Bearer sk-…`
 * → `sk-…`), x-api-key, api-key and friends, and of query parameters such as `key=` and `api_key=`.
 *
 * @example
 * credentialsOf({ authorization: 'Bearer sk-1234' }, '/v1/chat?key=abcd') // ['Bearer sk-1234', 'sk-1234', 'abcd']
 */
export function credentialsOf(headers: IncomingHttpHeaders, path: string): string[] {
  const found: string[] = []
  for (const name of SECRET_HEADERS) {
    const value = headers[name]
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      found.push(one.trim())
      const token = /^[A-Za-z][\w-]*\s+(.+)$/.exec(one.trim())?.[1]
      if (token !== undefined) {
        found.push(token.trim())
        // Basic credentials are base64 of `user:password`: the password alone is a secret too.
        if (/^basic$/i.test(one.trim().split(/\s/)[0]!)) {
          const decoded = Buffer.from(token.trim(), 'base64').toString('utf8')
          found.push(decoded, decoded.slice(decoded.indexOf(':') + 1))
        }
      }
    }
  }
  const query = path.indexOf('?')
  if (query !== -1)
    for (const [name, value] of new URLSearchParams(path.slice(query + 1)))
      if (SECRET_PARAMS.test(name)) found.push(value)
  return found
}

/** Replaces every credential seen, in each of the spellings it can take in a log line, by `[redacted]`. */
export class Redactor {
  private readonly forms: string[]

  constructor(secrets: readonly string[]) {
    const forms = new Set<string>()
    for (const secret of secrets) {
      if (secret.length < MIN_SECRET_LENGTH) continue
      forms.add(secret)
      forms.add(JSON.stringify(secret).slice(1, -1)) // inside a JSON string
      forms.add(encodeURIComponent(secret)) // inside a URL
      forms.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1)) // JSON inside JSON (error bodies)
    }
    // Longest first, so a token inside `Bearer <token>` does not leave `Bearer ` with half a replacement.
    this.forms = [...forms].sort((a, b) => b.length - a.length)
  }

  get isEmpty(): boolean {
    return this.forms.length === 0
  }

  text(text: string): string {
    let out = text
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(REDACTED)
    return out
  }

  /**
   * `JSON.stringify(value)`, redacted, in one pass over the text (a capture's last record can hold a whole long
   * answer: no second copy of it); the strings are walked instead when a credential's raw spelling spans JSON syntax.
   */
  json(value: unknown): string {
    const json = JSON.stringify(value)
    if (this.isEmpty) return json
    const redacted = this.text(json)
    if (redacted === json) return json
    try {
      JSON.parse(redacted)
      return redacted
    } catch {
      return JSON.stringify(this.walk(value))
    }
  }

  /** A JSON value with every string (keys included) redacted; the same object when nothing needed it. */
  value<T>(value: T): T {
    if (this.isEmpty) return value
    const json = JSON.stringify(value)
    if (json === undefined) return value
    return this.text(json) === json ? value : (this.walk(value) as T)
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (Array.isArray(value)) return value.map((item) => this.walk(item))
    if (typeof value !== 'object' || value === null) return value
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[this.text(key)] = this.walk(item)
    return out
  }
}
