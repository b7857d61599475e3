import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readSseStream } from '../sse/readSse'
import { readCompletions } from '../wire/wireFormats'

/**
 * Legacy Completions are mapped as the harness's Chat Completions route maps chat bodies (docs/protocol.md §9,
 * "Legacy OpenAI Completions"). The check: a random completions body and the same body written as chat chunks
 * (`choices[0].text` → `choices[0].delta.content`) must give the same chunks, the chat one read by the project's
 * copy of the harness's DeepSeek adapter (itself checked rule for rule against the harness's translate.ts).
 */
const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\n', '"', '\\'), maxLength: 5 })
const reason = fc.constantFrom(null, 'stop', 'length', 'content_filter', 'tool_calls', '')
const usage = fc.option(
  fc.record(
    {
      prompt_tokens: fc.nat(50),
      completion_tokens: fc.nat(50),
      prompt_tokens_details: fc.record({ cached_tokens: fc.nat(10) }),
    },
    { requiredKeys: ['prompt_tokens'] },
  ),
  { nil: undefined },
)
const event = fc.oneof(
  { weight: 8, arbitrary: fc.record({ text, finish: reason, usage }) },
  { weight: 1, arbitrary: fc.constant('broken' as const) },
)
type Event = { text: string; finish: string | null; usage: unknown } | 'broken'

function body(events: Event[], ending: 'done' | 'none', chat: boolean): string {
  const lines = events.map((e) => {
    if (e === 'broken') return 'data: {"choices":[{"text":\n\n'
    const choice = chat
      ? { index: 0, delta: { content: e.text }, finish_reason: e.finish }
      : { text: e.text, index: 0, logprobs: null, finish_reason: e.finish }
    const chunk = {
      id: 'x',
      object: chat ? 'chat.completion.chunk' : 'text_completion',
      choices: [choice],
      ...(e.usage !== undefined ? { usage: e.usage } : {}),
    }
    return `data: ${JSON.stringify(chunk)}\n\n`
  })
  return lines.join('') + (ending === 'done' ? 'data: [DONE]\n\n' : '')
}

describe('legacy Completions read as the chat route reads chat chunks', () => {
  it('gives the same chunks for the same text, finish reasons, usage, bad JSON and endings', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 10 }),
        fc.constantFrom('done', 'none'),
        (events, ending) => {
          const ours = readCompletions(body(events as Event[], ending, false)).attempt
          const chat = readSseStream(body(events as Event[], ending, true), 'openai-sse').attempt
          const chunks = (a: typeof ours) => a?.chunks.map((c) => c.chunk) ?? []
          // The broken payload is the same text in both bodies, so even the MALFORMED_RESPONSE message agrees.
          expect(chunks(ours)).toEqual(chunks(chat))
        },
      ),
      { numRuns: 300, seed: 20261201 },
    )
  })
})
