import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { analyzeStream, type StreamResult } from '../../core/analyzeStream'
import { loadSource } from '../load'

// Recorded bodies from public projects (each folder's SOURCES.md names them). Every expectation below is computed
// from the recording itself — the text, reasoning, tool-call arguments, finish and usage the provider sent — by a
// plain reading of its event shapes, never from Chunkscope's output (docs/protocol.md §9).

type Json = Record<string, unknown>
type Sent = {
  reasoning: string
  text: string
  calls: { id?: string; name: string; arguments: unknown }[]
  finish: StreamResult['finish']
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; reasoningTokens?: number }
}

const dir = (name: string) => new URL(`../fixtures/${name}/`, import.meta.url)
const files = (name: string, ext: string) =>
  readdirSync(dir(name))
    .filter((f) => f.endsWith(ext))
    .sort()
const body = (name: string, file: string) => readFileSync(new URL(file, dir(name)), 'utf8')
/** The JSON payloads of a body: each NDJSON line, or each SSE `data:` line. */
const payloads = (text: string): Json[] =>
  text
    .split('\n')
    .map((line) => line.replace(/^data: ?/, ''))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json)
const at = (value: unknown, ...keys: (string | number)[]): unknown =>
  keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value)
const str = (value: unknown) => (typeof value === 'string' ? value : '')
const num = (value: unknown) => (typeof value === 'number' ? value : 0)

function read(folder: string, file: string) {
  const source = loadSource(body(folder, file), file)
  expect(source.sessions.flatMap((s) => s.streams)).toHaveLength(1)
  return { source, result: analyzeStream(source.sessions[0]!.streams[0]!.chunks) }
}

/** What the recording's blocks say, in the shape `Sent` compares. */
function assembledOf(result: StreamResult) {
  const blocks = result.blocks ?? []
  const join = (type: 'text' | 'reasoning') => blocks.map((b) => (b.type === type ? b.text : '')).join('')
  const calls = blocks.flatMap((b) =>
    b.type === 'tool-call'
      ? [{ id: b.id, name: b.name, arguments: JSON.parse(String(b.arguments)) as unknown }]
      : [],
  )
  return {
    reasoning: join('reasoning'),
    text: join('text'),
    calls,
    finish: result.finish,
    usage: result.usage,
  }
}

function expectRead(folder: string, file: string, sent: Sent) {
  const { result } = read(folder, file)
  const got = assembledOf(result)
  expect(got.reasoning).toBe(sent.reasoning)
  expect(got.text).toBe(sent.text)
  expect(got.calls).toEqual(sent.calls.map((c) => ({ id: c.id ?? '', ...c })))
  expect(got.finish).toEqual(sent.finish)
  expect(got.usage).toEqual(sent.usage)
}

describe('Cohere v2 SSE', () => {
  it('an ERROR finish says the reason Cohere gave in delta.error', () => {
    const { result } = read('cohere', 'synthetic-error-finish.sse')
    expect(result.finish).toMatchObject({
      kind: 'error',
      failure: {
        message: 'Provider finish_reason: ERROR: No valid response generated. Try updating messages',
      },
    })
  })
})

describe('legacy OpenAI Completions SSE, recorded by the AI SDK', () => {
  it('vercel-openai-completion-text.sse: choice 0 text, finish_reason length, the usage chunk', () => {
    const lines = payloads(body('completions-real', 'vercel-openai-completion-text.sse'))
    const usage = lines.map((l) => l['usage']).findLast((u) => u != null) as Json
    const reasons = lines.map((l) => at(l, 'choices', 0, 'finish_reason')).filter((r) => r != null)
    expect(reasons).toEqual(['length'])
    expect(read('completions-real', 'vercel-openai-completion-text.sse').source.format).toBe(
      'openai-completions-sse',
    )
    expectRead('completions-real', 'vercel-openai-completion-text.sse', {
      reasoning: '',
      text: lines.map((l) => str(at(l, 'choices', 0, 'text'))).join(''),
      calls: [],
      finish: { kind: 'max-tokens' },
      usage: { inputTokens: num(usage['prompt_tokens']), outputTokens: num(usage['completion_tokens']) },
    })
  })
})

