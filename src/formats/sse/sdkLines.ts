import { emptyScan, type SseScan } from './sseEvents'

/** One event as an SDK's own SSE reader cuts it (pi-ai's Anthropic reader, the `openai` SDK's). */
export type PiAiSseEvent = {
  readonly data: string
  /** The `event:` field, '' when absent (both readers treat absent and empty alike: neither names an event). */
  readonly event: string
  /** The raw lines the reader keeps for its parse-error message (comments since the last event included). */
  readonly raw: readonly string[]
  readonly start: number
  readonly end: number
  /** 1-based line of the event's first line. */
  readonly line: number
}

/**
 * Where the SDK readers differ (docs/protocol.md §9, "The harness's pi-ai route"); everything else — lines end at
 * LF, CRLF or a lone CR, a blank line dispatches an event that has an `event:` name or a `data:` line, the last
 * line is read even without a line break, comments, `id:` and `retry:` carry nothing — they share.
 */
export type SdkReaderRules = {
  /** A byte-order mark dropped only at the start of the body (pi-ai), or at the start of any line (the SDK decodes line by line). */
  readonly bom: 'body' | 'line'
  /** The event's span starts at its first `event:`/`data:` line (pi-ai), or at its first field of any kind. */
  readonly spanFrom: 'event-or-data' | 'any-field'
  /** At the body's end a pending event is dispatched (pi-ai), or held and reported as `undispatched`. */
  readonly atEnd: 'dispatch' | 'hold'
}

/** A body cut into events by one SDK's rules; `onEvent` gets each dispatched event, the scan what was odd. */
export function scanSdkLines(
  text: string,
  onEvent: (event: PiAiSseEvent) => void,
  rules: SdkReaderRules,
  from = 0,
  firstLine = 1,
): SseScan {
  const scan: SseScan = emptyScan()
  let pos = rules.bom === 'body' && from === 0 && text.charCodeAt(0) === 0xfeff ? 1 : from
  let lineNo = firstLine - 1
  let name: string | null = null
  let data: string[] = []
  let raw: string[] = []
  let start = -1
  let startLine = 0
  let end = -1
  const flush = () => {
    // The raw lines are kept until an event is dispatched, comments before it included.
    if (!name && data.length === 0) return
    onEvent({ data: data.join('\n'), event: name ?? '', raw, start, end, line: startLine })
    name = null
    data = []
    raw = []
    start = -1
  }
  const read = (lineStart: number, lineEnd: number) => {
    lineNo += 1
    let line = text.slice(lineStart, lineEnd)
    if (rules.bom === 'line' && line.charCodeAt(0) === 0xfeff) line = line.slice(1)
    if (line === '') return flush()
    raw.push(line)
    if (line.startsWith(':')) {
      scan.comments += 1
      return
    }
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    const named = field === 'event' || field === 'data'
    if (named || rules.spanFrom === 'any-field') {
      if (start === -1) {
        start = lineStart
        startLine = lineNo
      }
      end = lineEnd
    }
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
    else if (field !== 'id' && field !== 'retry') {
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
      break
    }
    read(pos, lineEnd)
    pos = lineEnd + (text[lineEnd] === '\r' && text[lineEnd + 1] === '\n' ? 2 : 1)
  }
  if (name || data.length > 0) {
    scan.unterminatedLast = { line: startLine }
    if (rules.atEnd === 'dispatch') flush()
    else scan.undispatched = { start, end, line: startLine }
  }
  return scan
}
