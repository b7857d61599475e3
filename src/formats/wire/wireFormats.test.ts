import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import type { ContentBlock } from '../../core/protocol'
import type { Attempt } from '../../core/session'
import { loadSource } from '../load'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/wire/${name}`, import.meta.url), 'utf8')
const stream = (name: string): Attempt => {
  const source = loadSource(fixture(name), name)
  expect(source.sessions).toHaveLength(1)
  return source.sessions[0]!.streams[0]!
}
const assembled = (attempt: Attempt) => analyzeStream(attempt.chunks)
const toolCalls = (blocks: readonly ContentBlock[] | null) =>
  (blocks ?? []).filter((b) => b.type === 'tool-call') as { id: string; name: string; arguments: string }[]
/** The raw JSON lines of a body (NDJSON, or each SSE `data:` line), parsed: what the provider sent. */
const sent = (text: string): Record<string, unknown>[] =>
  text
    .split('\n')
    .map((line) => line.replace(/^data: /, ''))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value)

describe('Ollama NDJSON', () => {
  it('/api/chat: thinking, text and a whole tool call, each its own block; usage from the eval counts; tool-calls', () => {
    const lines = sent(fixture('ollama-chat-thinking-tools.ndjson'))
    const result = assembled(stream('ollama-chat-thinking-tools.ndjson'))
    const thinking = lines.map((l) => at(l, 'message', 'thinking') ?? '').join('')
    const content = lines.map((l) => at(l, 'message', 'content') ?? '').join('')
    expect(result.blocks?.slice(0, 2)).toEqual([
      { type: 'reasoning', text: thinking },
      { type: 'text', text: content },
    ])
    const call = at(lines[4], 'message', 'tool_calls') as { function: { name: string; arguments: unknown } }[]
    const [tool] = toolCalls(result.blocks)
    expect(tool!.name).toBe(call[0]!.function.name)
    expect(JSON.parse(tool!.arguments)).toEqual(call[0]!.function.arguments)
    const done = lines.at(-1)!
    expect(result.usage).toEqual({ inputTokens: done['prompt_eval_count'], outputTokens: done['eval_count'] })
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    expect(result.findings.map((f) => f.rule)).toContain('tool-call-id-missing')
  })

  it('/api/generate: `response` text, done_reason length → max-tokens', () => {
    const result = assembled(stream('ollama-generate-length.ndjson'))
    expect(result.blocks).toEqual([{ type: 'text', text: 'The sky is blue because of Rayleigh' }])
    expect(result.finish).toEqual({ kind: 'max-tokens' })
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3 })
  })

  it('a torn last line is named by line and offset; the stream ends TRANSPORT with what came before', () => {
    const text = fixture('ollama-chat-torn.ndjson')
    const source = loadSource(text)
    const offset = text.lastIndexOf('\n', text.length - 1) + 1
    expect(source.diagnostics[0]!.message).toBe(
      `line 6 (offset ${offset}): the last line is cut short (no line break and not whole JSON: Unterminated string in JSON at position ${text.length - offset}): not read`,
    )
    const result = assembled(source.sessions[0]!.streams[0]!)
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'TRANSPORT' } })
    expect(toolCalls(result.blocks)).toHaveLength(1)
  })

  it('a line of bad JSON is named by line and offset and skipped, as ollama-js skips it; the rest is read', () => {
    const text = fixture('ollama-chat-bad-json.ndjson')
    const source = loadSource(text)
    const offset = text.split('\n').slice(0, 2).join('\n').length + 1
    expect(source.diagnostics[0]).toMatchObject({ line: 3, severity: 'error' })
    expect(source.diagnostics[0]!.message).toMatch(
      new RegExp(`^line 3 \\(offset ${offset}\\): not JSON .*: skipped`),
    )
    const result = assembled(source.sessions[0]!.streams[0]!)
    // ollama-js 0.6.4 fed this body yields the same parts: its line parser logs the bad line and reads on.
    expect(result.blocks!.slice(0, 2)).toEqual([
      { type: 'reasoning', text: 'The user wants the weather.' },
      { type: 'text', text: ' that for you.' },
    ])
    expect(result.finish).toEqual({ kind: 'tool-calls' })
  })

  it('the body that used to be refused by name is read now', () => {
    const text = readFileSync(new URL('../fixtures/ollama-chat.ndjson', import.meta.url), 'utf8')
    const result = assembled(loadSource(text).sessions[0]!.streams[0]!)
    expect(result.blocks).toEqual([{ type: 'text', text: 'The sky' }])
    expect(result.usage).toEqual({ inputTokens: 26, outputTokens: 282 })
    expect(result.finish).toEqual({ kind: 'stop' })
  })
})

describe('Cohere v2 SSE (recorded by the Vercel AI SDK)', () => {
  it('tool plan as reasoning, two streamed tool calls whose arguments are JSON-equal to the deltas sent', () => {
    const events = sent(fixture('cohere-tool-call.sse'))
    const result = assembled(stream('cohere-tool-call.sse'))
    const plan = events.map((e) => at(e, 'delta', 'message', 'tool_plan') ?? '').join('')
    expect(result.blocks![0]).toEqual({ type: 'reasoning', text: plan })
    const argsOf = (index: number) =>
      events
        .filter((e) => e['type'] === 'tool-call-delta' && e['index'] === index)
        .map((e) => at(e, 'delta', 'message', 'tool_calls', 'function', 'arguments'))
        .join('')
    const starts = events.filter((e) => e['type'] === 'tool-call-start')
    expect(toolCalls(result.blocks).map((t) => [t.id, t.name, JSON.parse(t.arguments)])).toEqual(
      starts.map((s, i) => [
        at(s, 'delta', 'message', 'tool_calls', 'id'),
        at(s, 'delta', 'message', 'tool_calls', 'function', 'name'),
        JSON.parse(argsOf(i)),
      ]),
    )
    const end = events.at(-1)!
    expect(result.usage).toEqual({
      inputTokens: at(end, 'delta', 'usage', 'tokens', 'input_tokens'),
      outputTokens: at(end, 'delta', 'usage', 'tokens', 'output_tokens'),
    })
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    // The arguments close re-serialised (`{"location":"San Francisco"}`), unlike the spaced deltas: as on pi-ai's route.
    expect(result.findings.map((f) => [f.rule, f.pos])).toEqual([
      ['end-content-mismatch', 37],
      ['end-content-mismatch', 46],
    ])
  })

  it('thinking content, then text; COMPLETE → stop', () => {
    const events = sent(fixture('cohere-reasoning.sse'))
    const join = (field: string) =>
      events.map((e) => at(e, 'delta', 'message', 'content', field) ?? '').join('')
    const result = assembled(stream('cohere-reasoning.sse'))
    expect(result.blocks).toEqual([
      { type: 'reasoning', text: join('thinking') },
      { type: 'text', text: join('text') },
    ])
    expect(result.finish).toEqual({ kind: 'stop' })
  })

  it('an empty tool call has arguments {}; citations are named and dropped', () => {
    expect(toolCalls(assembled(stream('cohere-empty-tool-call.sse')).blocks)[0]!.arguments).toBe('{}')
    const source = loadSource(fixture('cohere-citations.sse'))
    expect(source.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(/citations: .*\(2 events\)/),
    )
  })

  it('a torn body and bad JSON mid-stream: named by line and offset, in-band failures', () => {
    const torn = loadSource(fixture('cohere-tool-call-torn.sse'))
    expect(torn.diagnostics[0]!.message).toMatch(
      /^line 139 \(offset \d+\): the body's last event has no blank line/,
    )
    expect(assembled(torn.sessions[0]!.streams[0]!).finish).toMatchObject({ failure: { code: 'TRANSPORT' } })
    const bad = loadSource(fixture('cohere-tool-call-bad-json.sse'))
    expect(bad.diagnostics[0]).toMatchObject({ line: 91, severity: 'error' })
    expect(assembled(bad.sessions[0]!.streams[0]!).finish).toMatchObject({
      failure: { code: 'MALFORMED_RESPONSE' },
    })
  })
})

describe('Vercel AI SDK', () => {
  it('UI message stream: blocks by part id, tool input JSON-equal to tool-input-available, usage from metadata', () => {
    const parts = sent(fixture('ai-sdk-ui-stream.sse'))
    for (const name of ['ai-sdk-ui-stream.sse', 'ai-sdk-ui-stream.http']) {
      const result = assembled(stream(name))
      expect(result.blocks!.map((b) => b.type)).toEqual(['reasoning', 'text', 'tool-call', 'text'])
      const available = parts.find((p) => p['type'] === 'tool-input-available')!
      const [tool] = toolCalls(result.blocks)
      expect([tool!.id, tool!.name]).toEqual([available['toolCallId'], available['toolName']])
      expect(JSON.parse(tool!.arguments)).toEqual(available['input'])
      expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 18 })
      expect(result.finish).toEqual({ kind: 'stop' })
      // Two steps in one stream: the finish is the last step's, so the first step's tool call is flagged.
      expect(result.findings.map((f) => f.rule)).toEqual(['finish-reason-inconsistent'])
    }
  })

  it('an error part fails the stream in band, classified as the route classifies (RATE_LIMIT)', () => {
    const result = assembled(stream('ai-sdk-ui-stream-error.sse'))
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'RATE_LIMIT' } })
    expect(result.interruptedBlocks).toEqual([{ type: 'text', text: 'Partial' }])
  })

  it('torn and bad-JSON UI streams: named by line and offset', () => {
    const torn = loadSource(fixture('ai-sdk-ui-stream-torn.sse'))
    expect(torn.diagnostics[0]!.message).toMatch(/^line 35 \(offset \d+\)/)
    const bad = loadSource(fixture('ai-sdk-ui-stream-bad-json.sse'))
    expect(bad.diagnostics[0]!.message).toMatch(/^line 15 \(offset \d+\): event data is not JSON/)
  })

  it("devtools' stored generations: each streamed step, its collected output as the recorded message", () => {
    const source = loadSource(fixture('devtools-generations.json'))
    expect(source.format).toBe('ai-sdk-devtools')
    const attempt = source.sessions[0]!.streams[0]!
    const result = assembled(attempt)
    expect(result.blocks).toEqual(attempt.recorded!.content)
    expect(JSON.parse(toolCalls(result.blocks)[0]!.arguments)).toEqual({ q: 'chunkscope' })
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 12, cacheReadTokens: 20 })
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    expect(source.diagnostics.map((d) => d.message)).toContain(
      '1 generate step (no stream: nothing to replay) not shown',
    )
  })
})

describe('a HAR holding these bodies', () => {
  it('opens each as its wire', () => {
    const source = loadSource(fixture('wire-bodies.har'))
    const streams = source.sessions[0]!.streams
    expect(streams.map((s) => s.wire?.format)).toEqual(['ollama-ndjson', 'cohere-sse', 'ai-sdk-ui-sse'])
    expect(streams.map((s) => assembled(s).finish.kind)).toEqual(['tool-calls', 'tool-calls', 'stop'])
  })
})
