import { sniffForeignFormat } from './foreign'
import { httpErrorRoute } from './httpRoute'
import { readHttpHead } from './sseEvents'
import type { SseDialect } from './readSse'

const PEEK_LINES = 30
const PEEK_CHARS = 1 << 16
/** Keep-alive comments (`: OPENROUTER PROCESSING`) are skipped without counting, up to this many characters. */
const PEEK_COMMENT_CHARS = 1 << 20
const ANTHROPIC_EVENTS: ReadonlySet<string> = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
])
// A field name alone on its line (`data`, no colon) is that field with an empty value (the SSE spec; both SSE
// readers, eventsource-parser and pi-ai's, read it so): a bare `data` is an event whose data is ''.
const FIELD = /^(data|event|id|retry)(?::|$)/

/**
 * Which SSE dialect a text holds, from its first lines only; null when it is no SSE body. Accepts an HTTP head
 * first (`curl -i`); a head with status ≥ 400 counts as a (failed) stream of the route the capture names
 * (`httpErrorRoute`). Anthropic when an `event:` name or a
 * data payload's `type` is one of the Messages stream's events (an `error` only with Anthropic's nested `error`
 * object: the Responses API has a flat one), else OpenAI-compatible. Comments do not count toward the lines looked
 * at, so a body that opens with keep-alives is still recognised. A stream in a format Chunkscope does not read
 * (`sniffForeignFormat`) is none of these, unless a pi-ai dialect reads it (OpenAI Responses).
 */
export function sniffSseDialect(text: string): SseDialect | null {
  const foreign = sniffForeignFormat(text)
  if (foreign !== null) return foreign.readAs ?? null
  const head = readHttpHead(text.slice(0, PEEK_CHARS))
  let from = 0
  if (head !== null) {
    from = head.bodyStart
    if (head.status >= 400) return httpErrorRoute(head.headers, text.slice(from, from + 4096)).dialect
  }
  let seen = 0
  let data = 0
  let anthropic = false
  let pos = from
  let commentChars = 0
  while (pos < text.length && seen < PEEK_LINES && pos - from - commentChars < PEEK_CHARS) {
    // Lines end at LF, CRLF or a lone CR (both SSE readers accept all three).
    const match = /\r\n?|\n/g
    match.lastIndex = pos
    const found = match.exec(text)
    const end = found === null ? text.length : found.index
    const next = found === null ? text.length : end + found[0].length
    const line = text.slice(pos, Math.min(end, pos + 4096))
    const content = seen === 0 ? line.replace(/^\uFEFF/, '') : line
    if (content.startsWith(':')) {
      commentChars += next - pos
      pos = next
      if (commentChars > PEEK_COMMENT_CHARS) break
      continue
    }
    pos = next
    if (content.trim() === '') continue
    seen += 1
    // ` data: {…}` (a recorded OpenRouter body opens so) names the field " data", which SSE parsers skip: no
    // evidence either way, but not a reason to call the body something else.
    if (!FIELD.test(content)) {
      if (FIELD.test(content.trimStart())) continue
      return null
    }
    if (content.startsWith('event:')) {
      if (ANTHROPIC_EVENTS.has(content.slice(6).trim())) anthropic = true
    } else if (content.startsWith('data')) {
      data += 1
      const payload = content.slice(5)
      if (
        /^\s*\{\s*"type"\s*:\s*"(message_start|content_block_|message_delta|message_stop|error"\s*,\s*"error"\s*:\s*\{)/.test(
          payload,
        )
      )
        anthropic = true
    }
  }
  if (data === 0 && !anthropic) return null
  return anthropic ? 'anthropic-sse' : 'openai-sse'
}

/**
 * How many comment lines an SSE body holds when it holds nothing else (blank lines aside; after an HTTP head, if
 * any), with the first; null when it holds anything else or no comment. Such a body has no event to tell a dialect
 * by (docs/protocol.md §9, "Framing").
 *
 * @example
 * sseCommentsOnly(': ping\n\n: keep-alive\n\n') // { count: 2, first: ': ping', line: 1 }
 */
export function sseCommentsOnly(text: string): { count: number; first: string; line: number } | null {
  const head = readHttpHead(text.slice(0, PEEK_CHARS))
  const lines = text
    .slice(head?.bodyStart ?? 0)
    .replace(/^\uFEFF/, '')
    .split(/\r\n?|\n/)
  let count = 0
  let first = ''
  let line = 0
  for (const [index, content] of lines.entries()) {
    if (content.trim() === '') continue
    if (!content.startsWith(':')) return null
    if (count === 0) {
      first = content
      line = index + (head?.bodyLine ?? 1)
    }
    count += 1
  }
  return count === 0 ? null : { count, first, line }
}
