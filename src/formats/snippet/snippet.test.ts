import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../registry'
import { loadSource } from '../load'
import { wireEvent } from '../wire'
import { LiteralParser, tokenize } from './literal'
import { blankGutter, readYields } from './readSnippet'
import { be, bs, finish, tcd, td, toolCall, usage } from '../../test/chunks'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
const literal = (code: string) => new LiteralParser(tokenize(code), 0).parseValue()

describe('literal parser (never evaluates)', () => {
  it('reads JS literal syntax: quotes, templates, numbers, comments, trailing commas, nesting', () => {
    expect(
      literal(`{
        a: 'it\\'s', "b": "x\\ny", c: \`plain
two\`, // comment
        d: [1, -2.5, 0x10, 1_000, 1e3, .5,], /* block */ e: { f: null, g: true, h: false, u: undefined },
        'quoted-key': 'k', 7: 'seven',
      }`),
    ).toEqual({
      a: "it's",
      b: 'x\ny',
      c: 'plain\ntwo',
      d: [1, -2.5, 16, 1000, 1000, 0.5],
      e: { f: null, g: true, h: false },
      'quoted-key': 'k',
      7: 'seven',
    })
  })

  it("reads CallId('…'), JSON.stringify of a literal, string concatenation and `as const`", () => {
    expect(
      literal(
        `{ id: CallId('call-123'), args: JSON.stringify({ path: 'a.ts' }), s: 'a' + "b" + \`c\` } as const`,
      ),
    ).toEqual({ id: 'call-123', args: '{"path":"a.ts"}', s: 'abc' })
  })

  it('refuses what needs evaluation, with the line', () => {
    const refused = (code: string) => {
      try {
        literal(code)
        return null
      } catch (error) {
        return [(error as Error).message, (error as { line: number }).line]
      }
    }
    expect(refused('{ text: greeting }')).toEqual([
      '`greeting` is an expression that needs evaluation (a variable or a call)',
      1,
    ])
    expect(refused('{\n text: `hi ${name}` }')).toEqual(['a template literal with ${…} needs evaluation', 2])
    expect(refused('{ ...base }')).toEqual(['a spread (...) needs evaluation', 1])
    expect(refused('{ text }')).toEqual(['shorthand property `text` refers to a variable', 1])
    expect(refused('{ n: compute() }')).toEqual([
      '`compute(…)` is an expression that needs evaluation (a variable or a call)',
      1,
    ])
  })
})

describe('blankGutter', () => {
  it('blanks runs of 1, 2, 3… line numbers and keeps offsets', () => {
    const text = 'prose 12 apples\n 1// a\n 2x\n 3  yield {}\n\n10 not a gutter\n'
    const blanked = blankGutter(text)
    expect(blanked).toBe('prose 12 apples\n  // a\n  x\n    yield {}\n\n10 not a gutter\n')
    expect(blanked.length).toBe(text.length)
  })
})

