import type { PiAiSseEvent } from './piAiSse'
import { emptyScan, type SseScan } from './sseEvents'

const DELIMITERS = ['\n\n', '\r\r', '\r\n\r\n']

/**
 * A Gemini body cut into events the way the `@google/genai` SDK (1.52, which pi-ai's Google reader iterates) cuts it
 * (docs/protocol.md §9.3): not line by line but at the first `\n\n`, `\r\r` or `\r\n\r\n`; an event whose trimmed text
 * starts `data:` is one chunk (everything after `data:`, trimmed — a second `data:` line stays inside it), any other
 * (a comment, an `event:` line first) is skipped whole. Text after the last delimiter that is not blank makes the
 * SDK throw at the end of the body: reported as `unterminatedLast` / `undispatched`.
 */
export function scanGeminiSse(
  text: string,
  onEvent: (event: PiAiSseEvent) => void,
  from = 0,
  firstLine = 1,
): SseScan {
  const scan: SseScan = emptyScan()
  let pos = from
  let line = firstLine
  // Line breaks as an editor counts them (LF, CRLF, CR), for the 1-based lines the Adapter view shows.
  const countLines = (start: number, end: number) => {
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i)
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) line += 1
    }
  }
  // Each delimiter's next position, looked up again only once passed: linear in the body.
  const next = DELIMITERS.map((delimiter) => text.indexOf(delimiter, pos))
  while (pos < text.length) {
    let at = -1
    let length = 0
    DELIMITERS.forEach((delimiter, k) => {
      if (next[k] !== -1 && next[k]! < pos) next[k] = text.indexOf(delimiter, pos)
      const index = next[k]!
      if (index !== -1 && (at === -1 || index < at)) {
        at = index
        length = delimiter.length
      }
    })
    if (at === -1) break
    const raw = text.slice(pos, at)
    const lead = raw.length - raw.trimStart().length
    countLines(pos, pos + lead)
    const trimmed = raw.trim()
    if (trimmed.startsWith('data:')) {
      const start = pos + lead
      onEvent({
        data: trimmed.slice(5).trim(),
        event: '',
        raw: [trimmed],
        start,
        end: start + trimmed.length,
        line,
      })
    } else if (trimmed.startsWith(':')) scan.comments += 1
    else if (trimmed !== '') {
      scan.strangeCount += 1
      if (scan.strange.length < 20) scan.strange.push({ line, text: trimmed.slice(0, 200) })
    }
    countLines(pos + lead, at + length)
    pos = at + length
  }
  const rest = text.slice(pos)
  if (rest.trim() !== '') {
    const lead = rest.length - rest.trimStart().length
    countLines(pos, pos + lead)
    const start = pos + lead
    scan.unterminatedLast = { line }
    scan.undispatched = { start, end: start + rest.trim().length, line }
  }
  return scan
}
