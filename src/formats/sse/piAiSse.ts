import { parseJsonWithRepair } from './piAiJson'
import { scanSdkLines, type PiAiSseEvent } from './sdkLines'
import type { SseScan } from './sseEvents'

export type { PiAiSseEvent } from './sdkLines'

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
  // pi-ai reads a last line without a line break and dispatches what is pending, so nothing is ever torn here.
  return scanSdkLines(
    text,
    onEvent,
    { bom: 'body', spanFrom: 'event-or-data', atEnd: 'dispatch' },
    from,
    firstLine,
  )
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