describe('AI SDK UI message streams, made by @ai-sdk/langchain of recorded LangGraph runs', () => {
  const sentOf = (parts: Json[]): Sent => {
    const join = (type: string, key: string) =>
      parts.map((p) => (p['type'] === type ? str(p[key]) : '')).join('')
    const ids = [
      ...new Set(parts.filter((p) => p['type'] === 'tool-input-start').map((p) => p['toolCallId'])),
    ]
    const calls = ids.map((id) => {
      const mine = parts.filter((p) => p['toolCallId'] === id)
      const whole = mine.find((p) => p['type'] === 'tool-input-available')
      return {
        id: str(id),
        name: str(mine[0]!['toolName']),
        arguments:
          whole?.['input'] ??
          (JSON.parse(mine.map((p) => str(p['inputTextDelta'])).join('') || '{}') as unknown),
      }
    })
    // No finishReason is sent: the last step (after the last start-step) decides.
    const lastStep = parts.slice(parts.map((p) => p['type']).lastIndexOf('start-step'))
    const called = lastStep.some(
      (p) => p['type'] === 'tool-input-start' || p['type'] === 'tool-input-available',
    )
    return {
      reasoning: join('reasoning-delta', 'delta'),
      text: join('text-delta', 'delta'),
      calls,
      finish: called ? { kind: 'tool-calls' } : { kind: 'stop' },
      usage: { inputTokens: 0, outputTokens: 0 },
    }
  }
  it.each(files('ai-sdk-real', '.sse'))('%s', (file) => {
    const parts = payloads(body('ai-sdk-real', file))
    expect(parts.find((p) => p['type'] === 'finish')!['finishReason']).toBeUndefined()
    expect(read('ai-sdk-real', file).source.format).toBe('ai-sdk-ui-sse')
    expectRead('ai-sdk-real', file, sentOf(parts))
  })
})

describe('OpenAI-compatible chat SSE from third parties, recorded by the AI SDK and simonw/llm', () => {
  // The harness's DeepSeek adapter reads these (docs/protocol.md §9): `reasoning_content` and string `content`
  // joined, each tool call's argument pieces joined by wire index (a sent id or name replaces the stored one),
  // the last usage with cached tokens taken out of the input.
  const sentOf = (lines: Json[]): Sent => {
    const choices = lines.flatMap((l) => (Array.isArray(l['choices']) ? (l['choices'] as Json[]) : []))
    const calls = new Map<unknown, { id?: string; name: string; pieces: string }>()
    for (const c of choices)
      for (const t of (at(c, 'delta', 'tool_calls') as Json[] | undefined) ?? []) {
        const call = calls.get(t['index']) ?? { name: '', pieces: '' }
        if (typeof t['id'] === 'string') call.id = t['id']
        if (typeof at(t, 'function', 'name') === 'string') call.name = str(at(t, 'function', 'name'))
        call.pieces += str(at(t, 'function', 'arguments'))
        calls.set(t['index'], call)
      }
    const reasons = choices.map((c) => c['finish_reason']).filter((r) => typeof r === 'string')
    const usage = lines.map((l) => l['usage']).findLast((u) => u != null) as Json
    const cached = at(usage, 'prompt_tokens_details', 'cached_tokens')
    const reasoningTokens = at(usage, 'completion_tokens_details', 'reasoning_tokens')
    const reason = reasons.at(-1)
    return {
      reasoning: choices.map((c) => str(at(c, 'delta', 'reasoning_content'))).join(''),
      text: choices.map((c) => str(at(c, 'delta', 'content'))).join(''),
      calls: [...calls.values()].map((c) => ({
        id: c.id ?? '',
        name: c.name,
        arguments: JSON.parse(c.pieces) as unknown,
      })),
      finish:
        reason === 'tool_calls'
          ? { kind: 'tool-calls' }
          : reason === 'length'
            ? { kind: 'max-tokens' }
            : { kind: 'stop' },
      usage: {
        inputTokens: num(usage['prompt_tokens']) - num(cached),
        outputTokens: num(usage['completion_tokens']),
        ...(typeof cached === 'number' ? { cacheReadTokens: cached } : {}),
        ...(typeof reasoningTokens === 'number' ? { reasoningTokens } : {}),
      },
    }
  }
  const unreadable = ['vercel-mistral-reasoning.sse', 'simonw-llm-test_tools_streaming_variant_d--0.sse']
  const read100 = files('openai-real', '.sse').filter((f) => !unreadable.includes(f))
  it.each(read100)('%s', (file) => {
    expect(read('openai-real', file).source.format).toBe('openai-sse')
    expectRead('openai-real', file, sentOf(payloads(body('openai-real', file))))
  })

  it("Mistral's content parts (thinking, text) are what the harness's adapter cannot read: named, with a count", () => {
    const { source, result } = read('openai-real', 'vercel-mistral-reasoning.sse')
    expect(source.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /delta\.content is an array of parts.*\(3 events\)/,
    )
    expect(result.finish).toMatchObject({ kind: 'error', failure: { code: 'EMPTY_RESPONSE' } })
  })

  it('a tool call whose arguments are sent as null closes with empty arguments, which the checks name', () => {
    const { result } = read('openai-real', 'simonw-llm-test_tools_streaming_variant_d--0.sse')
    expect(result.blocks).toEqual([{ type: 'tool-call', id: '0', name: 'llm_version', arguments: '' }])
    expect(result.findings.map((f) => f.rule)).toContain('tool-arguments-invalid')
  })

  it('a body opening with " data:" (a field SSE parsers skip) is still a chat stream, the line named', () => {
    const { source, result } = read('openai-real', 'simonw-llm-test_tools_streaming_variant_c--0.sse')
    expect(source.diagnostics[0]).toMatchObject({ line: 1, severity: 'warning' })
    expect(result.finish).toEqual({ kind: 'tool-calls' })
  })
})
