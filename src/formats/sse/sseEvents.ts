import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser'
import { appendHeader } from './httpFailure'

/**
 * A `text/event-stream` body cut into events by `eventsource-parser` — the framer the harness's DeepSeek adapter
 * uses (docs/protocol.md §9 "Exact details"), so the events are the harness's: lines end at LF, CRLF or a lone CR; an
 * event is dispatched only at its blank line, so a last event without one is dropped (there is no flush at end of
 * body); comments and unknown fields carry nothing. Beside the library runs a light line scanner that only knows
 * where each line starts and ends, for the raw text ↔ event pairing the Adapter view shows (`WireTrace`).
 */

export type SseEvent = {
  /** The joined `data:` lines. */
  readonly data: string
  /** The `event:` field, '' when absent. */
  readonly event: string
  /** Offsets of the event's first field line and of the end of its last line in the text. */
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
  /** The last line has no line end the parser could see (no LF, or a lone CR as the very last character). */
  tornTail: { line: number; text: string; loneCr: boolean } | null
  /** Complete field lines after the last blank line: never dispatched (the harness drops the event). */
  unterminatedLast: { line: number } | null
  /** Where the text nothing was dispatched for lies (the dropped event and a torn last line), for the Adapter view. */
  undispatched: { start: number; end: number; line: number } | null
}

/** A scan that has seen nothing yet. */
export function emptyScan(): SseScan {
  return {
    comments: 0,
    strange: [],
    strangeCount: 0,
    tornTail: null,
    unterminatedLast: null,
    undispatched: null,
  }
}

const MAX_STRANGE = 20
const LF = 10
const CR = 13

export type SseParserOptions = {
  /** Offset of the first fed character in the whole text (a body after an HTTP head). */
  readonly offset?: number
  /** 1-based line number of the first fed line. */
  readonly firstLine?: number
  /** Each comment's text (the harness reports comments as transport activity, never as events). */
  readonly onComment?: (comment: string) => void
}

/**
 * The events of a body fed piece by piece, as a network stream delivers text (live capture) or all at once (a
 * file): `feed(piece)` returns the events completed so far, `end()` those the end of the body completes — always
 * none, as in the harness, whose parser has no flush — and `scan` what was noticed. Only the unfinished line is
 * buffered, as a list of pieces, so a huge single line costs one join, not one per piece. Any split of a body gives
 * the same events but one, as the library's framing does: a lone CR that ends a piece is held back, and the library
 * reads it again only when a later piece brings a line break, so when no later piece does (the body ends on a line
 * without one) the line that CR ended is never read — a blank line then dispatches nothing (docs/protocol.md §9,
 * "Framing").
 *
 * @example
 * const parser = new SseParser()
 * parser.feed('data: {"a"') // []
 * parser.feed(':1}\n\n') // [{ data: '{"a":1}', event: '', start: 0, end: 13, line: 1 }]
 */
export class SseParser {
  readonly scan: SseScan = emptyScan()
  private readonly library: EventSourceParser
  private pieces: string[] = []
  /** Offset of the unfinished line's first character. */
  private pendingStart: number
  private lineNo: number
  private first = true
  private out: SseEvent[] = []
  /** The span of the event being built: its first field line and the end of its last one; -1 when none. */
  private eventStart = -1
  private eventEnd = 0
  private eventLine = 0

  constructor(options: SseParserOptions = {}) {
    this.pendingStart = options.offset ?? 0
    this.lineNo = (options.firstLine ?? 1) - 1
    this.library = createParser({
      onEvent: (event) => {
        this.out.push({
          data: event.data,
          event: event.event ?? '',
          start: this.eventStart,
          end: this.eventEnd,
          line: this.eventLine,
        })
      },
      onComment: (comment) => {
        this.scan.comments += 1
        options.onComment?.(comment)
      },
      onError: (error: ParseError) => {
        if (error.type !== 'unknown-field') return
        this.scan.strangeCount += 1
        if (this.scan.strange.length < MAX_STRANGE)
          this.scan.strange.push({ line: this.lineNo, text: error.line ?? '' })
      },
    })
  }

