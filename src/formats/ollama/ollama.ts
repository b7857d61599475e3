import type { StreamChunk } from '../../core/protocol'
import { isRecord } from '../../core/base/isRecord'
import { peekObjects } from '../json'
import { noteBuffer } from '../sse/translator'
import { InlineBlocks, routeUsage, type InlineKind } from '../wire/inlineBlocks'
import type { WireDialect } from '../wire/readWire'

/** Fields of a line that carry nothing for the blocks, named once when a stream has them. */
const UNREAD_FIELDS = [
  'images',
  'context',
  'logprobs',
  'total_duration',
  'load_duration',
  'prompt_eval_duration',
  'eval_duration',
] as const

/**
 * Ollama's `/api/chat` or `/api/generate` NDJSON: the first non-blank line is an object with a string `model`, a
 * string `created_at` and a boolean `done` (every line of both endpoints has them; no StreamChunk, session event or
 * chat-completions chunk does).
 */
export function sniffOllama(text: string): boolean {
  const first = peekObjects(text, 1)[0]
  return (
    first != null &&
    typeof first['model'] === 'string' &&
    typeof first['created_at'] === 'string' &&
    typeof first['done'] === 'boolean'
  )
}

/**
 * One Ollama stream as the harness's pi-ai route would assemble it, were there one (docs/protocol.md §9, "Wires without a harness route", "Ollama"):
 * `thinking` and `content` (`response` on /api/generate) open a reasoning or text block when the kind changes — the
 * block before closes there, as pi-ai's Completions reader does when a stream switches between thinking and text;
 * each `tool_calls` entry arrives whole and becomes a tool-call block opened and closed at once (arguments
 * `JSON.stringify` of the object sent; id the entry's `id`, else empty: Ollama sends none before 0.12); the `done`
 * line closes the open block, then usage (`prompt_eval_count`, `eval_count`), then finish (`done_reason` `stop` →
 * stop, or tool-calls when a tool call came, as pi-ai's Google and Responses readers do; `length` → max-tokens;
 * anything else → error). `{"error": …}` is an in-band failure. A line that is no JSON is skipped, as the official
 * client (ollama-js) skips it.
 */
export function createOllamaDialect(): WireDialect {
  const blocks = new InlineBlocks()
  const notes = noteBuffer()
  let current: { kind: InlineKind; key: string } | null = null
  let parts = 0
  let tools = 0
  let finished = false
  let model = 'unknown'
  const unread = new Set<string>()

  const append = (kind: 'text' | 'reasoning', piece: unknown): StreamChunk[] => {
    if (typeof piece !== 'string' || piece === '') return []
    const out: StreamChunk[] = []
    if (current === null || current.kind !== kind) {
      if (current !== null) out.push(...blocks.close(current.key))
      current = { kind, key: `p${parts++}` }
      out.push(...blocks.open(kind, current.key))
    }
    out.push(...blocks.delta(current.key, piece))
    return out
  }

  const fail = (message: string, code?: string): StreamChunk[] => {
    finished = true
    summarize()
    const usage = routeUsage(0, 0)
    if (code !== undefined)
      return [
        { type: 'usage', usage },
        { type: 'finish', reason: { kind: 'error', failure: { message, code } } },
      ]
    return blocks.finish({ stopReason: 'error', errorMessage: message, model }, usage)
  }

  const summarize = () => {
    if (unread.size > 0)
      notes.note(
        'unread',
        'info',
        `not kept by any block: ${[...unread].join(', ')} (timings, context and images have no StreamChunk)`,
      )
  }

  return {
    push(payload) {
      if (finished) return []
      if (!isRecord(payload)) {
        notes.note('not-object', 'warning', 'a line that is no JSON object: skipped')
        return []
      }
      if (typeof payload['model'] === 'string') model = payload['model']
      if (typeof payload['error'] === 'string' || isRecord(payload['error'])) {
        const error = payload['error']
        const message = typeof error === 'string' ? error : JSON.stringify(error)
        notes.note('error', 'info', `an error line: the stream fails with ${JSON.stringify(message)}`)
        return fail(message)
      }
      for (const field of UNREAD_FIELDS) if (payload[field] !== undefined) unread.add(field)
      const message = isRecord(payload['message']) ? payload['message'] : null
      const out: StreamChunk[] = []
      out.push(...append('reasoning', message !== null ? message['thinking'] : payload['thinking']))
      out.push(...append('text', message !== null ? message['content'] : payload['response']))
      const calls = message !== null ? message['tool_calls'] : undefined
      if (Array.isArray(calls)) {
        if (current !== null) out.push(...blocks.close(current.key))
        current = null
        for (const call of calls) {
          const fn = isRecord(call) && isRecord(call['function']) ? call['function'] : {}
          const id = isRecord(call) && typeof call['id'] === 'string' ? call['id'] : ''
          const name = typeof fn['name'] === 'string' ? fn['name'] : ''
          const args = fn['arguments']
          const text = typeof args === 'string' ? args : JSON.stringify(args ?? {})
          out.push(...blocks.wholeToolCall(`t${tools++}`, id, name, text))
        }
      }
      if (payload['done'] === true) {
        finished = true
        summarize()
        const reason = payload['done_reason']
        const usage = routeUsage(payload['prompt_eval_count'], payload['eval_count'])
        const stopReason =
          reason === undefined || reason === 'stop'
            ? blocks.sawToolCall
              ? 'toolUse'
              : 'stop'
            : reason === 'length'
              ? 'length'
              : 'error'
        out.push(
          ...blocks.finish(
            {
              stopReason,
              errorMessage: stopReason === 'error' ? `Provider done_reason: ${String(reason)}` : undefined,
              model,
            },
            usage,
          ),
        )
      }
      return out
    },
    malformed: (message) => fail(message, 'MALFORMED_RESPONSE'),
    // ollama-js (the official client) logs "invalid json" for such a line and reads on.
    skipsBadLines: 'as ollama-js does: it logs "invalid json" and reads the next line',
    end() {
      if (finished) return []
      notes.note(
        'no-done',
        'warning',
        'the body ends before a line with "done": true: the stream fails (TRANSPORT), open blocks stay open',
      )
      return fail('Ollama stream ended before done')
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}
