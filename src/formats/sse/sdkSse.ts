import { scanSdkLines, type PiAiSseEvent } from './sdkLines'
import type { SseScan } from './sseEvents'

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
  return scanSdkLines(text, onEvent, { bom: 'line', spanFrom: 'any-field', atEnd: 'hold' }, from, firstLine)
}