  feed(piece: string): SseEvent[] {
    if (this.first && piece.length > 0) {
      this.first = false
      // The harness decodes with TextDecoderStream, which drops a leading BOM; text handed to us may still hold it.
      if (piece.charCodeAt(0) === 0xfeff) {
        piece = piece.slice(1)
        this.pendingStart += 1
      }
    }
    const pending = this.pieces
    const held = pending.length > 0
    // As the library: a piece without a line break only joins the held text, even when that text ends in a CR.
    if (held && !hasLineEnd(piece)) {
      pending.push(piece)
      return []
    }
    const text = held ? pending.join('') + piece : piece
    this.pieces = []
    const rest = this.readLines(text)
    this.pendingStart += rest
    if (rest < text.length) this.pieces.push(text.slice(rest))
    const out = this.out
    this.out = []
    return out
  }

  /** The body ended: what is still unfinished is never read (the library has no flush), and `scan` says so. */
  end(): SseEvent[] {
    const tail = this.pieces.join('')
    this.pieces = []
    if (tail.length > 0)
      this.scan.tornTail = { line: this.lineNo + 1, text: tail.slice(0, 200), loneCr: tail.endsWith('\r') }
    if (this.eventStart !== -1) this.scan.unterminatedLast = { line: this.eventLine }
    const torn = tail.length > 0 && !tail.startsWith(':')
    if (this.eventStart !== -1 || torn) {
      this.scan.undispatched = {
        start: this.eventStart !== -1 ? this.eventStart : this.pendingStart,
        end: torn ? this.pendingStart + tail.replace(/\r$/, '').length : this.eventEnd,
        line: this.eventStart !== -1 ? this.eventLine : this.lineNo + 1,
      }
    }
    return []
  }

  /** The unfinished last line, '' when none. */
  get tail(): string {
    return this.pieces.join('')
  }

  /** Feeds every complete line of `text` to the library; returns where the unfinished rest starts. */
  private readLines(text: string): number {
    let pos = 0
    let lf = text.indexOf('\n')
    let cr = text.indexOf('\r')
    for (;;) {
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos)
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos)
      const lineEnd = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf)
      if (lineEnd === -1) return pos
      let next = lineEnd + 1
      if (text.charCodeAt(lineEnd) === CR) {
        // A CR as the last character may be the first half of a CRLF: the library waits, and so do we.
        if (lineEnd === text.length - 1) return pos
        if (text.charCodeAt(lineEnd + 1) === LF) next += 1
      }
      this.readLine(text, pos, lineEnd, next)
      pos = next
    }
  }

  private readLine(text: string, pos: number, stop: number, next: number): void {
    const base = this.pendingStart
    this.lineNo += 1
    if (stop > pos && text.charCodeAt(pos) !== 58 /* : */) {
      if (this.eventStart === -1) {
        this.eventStart = base + pos
        this.eventLine = this.lineNo
      }
      this.eventEnd = base + stop
    }
    // The library sees each line whole with the same ending (a lone CR, which it would hold back as the possible
    // start of a CRLF, is handed over as LF), so it dispatches while this line is fed.
    const lone = text.charCodeAt(stop) === CR && next === stop + 1
    this.library.feed(lone ? `${text.slice(pos, stop)}\n` : text.slice(pos, next))
    if (stop === pos) this.eventStart = -1
  }
}

function hasLineEnd(piece: string): boolean {
  return piece.indexOf('\n') !== -1 || piece.indexOf('\r') !== -1
}

/**
 * The events of a whole body, from offset `from` (after an HTTP head, say), with 1-based line numbers counted from
 * `firstLine`: the same as feeding it to an {@link SseParser} in any pieces.
 */
export function scanSse(text: string, onEvent: (event: SseEvent) => void, from = 0, firstLine = 1): SseScan {
  const parser = new SseParser({ offset: from, firstLine })
  for (const event of parser.feed(from === 0 ? text : text.slice(from))) onEvent(event)
  parser.end()
  return parser.scan
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
    if (colon > 0) appendHeader(headers, content.slice(0, colon).trim(), content.slice(colon + 1).trim())
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
