import type { FinishReason, StreamChunk, TokenUsage } from '../../core/protocol'
import { isRecord } from '../../core/base/isRecord'
import { finalReason, mapFinishReason, mapUsage } from '../sse/openai'
import { noteBuffer } from '../sse/translator'
import type { WireDialect } from '../wire/readWire'

/** The chat route's end marker, compared exactly (docs/protocol.md §9, "Details that only the harness's code settles"). */
const DONE = '[DONE]'

/**
 * Whether a parsed SSE payload is a legacy Completions chunk (`/v1/completions`): `object: "text_completion"`, or —
 * for servers that leave `object` out — choices with a string `text` and no `delta`. A chat chunk
 * (`chat.completion.chunk`) always carries `delta`, so the two never overlap (docs/protocol.md §9, "Legacy OpenAI
 * Completions").
 */
export function isCompletionChunk(payload: unknown): boolean {
  if (!isRecord(payload)) return false
  const choices = Array.isArray(payload['choices']) ? (payload['choices'] as unknown[]) : []
  // A chunk with `delta` is a chat chunk whatever its `object` says (a server that mislabels chat chunks).
  if (choices.some((c) => isRecord(c) && c['delta'] !== undefined)) return false
  if (payload['object'] === 'text_completion') return true
  if (payload['object'] !== undefined) return false
  return choices.length > 0 && choices.every((c) => isRecord(c) && typeof c['text'] === 'string')
}

/**
 * A legacy OpenAI Completions stream mapped as the harness's Chat Completions route would map it, had it one for
 * this endpoint (docs/protocol.md §9, "Legacy OpenAI Completions"): `choices[].text` of choice 0 is the one text
 * block (`delta.content` on the chat route); `finish_reason` and the latest `usage` are held until `[DONE]`, which
 * closes the block, then usage (only when the wire sent one), then finish — `stop` → stop, `length` → max-tokens,
 * any other reason (`content_filter`) an error `model stopped: <r>` with code `<R>`; a stop with no text is
 * `EMPTY_RESPONSE`. Other choices (`n > 1`), `logprobs` and an echoed prompt's offsets are named and dropped. Bad
 * JSON fails MALFORMED_RESPONSE, a body ending before `[DONE]` STREAM_CLOSED — the chat route's codes, finish only.
 *
 * @example
 * const d = createCompletionsDialect()
 * d.push({ object: 'text_completion', choices: [{ text: 'Hi', index: 0 }] }, '') // [bs0 text, td0 'Hi']
 * d.push('[DONE]', '') // [be0 text 'Hi', finish stop]
 */
export function createCompletionsDialect(): WireDialect {
  const notes = noteBuffer()
  let finished = false
  let text: string | null = null
  let pendingFinish: FinishReason | undefined
  let pendingUsage: TokenUsage | undefined
  const otherChoices = new Set<unknown>()

  const fail = (code: string, message: string): StreamChunk[] => {
    finished = true
    return [{ type: 'finish', reason: { kind: 'error', failure: { message, code } } }]
  }

  const done = (): StreamChunk[] => {
    finished = true
    const out: StreamChunk[] = []
    if (text !== null) out.push({ type: 'block-end', index: 0, block: { type: 'text', text } })
    if (pendingUsage !== undefined) out.push({ type: 'usage', usage: pendingUsage })
    out.push({ type: 'finish', reason: finalReason(pendingFinish, text !== null) })
    return out
  }

  const readChoice = (choice: Record<string, unknown>, out: StreamChunk[]): void => {
    const piece = choice['text']
    if (typeof piece === 'string' && piece.length > 0) {
      if (text === null) {
        text = ''
        out.push({ type: 'block-start', index: 0, blockType: 'text' })
      }
      text += piece
      out.push({ type: 'text-delta', index: 0, text: piece })
    }
    if (choice['logprobs'] !== null && choice['logprobs'] !== undefined)
      notes.note(
        'logprobs',
        'info',
        'choices[].logprobs (tokens, token_logprobs, top_logprobs, text_offset): no StreamChunk carries them, not kept',
      )
    if (choice['content_filter_results'] !== undefined)
      notes.note(
        'filter-results',
        'info',
        "Azure's content_filter_results: not kept (the finish_reason says whether it stopped)",
      )
    const reason = choice['finish_reason']
    if (typeof reason === 'string') pendingFinish = mapFinishReason(reason)
  }

  return {
    markers: new Set([DONE]),
    push(payload) {
      if (finished) return []
      if (payload === DONE) return done()
      if (!isRecord(payload)) {
        notes.note('not-object', 'warning', 'event data that is no JSON object: skipped')
        return []
      }
      const out: StreamChunk[] = []
      const choices = Array.isArray(payload['choices']) ? payload['choices'] : []
      for (const choice of choices) {
        if (!isRecord(choice)) continue
        // Choice 0 only: with `n > 1` the choices interleave, and one text block of all of them is text nobody sent.
        const index = choice['index'] ?? 0
        if (index !== 0) {
          otherChoices.add(index)
          notes.note(
            'other-choices',
            'warning',
            `choices other than index 0 (n > 1; ${otherChoices.size} seen so far): only choice 0 is read, the others are dropped`,
          )
          continue
        }
        readChoice(choice, out)
      }
      if (payload['prompt_filter_results'] !== undefined)
        notes.note('prompt-filter', 'info', "Azure's prompt_filter_results: not kept")
      if (payload['usage']) pendingUsage = mapUsage(payload['usage'])
      if (payload['error'] !== undefined)
        notes.note(
          'error-field',
          'warning',
          'an "error" field in a chunk: not read (the chat route reads none)',
        )
      return out
    },
    // The chat route's own words: the payload's first 120 characters (the diagnostic names line and offset).
    malformed: (_where, data) => fail('MALFORMED_RESPONSE', `malformed SSE payload: ${data.slice(0, 120)}`),
    end() {
      if (finished) return []
      notes.note(
        'no-done',
        'warning',
        'the body ends before [DONE]: finish error STREAM_CLOSED, the text block stays open',
      )
      return fail('STREAM_CLOSED', 'SSE stream ended without [DONE]')
    },
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}
