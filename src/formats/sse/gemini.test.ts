import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from '../../core/BlockAssembler'
import { detectFormat } from '../registry'
import { readSseStream } from './readSse'

/**
 * The Gemini route's cases, on fixtures `gemini.oracle.test.ts` also runs through pi-ai 0.82.1 (so the chunks are
 * the harness's), checked against what the provider sent (docs/protocol.md §9.3).
 */
const body = (name: string) => readFileSync(new URL(`../fixtures/gemini/${name}`, import.meta.url), 'utf8')

function read(name: string) {
  const { attempt, diagnostics } = readSseStream(body(name), 'gemini-sse')
  const assembler = new BlockAssembler()
  for (const { chunk } of attempt!.chunks) assembler.push(chunk)
  return {
    blocks: assembler.blocks(),
    finish: assembler.finish,
    usage: assembler.usage,
    messages: diagnostics.map((d) => `${d.severity}: ${d.message}`),
  }
}

describe('Gemini streamGenerateContent', () => {
  it('is detected, and a chat completion is not taken for it', () => {
    expect(detectFormat(body('synthetic-thinking-text-tools.sse'))).toBe('gemini-sse')
    expect(detectFormat(body('vercel-google-text.sse'))).toBe('gemini-sse')
    const chat = 'data: {"choices":[{"index":0,"delta":{"content":"candidates"}}]}\n\ndata: [DONE]\n\n'
    expect(detectFormat(chat)).toBe('openai-sse')
  })

  it('thoughts, text and two tool calls as sent; usage less the cached prompt, thoughts counted as output', () => {
    const result = read('synthetic-thinking-text-tools.sse')
    expect(result.blocks).toEqual([
      { type: 'reasoning', text: '**Planning** the lookup: I need the weather tool. Calling it now.' },
      { type: 'text', text: 'Checking Paris and Lyon.' },
      // No id on the wire: pi-ai makes one up from the clock, which Chunkscope cannot know (docs/protocol.md §9.3).
      {
        type: 'tool-call',
        id: 'get_weather_0_1',
        name: 'get_weather',
        arguments: '{"city":"Paris","days":[1,2]}',
      },
      { type: 'tool-call', id: 'call_lyon', name: 'get_weather', arguments: '{"city":"Lyon"}' },
    ])
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 161, cacheReadTokens: 512 })
    expect(result.messages.join('\n')).toContain('pi-ai makes one up')
  })

  it('MAX_TOKENS is max-tokens; SAFETY an error; a stop with nothing EMPTY_RESPONSE', () => {
    expect(read('synthetic-max-tokens.sse').finish).toEqual({ kind: 'max-tokens' })
    expect(read('synthetic-safety.sse').finish).toMatchObject({
      kind: 'error',
      failure: { code: 'PI_AI_ERROR', message: 'An unknown error occurred' },
    })
    expect(read('synthetic-empty-stop.sse').finish).toMatchObject({
      kind: 'error',
      failure: { code: 'EMPTY_RESPONSE' },
    })
  })

  it('a body cut mid-event fails as the SDK does; the second candidate and inline data are named', () => {
    const cut = read('synthetic-thinking-text-tools-truncated.sse')
    expect(cut.finish).toMatchObject({
      kind: 'error',
      failure: { message: 'Incomplete JSON segment at the end' },
    })
    expect(cut.messages.join('\n')).toMatch(/text after its last blank line/)
    const two = read('synthetic-two-candidates-inline-data.sse')
    expect(two.blocks).toEqual([{ type: 'text', text: 'First.' }])
    expect(two.messages.join('\n')).toContain('2 candidates: pi-ai reads the first only')
    expect(two.messages.join('\n')).toContain('inlineData ×1')
  })
})
