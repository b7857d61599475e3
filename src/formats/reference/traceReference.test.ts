import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { firstDivergence } from '../../core/firstDivergence'
import { compareRecorded } from '../../core/session'
import { loadSource } from '../load'
import { readTraceReferences, withReferences } from './traceReference'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/wire/${name}`, import.meta.url), 'utf8')

describe('a reference final from a trace export', () => {
  it('OTLP JSON lines: gen_ai.output.messages parts become blocks, tool arguments serialised', () => {
    const { references, diagnostics } = readTraceReferences(fixture('otlp-trace.jsonl'))
    expect(diagnostics).toEqual([])
    expect(references).toHaveLength(1)
    expect(references[0]!.where).toBe('span chat qwen3:8b (eee19b7ec3c1b174)')
    expect(references[0]!.content).toEqual([
      { type: 'reasoning', text: 'Weather needs a tool.' },
      { type: 'text', text: 'Checking Paris.' },
      { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","days":[1,2]}' },
      { type: 'text', text: 'It is 21°C.' },
    ])
  })

  it('a Langfuse-style export (attributes as an object) gives the same reference', () => {
    const otlp = readTraceReferences(fixture('otlp-trace.jsonl')).references[0]!.content
    expect(readTraceReferences(fixture('langfuse-trace.json')).references[0]!.content).toEqual(otlp)
  })

  it('dropped next to its stream it is the recorded message: a match, and a mismatch with its first divergence', () => {
    const stream = loadSource(fixture('ai-sdk-ui-stream.sse'), 'ai-sdk-ui-stream.sse')
    const matching = withReferences(stream, loadSource(fixture('otlp-trace.jsonl'), 'otlp-trace.jsonl'))
    const attempt = matching.sessions[0]!.streams[0]!
    expect(attempt.recorded!.source).toBe('otlp-trace.jsonl line 1, span chat qwen3:8b (eee19b7ec3c1b174)')
    expect(compareRecorded(attempt)!.match).toBe(true)
    // The stream's own source is untouched (new attempt objects).
    expect(stream.sessions[0]!.streams[0]!.recorded).toBeNull()

    const differs = withReferences(
      stream,
      loadSource(fixture('otlp-trace-mismatch.jsonl'), 'otlp-trace-mismatch.jsonl'),
    )
    const other = differs.sessions[0]!.streams[0]!
    expect(compareRecorded(other)!.match).toBe(false)
    const divergence = firstDivergence({
      chunks: other.chunks,
      expected: other.recorded!.content,
      missing: [],
    })
    expect(divergence).toMatchObject({ block: 3, field: 'text' })
  })

  it('alone it opens nothing and says how to pair it', () => {
    const source = loadSource(fixture('otlp-trace.jsonl'))
    expect(source.format).toBe('trace-reference')
    expect(source.sessions).toEqual([])
    expect(source.references).toHaveLength(1)
    expect(source.diagnostics[0]!.message).toMatch(/drop this file onto it .*--recorded FILE/)
  })

  it('an export without the attribute, or with a broken line, says so', () => {
    expect(readTraceReferences('{"resourceSpans":[]}').diagnostics.at(-1)!.message).toMatch(
      /no gen_ai.output.messages/,
    )
    const broken = fixture('otlp-trace.jsonl') + '{"resourceSpans": [\n'
    const read = readTraceReferences(broken)
    expect(read.references).toHaveLength(1)
    expect(read.diagnostics[0]).toMatchObject({ line: 2, severity: 'warning' })
  })

  it('the structured form (arrayValue of kvlistValue, as SDKs with complex attributes export it) reads the same', () => {
    // OTLP/JSON's AnyValue encoding of a JSON value; integers as decimal strings, as the spec writes them.
    const anyValue = (v: unknown): unknown =>
      typeof v === 'string'
        ? { stringValue: v }
        : typeof v === 'number'
          ? { intValue: String(v) }
          : Array.isArray(v)
            ? { arrayValue: { values: v.map(anyValue) } }
            : {
                kvlistValue: {
                  values: Object.entries(v as object).map(([key, value]) => ({
                    key,
                    value: anyValue(value),
                  })),
                },
              }
    const line = fixture('otlp-trace.jsonl')
    const expected = readTraceReferences(line).references[0]!.content
    const structured = line.replace(/\{"stringValue":("\[\{\\"role.*?\]")\}/, (_, json: string) =>
      JSON.stringify(anyValue(JSON.parse(JSON.parse(json) as string))),
    )
    expect(structured).toContain('kvlistValue')
    const read = readTraceReferences(structured)
    expect(read.diagnostics).toEqual([])
    expect(read.references[0]!.content).toEqual(expected)
  })

  it('a message recorded as {role, content} (before the conventions had parts) is one text block', () => {
    const value = JSON.stringify([{ role: 'assistant', content: '{"total": 12}' }])
    const otlp = { resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'chat gpt-4o', attributes: [] }] }] }] }
    otlp.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes = [
      { key: 'gen_ai.output.messages', value: { stringValue: value } },
    ] as never
    expect(readTraceReferences(JSON.stringify(otlp)).references[0]!.content).toEqual([
      { type: 'text', text: '{"total": 12}' },
    ])
  })
})
