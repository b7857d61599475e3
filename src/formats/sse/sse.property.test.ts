import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readSseStream } from './readSse'
import { readYields } from '../snippet/readSnippet'

const fragment = fc.constantFrom(
  'data: [DONE]\n\n',
  'data: {"choices":[{"delta":{"content":"a"}}]}\n\n',
  'data: {"choices":[{"delta":{"reasoning_content":"r"}}]}\n\n',
  'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":"{"}}]}}]}\n\n',
  'data: {"choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}\n\n',
  'data: {"type":"content_block_stop","index":0}\n\n',
  'data: {"type":"message_stop"}\n\n',
  'data: {"type":"error","error":{"type":"overloaded_error"}}\n\n',
  ': ping\n\n',
  'data: {broken\n\n',
  'garbage line\n',
  'data: {"choices":[',
  '\r\n',
)

describe('SSE readers on arbitrary bodies', () => {
  it('never throw and always end with exactly one finish, as the last chunk', () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 25 }),
        fc.constantFrom('openai-sse', 'anthropic-sse'),
        (parts, dialect) => {
          const read = readSseStream(parts.join(''), dialect as 'openai-sse' | 'anthropic-sse')
          const chunks = read.attempt!.chunks.map((c) => c.chunk)
          expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(1)
          expect(chunks.at(-1)!.type).toBe('finish')
          expect(read.attempt!.chunks.map((c) => c.seq)).toEqual(chunks.map((_, k) => k))
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('snippet reader on arbitrary text', () => {
  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (junk) => {
        expect(() => readYields(`yield ${junk}\nyield { a: ${junk} }`)).not.toThrow()
      }),
      { numRuns: 300 },
    )
  })
})
