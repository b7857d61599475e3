import { parseJsonWithRepair } from './piAiJson'
import { emptyScan, type SseScan } from './sseEvents'

/** One event as pi-ai's Anthropic reader cuts it. */
export type PiAiSseEvent = {
  readonly data: string
  /** The `event:` field, '' when absent (pi-ai treats absent and empty alike: neither names a message event). */
  readonly event: string
  /** The raw lines pi-ai keeps for its parse-error message (comments since the last event included). */
  readonly raw: readonly string[]
  readonly start: number
  readonly end: number
  /** 1-based line of the event's first line. */
  readonly line: number
}

/**
 * An Anthropic body cut into events the way pi-ai 0.82.1 reads it (it has its own reader, not
 * `eventsource-parser`; docs/protocol.md §9, "The harness's pi-ai route"): lines end at LF, CRLF or a lone CR; a blank
 * line dispatches when the event has an `event:` name or a `data:` line; at the end of the body the last line is
 * read even without a line break and a pending event is dispatched — so, unlike EventSource, a capture whose
 * final blank line was trimmed loses nothing.
 */
export function scanPiAiSse(
  text: string,
  onEvent: (event: PiAiSseEvent) => void,
  from = 0,
  firstLine = 1,
): SseScan {
  // pi-ai reads a last line without a line break, so nothing is ever torn here.
  const scan: SseScan = emptyScan()
  let pos = from === 0 && text.charCodeAt(0) === 0xfeff ? 1 : from
  let lineNo = firstLine - 1
  let name: string | null = null
  let data: string[] = []
  let raw: string[] = []
  let start = -1
  let startLine = 0
  let end = -1
  const flush = () => {
    // pi-ai keeps its raw lines until an event is dispatched, comments before it included.
    if (!name && data.length === 0) return
    onEvent({ data: data.join('\n'), event: name ?? '', raw, start, end, line: startLine })
    name = null
    data = []
    raw = []
    start = -1
  }
  const read = (lineStart: number, lineEnd: number) => {
    lineNo += 1
    if (lineEnd === lineStart) return flush()
    const line = text.slice(lineStart, lineEnd)
    raw.push(line)
    if (line.startsWith(':')) {
      scan.comments += 1
      return
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event' || field === 'data') {
      if (start === -1) {
        start = lineStart
        startLine = lineNo
      }
      end = lineEnd
      if (field === 'event') name = value
      else data.push(value)
    } else if (field !== 'id' && field !== 'retry') {
      scan.strangeCount += 1
      if (scan.strange.length < 20) scan.strange.push({ line: lineNo, text: line })
    }
  }
  // The next CR and LF are looked up again only once passed: a body without one of them stays linear.
  let cr = text.indexOf('\r', pos)
  let lf = text.indexOf('\n', pos)
  while (pos < text.length) {
    if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos)
    if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos)
    const lineEnd = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf)
    if (lineEnd === -1) {
      read(pos, text.length)
      pos = text.length
      break
    }
    read(pos, lineEnd)
    pos = lineEnd + (text[lineEnd] === '\r' && text[lineEnd + 1] === '\n' ? 2 : 1)
  }
  if (name || data.length > 0) scan.unterminatedLast = { line: startLine }
  flush()
  return scan
}

export function modelOf(event: unknown): string | null {
  const message =
    typeof event === 'object' && event !== null ? (event as Record<string, unknown>)['message'] : null
  const model =
    typeof message === 'object' && message !== null ? (message as Record<string, unknown>)['model'] : null
  return typeof model === 'string' && model !== '' ? model : null
}

/**
 * The model id the route would name: the body's first `message_start.message.model` (the harness names its
 * configured route model, which a body does not carry; the wire's model is the closest), else `unknown`.
 */
export function piAiModelOf(body: string): string {
  let model: string | null = null
  let seen = false
  scanPiAiSse(body, (event) => {
    if (seen || event.event !== 'message_start') return
    seen = true
    try {
      model = modelOf(parseJsonWithRepair(event.data))
    } catch {
      model = null
    }
  })
  return model ?? 'unknown'
}
