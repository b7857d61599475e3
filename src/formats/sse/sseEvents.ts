/**
 * A `text/event-stream` body cut into events, per the WHATWG rules a browser's EventSource follows: fields
 * `data`, `event`, `id`, `retry`; lines starting with `:` are comments; one space after the colon is dropped;
 * several `data:` lines join with `\n`; a blank line dispatches. One pass with `indexOf`, no regex, no copy of the
 * whole text: a 100 MB body costs one slice per line.
 */

export type SseEvent = {
  /** The joined `data:` lines. */
  readonly data: string
  /** The `event:` field, '' when absent. */
  readonly event: string
  /** Offsets of the event's first line and of the end of its last line in the text. */
  readonly start: number
  readonly end: number
  /** 1-based line of the event's first field. */
  readonly line: number
}

export type SseScan = {
  /** Comment lines (`: keep-alive`, OpenRouter's `: OPENROUTER PROCESSING`). */
  comments: number
  /** Lines that are no field of the format (reported once each up to a cap). */
  strange: { line: number; text: string }[]
  strangeCount: number
  /** The last line had no line break: a capture cut mid-line. It is not read (its first 200 characters). */
  tornTail: { line: number; text: string } | null
  /** The last event ended at end of text without a blank line after it (normal for trimmed captures). */
  unterminatedLast: boolean
}

const MAX_STRANGE = 20

/**
 * Calls `onEvent` for each event of `text` from offset `from` (after an HTTP head, say), with 1-based line numbers
 * counted from `firstLine`. An event is dispatched at a blank line, and — more tolerant than EventSource, for
 * captures that lost their last blank line — at end of text (`unterminatedLast`). A torn final line (no `\n`) is
 * not read: `tornTail` says so.
 */
export function scanSse(text: string, onEvent: (event: SseEvent) => void, from = 0, firstLine = 1): SseScan {
  const scan: SseScan = { comments: 0, strange: [], strangeCount: 0, tornTail: null, unterminatedLast: false }
  let pos = from === 0 && text.charCodeAt(0) === 0xfeff ? 1 : from
  let lineNo = firstLine - 1
  let data: string | null = null
  let dataParts: string[] | null = null
  let eventName = ''
  let start = -1
  let end = -1
  let line = 0
  const dispatch = () => {
    if (start !== -1) {
      const joined = dataParts !== null ? dataParts.join('\n') : (data ?? '')
      // An event with no data field is not dispatched by EventSource; `event:`-only blocks carry nothing here.
      if (data !== null || dataParts !== null) onEvent({ data: joined, event: eventName, start, end, line })
    }
    data = null
    dataParts = null
    eventName = ''
    start = -1
  }
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos)
    const terminated = newline !== -1
    const lineEnd = terminated ? newline : text.length
    const stop = lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd
    lineNo += 1
    if (!terminated) {
      // A capture cut mid-line: an SSE parser never sees this line complete, so it is not read.
      if (stop > pos) scan.tornTail = { line: lineNo, text: text.slice(pos, Math.min(stop, pos + 200)) }
    } else if (stop === pos) {
      dispatch()
    } else if (text.charCodeAt(pos) === 58 /* : */) {
      scan.comments += 1
    } else {
      // The field name ends at the first colon of THIS line (never search past it: linear on lines without one).
      let nameEnd = pos
      while (nameEnd < stop && text.charCodeAt(nameEnd) !== 58) nameEnd += 1
      let valueStart = nameEnd === stop ? stop : nameEnd + 1
      if (valueStart < stop && text.charCodeAt(valueStart) === 32) valueStart += 1
      const length = nameEnd - pos
      const field =
        length === 4 && text.startsWith('data', pos)
          ? 1
          : length === 5 && text.startsWith('event', pos)
            ? 2
            : (length === 2 && text.startsWith('id', pos)) || (length === 5 && text.startsWith('retry', pos))
              ? 3
              : 0
      if (field !== 0) {
        if (start === -1) {
          start = pos
          line = lineNo
        }
        end = stop
        if (field === 1) {
          const value = text.slice(valueStart, stop)
          if (data === null && dataParts === null) data = value
          else if (dataParts === null) dataParts = [data!, value]
          else dataParts.push(value)
        } else if (field === 2) {
          eventName = text.slice(valueStart, stop)
        }
      } else {
        scan.strangeCount += 1
        if (scan.strange.length < MAX_STRANGE)
          scan.strange.push({ line: lineNo, text: text.slice(pos, stop) })
      }
    }
    pos = lineEnd + 1
  }
  if (start !== -1) scan.unterminatedLast = true
  dispatch()
  return scan
}

/** An HTTP response head before the body (`curl -i`, a proxy dump): status line and headers, lower-cased names. */
export type HttpHead = {
  readonly status: number
  readonly statusText: string
  readonly headers: Readonly<Record<string, string>>
  /** Offset of the body and its first line number. */
  readonly bodyStart: number
  readonly bodyLine: number
}

