import type { SseDialect } from './readSse'
import { COHERE_EVENTS } from '../cohere/cohereEvents'

/**
 * Streaming formats other than the Chat Completions and Anthropic dialects, recognised from their first lines so
 * that they are never misread (a Responses or Gemini body is `data:` lines too, and would open as an empty OpenAI
 * stream). Those the harness reads through its pi-ai route and Chunkscope translates say so in `readAs`; the rest
 * are refused by name (docs/protocol.md §9).
 */
export type ForeignFormat = {
  /** "an OpenAI Responses API stream". */
  readonly name: string
  /** What gave it away, for the message. */
  readonly evidence: string
  /** The SSE dialect that reads it, when Chunkscope translates it. */
  readonly readAs?: SseDialect
}

const PEEK_LINES = 30
const PEEK_CHARS = 1 << 16
/** Keep-alive comments are skipped without counting, up to this many characters of them. */
const PEEK_COMMENT_CHARS = 1 << 20

const responses = (evidence: string): ForeignFormat => ({
  name: 'an OpenAI Responses API stream',
  evidence,
  readAs: 'openai-responses-sse',
})
const cohere = (evidence: string): ForeignFormat => ({ name: 'a Cohere v2 chat stream', evidence })

/**
 * Which of these formats `text` is in, from its first lines; null when none of them.
 *
 * @example
 * sniffForeignFormat('event: response.created\ndata: {"type":"response.created",…}\n\n')
 * // { name: 'an OpenAI Responses API stream', evidence: 'event: response.created' }
 */
export function sniffForeignFormat(text: string): ForeignFormat | null {
  const head = text.slice(0, 4096)
  // AWS's binary event-stream framing named in text that is no frame (its length and type bytes are missing): the
  // bytes are read by `src/formats/bedrock/`, frames saved as text by `bedrock/textFrames.ts` (docs/protocol.md §9.4).
  if (head.includes(':message-type') && (head.includes(':event-type') || head.includes(':exception-type'))) {
    return {
      name: 'an AWS Bedrock event stream (application/vnd.amazon.eventstream)',
      evidence: 'binary frames with :event-type / :message-type headers',
    }
  }
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0
  let seen = 0
  let commentChars = 0
  while (pos < text.length && seen < PEEK_LINES && pos - commentChars < PEEK_CHARS) {
    const newline = text.indexOf('\n', pos)
    const end = newline === -1 ? text.length : newline
    const line = text.slice(pos, Math.min(end, pos + 4096)).replace(/\r$/, '')
    if (line.startsWith(':')) {
      commentChars += end + 1 - pos
      pos = end + 1
      if (commentChars > PEEK_COMMENT_CHARS) return null
      continue
    }
    pos = end + 1
    if (line.trim() === '') continue
    seen += 1
    if (seen === 1 && line.startsWith('{')) return ollama(line) ?? converse(line)
    if (line.startsWith('event:')) {
      const name = line.slice(6).trim()
      if (name.startsWith('response.')) return responses(`event: ${name}`)
      if (COHERE_EVENTS.has(name)) return cohere(`event: ${name}`)
    } else if (line.startsWith('data:')) {
      const type = /"type"\s*:\s*"([^"]*)"/.exec(line)?.[1]
      if (type !== undefined && type.startsWith('response.')) return responses(`"type": "${type}"`)
      // The Responses API's error event is flat (`code`, `message`, `sequence_number`); Anthropic's nests `error`.
      if (type === 'error' && /"sequence_number"\s*:/.test(line))
        return responses('an error event with sequence_number')
      if (type !== undefined && COHERE_EVENTS.has(type)) return cohere(`"type": "${type}"`)
      // An MCP server's Streamable HTTP answer is SSE too, but JSON-RPC messages, not a model's stream.
      if (/^data:\s*\{\s*"jsonrpc"\s*:\s*"2\.0"/.test(line))
        return {
          name: "a JSON-RPC stream (an MCP server's Streamable HTTP response)",
          evidence: '"jsonrpc": "2.0"',
        }
      const decoded = converse(line.slice(5).trimStart())
      if (decoded !== null) return decoded
      if (
        /^data:\s*\{\s*"candidates"\s*:\s*\[/.test(line) ||
        /"candidates"\s*:\s*\[\s*\{\s*"content"\s*:\s*\{\s*"parts"/.test(line)
      )
        return {
          name: 'a Google Gemini streamGenerateContent stream',
          evidence: '"candidates" with content parts',
          readAs: 'gemini-sse',
        }
    }
  }
  return null
}

/** Bedrock ConverseStream events already taken out of their binary frames (an SDK's log): one key per event. */
function converse(line: string): ForeignFormat | null {
  const key =
    /^\{\s*"(messageStart|contentBlockStart|contentBlockDelta|contentBlockStop|messageStop)"\s*:/.exec(
      line,
    )?.[1]
  return key === undefined
    ? null
    : { name: 'AWS Bedrock ConverseStream events', evidence: `a "${key}" event` }
}

/** Ollama's `/api/chat` and `/api/generate` NDJSON: `model`, `created_at` and `done` on every line. */
function ollama(line: string): ForeignFormat | null {
  if (/"model"\s*:/.test(line) && /"created_at"\s*:/.test(line) && /"done"\s*:\s*(true|false)/.test(line))
    return { name: 'an Ollama NDJSON stream', evidence: 'lines with model, created_at and done' }
  return null
}
