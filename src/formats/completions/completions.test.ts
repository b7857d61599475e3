import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import type { Attempt } from '../../core/session'
import { expectSameStreamInHar } from '../../test/harEntry'
import { loadSource } from '../load'
import { mapFinishReason, mapUsage } from '../sse/openai'

/** Legacy OpenAI Completions SSE (docs/protocol.md §9, "Legacy OpenAI Completions"). */
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/completions/${name}`, import.meta.url), 'utf8')
const open = (name: string) => {
  const source = loadSource(fixture(name), name)
  expect(source.format).toBe('openai-completions-sse')
  return source
}
const stream = (name: string): Attempt => open(name).sessions[0]!.streams[0]!
/** The `data:` payloads the provider sent, parsed. */
const sent = (name: string): Record<string, unknown>[] =>
  fixture(name)
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
type Choice = { text: string; index: number; finish_reason: string | null }
const choicesOf = (name: string, index = 0): Choice[] =>
  sent(name).flatMap((p) => (p['choices'] as Choice[]).filter((c) => c.index === index))

describe('legacy OpenAI Completions SSE', () => {
  it('choice 0 text is one text block; finish and the trailing usage chunk mapped as the chat route maps them', () => {
    const name = 'gpt-instruct-usage.sse'
    const result = analyzeStream(stream(name).chunks)
    const choices = choicesOf(name)
    expect(result.blocks).toEqual([{ type: 'text', text: choices.map((c) => c.text).join('') }])
    expect(result.finish).toEqual(mapFinishReason(choices.at(-1)!.finish_reason!))
    expect(result.finish).toEqual({ kind: 'stop' })
    const usage = sent(name).at(-1)!['usage'] as { prompt_tokens: number; completion_tokens: number }
    expect(result.usage).toEqual({ inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens })
    expect(result.findings).toEqual([])
  })

  it("the chunk order is the chat route's: deltas as they come; block-end, usage, finish at [DONE]", () => {
    const types = stream('vllm-usage.sse').chunks.map((c) => c.chunk.type)
    expect(types).toEqual(['block-start', 'text-delta', 'text-delta', 'block-end', 'usage', 'finish'])
    expect(analyzeStream(stream('vllm-usage.sse').chunks).usage).toEqual(
      mapUsage(sent('vllm-usage.sse').at(-1)!['usage']),
    )
  })

  it('finish_reason length → max-tokens; logprobs are named as dropped', () => {
    const source = open('logprobs-length.sse')
    expect(analyzeStream(source.sessions[0]!.streams[0]!.chunks).finish).toEqual({ kind: 'max-tokens' })
    expect(source.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(/logprobs.*not kept \(5 events\)/),
    )
  })

  it("content_filter → an error with code CONTENT_FILTER; Azure's prompt-filter chunk opens nothing", () => {
    const result = analyzeStream(stream('azure-content-filter.sse').chunks)
    expect(result.finish).toEqual({
      kind: 'error',
      failure: { message: 'model stopped: content_filter', code: 'CONTENT_FILTER' },
    })
    expect(result.blocks).toEqual([{ type: 'text', text: 'Once upon a time' }])
  })

  it('n > 1: choice 0 only, the others named with how many were dropped', () => {
    const name = 'n2-choices.sse'
    const source = open(name)
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.blocks).toEqual([
      {
        type: 'text',
        text: choicesOf(name)
          .map((c) => c.text)
          .join(''),
      },
    ])
    const dropped = choicesOf(name, 1).length
    expect(source.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(new RegExp(`only choice 0 is read.*\\(${dropped} events\\)`)),
    )
  })

  it('a torn body: named by line and offset, STREAM_CLOSED, the text before it kept', () => {
    const text = fixture('gpt-instruct-usage-torn.sse')
    const source = open('gpt-instruct-usage-torn.sse')
    const offset = text.lastIndexOf('data: ')
    const line = text.slice(0, offset).split('\n').length
    expect(source.diagnostics[0]!.message).toBe(
      `line ${line} (offset ${offset}): the body's last event has no blank line after it (cut short?): an SSE parser never dispatches it`,
    )
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'STREAM_CLOSED' } })
    expect(result.interruptedBlocks).toEqual([{ type: 'text', text: '\n\nThe capital of France is Paris.' }])
  })

  it('bad JSON mid-stream: named by line and offset, MALFORMED_RESPONSE there, nothing after it read', () => {
    const text = fixture('gpt-instruct-usage-bad-json.sse')
    const source = open('gpt-instruct-usage-bad-json.sse')
    const offset = text.lastIndexOf('data: ', text.indexOf('" France"'))
    const line = text.slice(0, offset).split('\n').length
    expect(source.diagnostics[0]).toMatchObject({ line, severity: 'error' })
    expect(source.diagnostics[0]!.message).toMatch(
      new RegExp(`^line ${line} \\(offset ${offset}\\): event data is not JSON`),
    )
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'MALFORMED_RESPONSE' } })
    expect(result.interruptedBlocks).toEqual([{ type: 'text', text: '\n\nThe capital of' }])
  })

  it('a stop with no text is EMPTY_RESPONSE, as on the chat route', () => {
    const body =
      'data: {"object":"text_completion","choices":[{"text":"","index":0,"logprobs":null,"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    const source = loadSource(body)
    expect(analyzeStream(source.sessions[0]!.streams[0]!.chunks).finish).toMatchObject({
      kind: 'error',
      failure: { code: 'EMPTY_RESPONSE' },
    })
  })

  it('inside a HAR entry it opens as the same stream, named as openai-completions-sse', () => {
    expectSameStreamInHar(fixture('gpt-instruct-usage.sse'), 'openai-completions-sse')
  })

  it('in a HAR whose request asked for echo, the echoed prompt at the start of the text is said', () => {
    const entry = {
      request: {
        method: 'POST',
        url: 'https://api.openai.com/v1/completions',
        postData: { mimeType: 'application/json', text: '{"prompt":"Say this","echo": true,"stream":true}' },
      },
      response: { status: 200, content: { mimeType: 'text/event-stream', text: fixture('vllm-usage.sse') } },
    }
    const har = loadSource(JSON.stringify({ log: { entries: [entry] } }))
    expect(har.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(/^har1 \(POST [^)]+\): the request asked for "echo": true/),
    )
  })
})
