import { emptyScan, type SseScan } from './sseEvents'
import type { PiAiSseEvent } from './piAiSse'

/**
 * A body cut into events the way the `openai` SDK (6.x, which pi-ai's OpenAI Responses reader iterates) frames it
 * (docs/protocol.md §9, "The harness's pi-ai route"): lines end at LF, CRLF or a lone CR; a byte-order mark is dropped
 * at the start of any line (the SDK decodes line by line); the body's last line is read even without a line break,
 * but an event is dispatched only at a blank line, so a last event with no blank line after it is never read
 * (reported as `unterminatedLast` and `undispatched`). An event with an `event:` name and no `data:` line is
 * dispatched with empty data (the SDK then fails to parse it). Comments, `id:` and `retry:` carry nothing.
 */
export function scanSdkSse(
  text: string,
  onEvent: (event: PiAiSseEvent) => void,
  from = 0,
  firstLine = 1,
): SseScan {
  const scan: SseScan = emptyScan()
  let pos = from
  let lineNo = firstLine - 1
  let name: string | null = null
  let data: string[] = []
  let raw: string[] = []
  let start = -1
  let startLine = 0
  let end = -1
  const flush = () => {
    // An empty `event:` name counts as none (the SDK tests it for truthiness).
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
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1)
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
    if (start === -1) {
      start = lineStart
      startLine = lineNo
    }
    end = lineEnd
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
    else if (field !== 'id' && field !== 'retry') {
      scan.strangeCount += 1
      if (scan.strange.length < 20) scan.strange.push({ line: lineNo, text: line })
    }
  }
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
  if (name || data.length > 0) {
    scan.unterminatedLast = { line: startLine }
    scan.undispatched = { start, end, line: startLine }
  }
  return scan
}
