import { isRecord } from '../../core/base/isRecord'
import { isCompletionChunk } from '../completions/completions'
import { INTERACTION_EVENTS } from '../interactions/interactions'
import { readHttpHead } from '../sse/sseEvents'

const PEEK_LINES = 30
const PEEK_CHARS = 1 << 16
/** Longest `data:` line parsed while sniffing: a first chunk is small; a bigger one is left to the other sniffers. */
const PEEK_DATA = 1 << 14

/** The first `event:` names and `data:` lines of an SSE body (after an optional HTTP head); null at a non-SSE line. */
function peekFields(text: string): { events: string[]; data: string[] } | null {
  const head = readHttpHead(text.slice(0, PEEK_CHARS))
  let pos = head?.bodyStart ?? (text.charCodeAt(0) === 0xfeff ? 1 : 0)
  const events: string[] = []
  const data: string[] = []
  let seen = 0
  while (pos < text.length && seen < PEEK_LINES && pos < PEEK_CHARS) {
    const newline = text.indexOf('\n', pos)
    const end = newline === -1 ? text.length : newline
    const line = text.slice(pos, Math.min(end, pos + PEEK_DATA + 6)).replace(/\r$/, '')
    pos = end + 1
    if (line.trim() === '' || line.startsWith(':')) continue
    seen += 1
    if (line.startsWith('event:')) events.push(line.slice(6).trim())
    else if (line.startsWith('data:')) data.push(line.slice(5).trim())
    else if (!/^(id|retry):/.test(line)) return null
  }
  return { events, data }
}

function parse(data: string): unknown {
  if (data.length > PEEK_DATA || !data.startsWith('{')) return undefined
  try {
    return JSON.parse(data) as unknown
  } catch {
    return undefined
  }
}

/**
 * A legacy OpenAI Completions body (`/v1/completions`, docs/protocol.md §9, "Legacy OpenAI Completions"): its first
 * JSON data payload is a `text_completion` chunk. Chat chunks (`chat.completion.chunk`, or any with `delta`) never
 * are, so chat bodies keep reading as the chat route.
 */
export function sniffCompletions(text: string): boolean {
  const peek = peekFields(text)
  if (peek === null) return false
  for (const data of peek.data) {
    const payload = parse(data)
    if (payload === undefined) continue
    // Azure's first chunk holds only prompt_filter_results (no choices, `object: ""`): the next one decides.
    if (
      isRecord(payload) &&
      !payload['object'] &&
      Array.isArray(payload['choices']) &&
      payload['choices'].length === 0
    )
      continue
    return isCompletionChunk(payload)
  }
  return false
}

/**
 * A Gemini Interactions body (docs/protocol.md §9, "Gemini Interactions"): its first event is one of the dotted
 * interaction events, by `event:` name or by the data's `event_type`, or an `error` carrying `event_type` (no other
 * wire names its events in `event_type` with these words).
 */
export function sniffInteractions(text: string): boolean {
  const peek = peekFields(text)
  if (peek === null) return false
  const named = peek.events.find((name) => name !== 'error')
  if (named !== undefined && INTERACTION_EVENTS.has(named)) return true
  for (const data of peek.data) {
    const type = /"event_type"\s*:\s*"([^"]*)"/.exec(data)?.[1]
    if (type === undefined) return false
    if (INTERACTION_EVENTS.has(type)) return true
    if (type !== 'error') return false
  }
  return peek.data.length > 0 && /"event_type"\s*:\s*"error"/.test(peek.data[0]!)
}
