import { isRecord } from '../../core/base/isRecord'
import type { TranslatorKit } from './translator'

/** Delta fields the harness's adapter reads (`role` only says "assistant"). */
const READ_DELTA_KEYS: ReadonlySet<string> = new Set(['content', 'reasoning_content', 'tool_calls', 'role'])

/**
 * What a chat-completions payload carries that the harness's DeepSeek adapter does not read (docs/protocol.md §9): the
 * result stays the harness's, but nothing the provider sent is lost silently. Each kind is one note key, so the
 * reader reports it once with a count. Looks only; never throws.
 */
export function notePayload(chunk: unknown, note: TranslatorKit['note']): void {
  if (!isRecord(chunk)) {
    if (chunk !== null)
      note(
        'non-object',
        'info',
        `a payload that is JSON but no object (${JSON.stringify(chunk).slice(0, 40)}) is ignored by the harness's adapter`,
      )
    return
  }
  if (chunk['error'] !== undefined)
    note(
      'error-object',
      'warning',
      'an "error" object inside the stream is not read by the harness\'s adapter: ignored',
    )
  const choices = chunk['choices']
  if (!Array.isArray(choices)) return
  if (choices.length > 1)
    note(
      'choices',
      'info',
      'several choices in one chunk: the harness reads every one, in order, into the same blocks',
    )
  for (const choice of choices) {
    const delta = isRecord(choice) ? choice['delta'] : undefined
    if (!isRecord(delta)) continue
    for (const key in delta) {
      const value = delta[key]
      if (value === null || value === undefined || value === '') continue
      if (key === 'content' && typeof value !== 'string') {
        note(
          'dropped:content-parts',
          'warning',
          Array.isArray(value)
            ? "delta.content is an array of parts (Mistral's text / thinking parts); the harness's adapter reads content only as a string, so this text is dropped"
            : `delta.content is ${typeof value}, not a string; the harness's adapter drops it`,
        )
      } else if (key === 'reasoning') {
        note(
          'dropped:reasoning',
          'warning',
          "delta.reasoning (Groq's / OpenRouter's reasoning text) is dropped: the harness's adapter reads only delta.reasoning_content",
        )
      } else if (key === 'refusal') {
        note(
          'dropped:refusal',
          'warning',
          "delta.refusal (the model's refusal text) is dropped: the harness's adapter does not read it",
        )
      } else if (!READ_DELTA_KEYS.has(key)) {
        note(`delta:${key}`, 'info', `delta.${key} is not read by the harness's adapter`)
      }
    }
  }
}