/** Reads `HTTP/1.1 200 OK` + headers + blank line at the start of `text`; null when the text does not start so. */
export function readHttpHead(text: string): HttpHead | null {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  if (!text.startsWith('HTTP/', pos)) return null
  const headers: Record<string, string> = {}
  let status = 0
  let statusText = ''
  let lineNo = 0
  while (pos < text.length) {
    const newline = text.indexOf('\n', pos)
    const lineEnd = newline === -1 ? text.length : newline
    const stop = lineEnd > pos && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd
    const content = text.slice(pos, stop)
    lineNo += 1
    pos = lineEnd + 1
    if (lineNo === 1) {
      const parts = content.split(' ')
      status = Number.parseInt(parts[1] ?? '', 10)
      statusText = parts.slice(2).join(' ')
      if (!Number.isSafeInteger(status)) return null
      continue
    }
    if (content === '') {
      // `curl -i` through a proxy prints `HTTP/1.1 200 Connection established` + blank line before the real head.
      if (text.startsWith('HTTP/', pos)) return shifted(text, pos)
      return { status, statusText, headers, bodyStart: pos, bodyLine: lineNo + 1 }
    }
    const colon = content.indexOf(':')
    if (colon > 0) headers[content.slice(0, colon).trim().toLowerCase()] = content.slice(colon + 1).trim()
  }
  return { status, statusText, headers, bodyStart: text.length, bodyLine: lineNo + 1 }
}

/** The head that starts at `offset` (a second head after a proxy's), with offsets and lines relative to `text`. */
function shifted(text: string, offset: number): HttpHead | null {
  const inner = readHttpHead(text.slice(offset, offset + 65536))
  if (inner === null) return null
  let lines = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) lines += 1
  return { ...inner, bodyStart: inner.bodyStart + offset, bodyLine: inner.bodyLine + lines }
}

/**
 * The same rules as `scanSse`, fed piece by piece as a network stream delivers text (live capture): `feed(piece)`
 * returns the events completed so far, `end()` those left when the body ends (a last event without its blank line
 * is dispatched; a torn last line is not). Only the unfinished line is buffered. Offsets and lines count from the
 * start of the stream.
 *
 * @example
 * const parser = new SseParser()
 * parser.feed('data: {"a"') // []
 * parser.feed(':1}\n\n') // [{ data: '{"a":1}', event: '', start: 0, end: 13, line: 1 }]
 */
export class SseParser {
  /** The unfinished line, and where it starts. */
  private pending = ''
  private pendingStart = 0
  private lineNo = 0
  private data: string[] | null = null
  private eventName = ''
  private start = -1
  private stop = 0
  private line = 0
  private first = true

  feed(piece: string): SseEvent[] {
    const out: SseEvent[] = []
    let text = this.pending + piece
    if (this.first && text.length > 0) {
      this.first = false
      if (text.charCodeAt(0) === 0xfeff) {
        text = text.slice(1)
        this.pendingStart += 1
      }
    }
    let pos = 0
    for (;;) {
      const newline = text.indexOf('\n', pos)
      if (newline === -1) break
      const stop = newline > pos && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline
      this.lineNo += 1
      this.readLine(text, pos, stop, this.pendingStart, out)
      pos = newline + 1
    }
    this.pendingStart += pos
    this.pending = text.slice(pos)
    return out
  }

  end(): SseEvent[] {
    const out: SseEvent[] = []
    this.dispatch(out)
    return out
  }

  /** The unfinished last line (a torn tail once the body has ended), '' when none. */
  get tail(): string {
    return this.pending
  }

  private readLine(text: string, pos: number, stop: number, base: number, out: SseEvent[]): void {
    if (stop === pos) {
      this.dispatch(out)
      return
    }
    if (text.charCodeAt(pos) === 58) return
    let nameEnd = pos
    while (nameEnd < stop && text.charCodeAt(nameEnd) !== 58) nameEnd += 1
    let valueStart = nameEnd === stop ? stop : nameEnd + 1
    if (valueStart < stop && text.charCodeAt(valueStart) === 32) valueStart += 1
    const name = text.slice(pos, nameEnd)
    if (name !== 'data' && name !== 'event' && name !== 'id' && name !== 'retry') return
    if (this.start === -1) {
      this.start = base + pos
      this.line = this.lineNo
    }
    this.stop = base + stop
    if (name === 'data') (this.data ??= []).push(text.slice(valueStart, stop))
    else if (name === 'event') this.eventName = text.slice(valueStart, stop)
  }

  private dispatch(out: SseEvent[]): void {
    if (this.start !== -1 && this.data !== null) {
      out.push({
        data: this.data.join('\n'),
        event: this.eventName,
        start: this.start,
        end: this.stop,
        line: this.line,
      })
    }
    this.data = null
    this.eventName = ''
    this.start = -1
  }
}
