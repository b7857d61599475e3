import type { PiAiSseEvent } from './piAiSse'
import { jsonValueEnd } from '../wire/concatenatedJson'
import { emptyScan, type SseScan } from './sseEvents'

/** The first keys a `GenerateContentResponse` can open with (the REST API's JSON, in its field order). */
const FIRST_KEY =
  /^\uFEFF?\s*\[\s*\{\s*"(candidates|usageMetadata|promptFeedback|modelVersion|responseId|createTime)"\s*:/

/**
 * Gemini's `streamGenerateContent` without `alt=sse` (docs/protocol.md §9.3, "Without alt=sse"): the REST API then
 * streams one JSON array whose elements are the same `GenerateContentResponse` objects the SSE form carries in its
 * `data:` lines, usually pretty-printed. Recognised by the array's first object opening with one of that type's keys
 * (a StreamChunk array opens with `"type"`, a trace export with its own names).
 */
export function sniffGeminiJsonArray(text: string): boolean {
  return FIRST_KEY.test(text.slice(0, 4096))
}

/**
 * The array cut into its elements: each top-level object becomes one event whose data is the object's text, so the
 * Gemini translator reads it exactly as it reads a `data:` line. An object the body ends inside is the torn last
 * event (`unterminatedLast` / `undispatched`: the translator then fails as the SDK fails on an incomplete segment);
 * an array whose last object is whole but whose `]` never came is read to its end and named in `strange`, as is
 * anything that is not an object between the elements.
 */
export function scanGeminiJsonArray(
  text: string,
  onEvent: (event: PiAiSseEvent) => void,
  from = 0,
  firstLine = 1,
): SseScan {
  const scan: SseScan = emptyScan()
  let line = firstLine
  let pos = text.indexOf('[', from)
  if (pos === -1) return scan
  pos += 1
  const strange = (text: string) => {
    scan.strangeCount += 1
    if (scan.strange.length < 20) scan.strange.push({ line, text })
  }
  while (pos < text.length) {
    const c = text[pos]!
    if (c === '\n') line += 1
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === ',') {
      pos += 1
      continue
    }
    if (c === ']') {
      const rest = text.slice(pos + 1)
      if (rest.trim() !== '') strange(`after the array's end: ${rest.trim().slice(0, 200)}`)
      return scan
    }
    if (c !== '{') {
      const end = text.indexOf('\n', pos)
      strange(text.slice(pos, end === -1 ? text.length : end).slice(0, 200))
      if (end === -1) return scan
      pos = end
      continue
    }
    const start = pos
    const startLine = line
    const end = jsonValueEnd(text, start)
    if (end === -1) {
      scan.unterminatedLast = { line: startLine }
      scan.undispatched = { start, end: text.trimEnd().length, line: startLine }
      return scan
    }
    for (let i = start; i < end; i++) if (text.charCodeAt(i) === 10) line += 1
    const data = text.slice(start, end)
    onEvent({ data, event: '', raw: [data], start, end, line: startLine })
    pos = end
  }
  strange("the array's closing ] never came (a capture cut short between two elements?)")
  return scan
}
