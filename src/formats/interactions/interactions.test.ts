import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import type { Attempt } from '../../core/session'
import { expectSameStreamInHar } from '../../test/harEntry'
import { loadSource } from '../load'

/** Gemini Interactions API SSE (docs/protocol.md §9, "Gemini Interactions"). */
const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/interactions/${name}`, import.meta.url), 'utf8')
const open = (name: string) => {
  const source = loadSource(fixture(name), name)
  expect(source.format).toBe('gemini-interactions-sse')
  return source
}
const stream = (name: string): Attempt => open(name).sessions[0]!.streams[0]!
type Event = Record<string, unknown> & { event_type: string; index?: number; delta?: Record<string, unknown> }
/** The events the provider sent, parsed from their `data:` lines. */
const sent = (name: string): Event[] =>
  fixture(name)
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as Event)
const deltas = (name: string, index: number) =>
  sent(name)
    .filter((e) => e.event_type.endsWith('.delta') && e.index === index)
    .map((e) => e.delta!)
const completedUsage = (name: string) =>
  (
    sent(name).find((e) => e.event_type.startsWith('interaction.complete'))!['interaction'] as {
      usage: Record<string, number>
    }
  ).usage

describe('Gemini Interactions SSE', () => {
  it('a thought step and a model_output step: reasoning then text, one block per step index, closed inline', () => {
    const name = 'steps-thought-text.sse'
    const attempt = stream(name)
    const result = analyzeStream(attempt.chunks)
    const summary = deltas(name, 0)
      .filter((d) => d['type'] === 'thought_summary')
      .map((d) => (d['content'] as { text: string }).text)
      .join('')
    const text = deltas(name, 1)
      .map((d) => d['text'])
      .join('')
    expect(result.blocks).toEqual([
      { type: 'reasoning', text: summary },
      { type: 'text', text },
    ])
    // Inline: block 0 ends before block 1 starts, as pi-ai's route closes blocks.
    const types = attempt.chunks.map((c) => `${c.chunk.type}${'index' in c.chunk ? c.chunk.index : ''}`)
    expect(types.indexOf('block-end0')).toBeLessThan(types.indexOf('block-start1'))
    const u = completedUsage(name)
    expect(result.usage).toEqual({
      inputTokens: u['total_input_tokens']! - u['total_cached_tokens']!,
      outputTokens: u['total_output_tokens']! + u['total_thought_tokens']!,
    })
    expect(result.finish).toEqual({ kind: 'stop' })
    expect(result.findings).toEqual([])
  })

  it('a function_call step: id and name from step.start, arguments from arguments_delta, JSON-equal; requires_action → tool-calls', () => {
    const name = 'steps-function-call.sse'
    const result = analyzeStream(stream(name).chunks)
    const start = sent(name).find((e) => e.event_type === 'step.start' && e.index === 2)!['step'] as Record<
      string,
      string
    >
    const args = deltas(name, 2)
      .map((d) => d['arguments'])
      .join('')
    const call = result.blocks!.find((b) => b.type === 'tool-call')!
    expect(call).toMatchObject({ id: start['id'], name: start['name'] })
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual(JSON.parse(args))
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    const u = completedUsage(name)
    expect(result.usage).toEqual({
      inputTokens: u['total_input_tokens']! - u['total_cached_tokens']!,
      outputTokens: u['total_output_tokens']! + u['total_thought_tokens']!,
      cacheReadTokens: u['total_cached_tokens'],
    })
  })

  it("the first revision's content events: a whole function_call delta is one tool call", () => {
    const name = 'content-function-call.sse'
    const result = analyzeStream(stream(name).chunks)
    const whole = deltas(name, 1)[0]!
    expect(result.blocks).toEqual([
      {
        type: 'text',
        text: deltas(name, 0)
          .map((d) => d['text'])
          .join(''),
      },
      {
        type: 'tool-call',
        id: whole['id'],
        name: whole['name'],
        arguments: JSON.stringify(whole['arguments']),
      },
    ])
    expect(result.finish).toEqual({ kind: 'tool-calls' })
  })

  it('server-side search steps open no block and are named; annotations are named', () => {
    const source = open('steps-google-search.sse')
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.blocks).toEqual([{ type: 'text', text: 'Spain won Euro 2024.' }])
    const messages = source.diagnostics.map((d) => d.message).join('\n')
    expect(messages).toContain('"google_search_call" step')
    expect(messages).toContain('"google_search_result" step')
    expect(messages).toContain('annotations')
  })

  it('an error event fails in band with its code and message, the text before it left open', () => {
    const result = analyzeStream(stream('error-mid-stream.sse').chunks)
    expect(result.finish).toEqual({
      kind: 'error',
      failure: {
        message: 'gateway_timeout: Deadline expired before operation could complete.',
        code: 'TIMEOUT',
      },
    })
    expect(result.interruptedBlocks).toEqual([{ type: 'text', text: 'The first' }])
  })

  it('torn before interaction.completed: named by line and offset, TRANSPORT, the tool call kept', () => {
    const text = fixture('steps-function-call-torn.sse')
    const source = open('steps-function-call-torn.sse')
    const offset = text.lastIndexOf('event: ')
    const line = text.slice(0, offset).split('\n').length
    expect(source.diagnostics[0]!.message).toMatch(
      new RegExp(`^line ${line} \\(offset ${offset}\\): the body's last event`),
    )
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'TRANSPORT' } })
    expect(result.blocks!.map((b) => b.type)).toEqual(['reasoning', 'text', 'tool-call'])
  })

  it('bad JSON mid-stream: named by line and offset, MALFORMED_RESPONSE, what came before kept', () => {
    const text = fixture('steps-function-call-bad-json.sse')
    const source = open('steps-function-call-bad-json.sse')
    const offset = text.lastIndexOf('event: ', text.indexOf('"arguments_delta"'))
    const line = text.slice(0, offset).split('\n').length
    expect(source.diagnostics[0]!.message).toMatch(
      new RegExp(`^line ${line} \\(offset ${offset}\\): event data is not JSON`),
    )
    const result = analyzeStream(source.sessions[0]!.streams[0]!.chunks)
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'MALFORMED_RESPONSE' } })
    expect(result.blocks!.slice(0, 2).map((b) => b.type)).toEqual(['reasoning', 'text'])
  })

  it('inside a HAR entry it opens as the same stream, named as gemini-interactions-sse', () => {
    expectSameStreamInHar(fixture('steps-function-call.sse'), 'gemini-interactions-sse')
  })
})