describe('pasted snippets', () => {
  const expected = (text: string, sample: string) => [
    bs(0, 'text'),
    td(0, sample),
    td(0, ' 教程'),
    be(0, { type: 'text', text: `${sample} 教程` }),
    bs(1, 'tool-call'),
    tcd(1, 'call-123', 'bash', `{"command":"echo ${text}"}`),
    be(1, toolCall('call-123', 'bash', `{"command":"echo ${text}"}`)),
    usage(100, 50),
    finish('stop'),
  ]

  it("reads the seed article's exampleChunks (Japanese, as printed)", () => {
    const source = loadSource(fixture('seed-004-example-chunks.ts.txt'))
    expect(source.format).toBe('js-snippet')
    expect(source.diagnostics).toEqual([])
    const stream = source.sessions[0]!.streams[0]!
    expect(stream.chunks.map((c) => c.chunk)).toEqual(expected('サンプル', 'サンプル'))
    expect(stream.wire!.count).toBe(9)
    const fourth = wireEvent(stream.wire!, 3)!
    expect(fourth.line).toBe(16)
    // the article's indentation is U+00A0 + space, as copied from the page: whitespace to the tokenizer
    expect(fourth.raw).toMatch(/^yield \{\n[\u00a0 ]+type: 'block-end'/)
    expect(fourth.chunkPositions).toEqual([3])
  })

  it("reads the seed article's exampleChunks copied with its line-number gutter (Chinese)", () => {
    const source = loadSource(fixture('seed-000-example-chunks-gutter.txt'))
    expect(source.format).toBe('js-snippet')
    expect(source.diagnostics).toEqual([])
    expect(source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)).toEqual(expected('runoob', 'runoob'))
  })

  it('reads a whole pasted article: one stream per generator, prose ignored', () => {
    const source = loadSource(fixture('seed-000-article.txt'))
    expect(source.format).toBe('js-snippet')
    const streams = source.sessions[0]!.streams
    expect(streams.map((s) => [s.id, s.chunks.length])).toEqual([
      ['exampleChunks', 9],
      ['stream', 1],
    ])
    expect(streams[0]!.chunks.map((c) => c.chunk)).toEqual(expected('runoob', 'runoob'))
    expect(source.diagnostics).toEqual([
      { severity: 'info', message: '2 generators yield chunks: one stream each (exampleChunks, stream)' },
    ])
  })

  it('skips what needs evaluation with a line-numbered warning and keeps the rest', () => {
    const source = loadSource(fixture('snippet-unsupported.ts.txt'))
    expect(source.format).toBe('js-snippet')
    expect(source.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [8, 'line 8: yield skipped: `greeting` is an expression that needs evaluation (a variable or a call)'],
      [9, 'line 9: yield skipped: a template literal with ${…} needs evaluation'],
      [24, 'line 24: yield skipped: a spread (...) needs evaluation'],
      [30, 'line 30: yield skipped: `yield*` delegates to another generator: not followed'],
    ])
    const chunks = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
    expect(chunks.map((c) => c.type)).toEqual([
      'block-start',
      'text-delta',
      'block-end',
      'block-start',
      'tool-call-delta',
      'block-end',
      'usage',
      'finish',
    ])
    expect(chunks[1]).toEqual({ type: 'text-delta', index: 0, text: 'Hello, world' })
    expect(chunks[4]).toMatchObject({ argumentsDelta: '{"path":"README.md","limit":2000}' })
    expect(chunks[6]).toEqual({ type: 'usage', usage: { inputTokens: 64, outputTokens: 10 } })
  })

  it('reads a truncated snippet up to the cut, reporting the unfinished yield', () => {
    const source = loadSource(fixture('seed-004-example-chunks-truncated.ts.txt'))
    expect(source.format).toBe('js-snippet')
    expect(source.sessions[0]!.streams[0]!.chunks).toHaveLength(5)
    expect(source.diagnostics).toEqual([
      expect.objectContaining({
        line: 26,
        severity: 'warning',
        message: expect.stringContaining('yield skipped'),
      }),
    ])
  })

  it("maps the seed tutorial's simplified mockStream through §12", () => {
    const code =
      "typescript async function* mockStream(): AsyncIterable<StreamChunk> { yield { type: 'text', content: 'Hello' } yield { type: 'text', content: ', world!' } yield { type: 'done', reason: 'stop' } }"
    const source = loadSource(code)
    expect(source.format).toBe('js-snippet')
    expect(source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk.type)).toEqual([
      'block-start',
      'text-delta',
      'text-delta',
      'block-end',
      'finish',
    ])
    expect(source.sessions[0]!.streams[0]!.wire!.format).toBe('simplified-stream')
  })

  it('finds yields in text order and never runs the code', () => {
    const code =
      "function* f() { globalThis.pwned = true; yield { type: 'finish', reason: { kind: 'stop' } } }"
    expect(readYields(code)).toEqual([
      expect.objectContaining({ ok: true, value: { type: 'finish', reason: { kind: 'stop' } }, line: 1 }),
    ])
    expect((globalThis as { pwned?: boolean }).pwned).toBeUndefined()
  })

  it('is detected last: data formats containing "yield {" stay theirs', () => {
    expect(detectFormat("yield { type: 'finish', reason: { kind: 'stop' } }")).toBe('js-snippet')
    expect(detectFormat('[{"type":"text-delta","index":0,"text":"yield { x }"}]')).toBe('chunk-json')
    expect(detectFormat('data: {"choices":[{"delta":{"content":"yield {"}}]}\n\n')).toBe('openai-sse')
    expect(detectFormat('function f() { return 1 }')).toBeNull()
  })
})
