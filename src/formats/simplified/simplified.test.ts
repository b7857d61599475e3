import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../registry'
import { loadSource } from '../load'
import { wireEvent } from '../wire'
import { translateSimplified } from './simplified'
import { be, bs, finish, td, text, usage } from '../../test/chunks'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
const items = (...values: unknown[]) => values.map((value, k) => ({ value, where: `item ${k}` }))

describe('simplified stream (docs/protocol.md §12)', () => {
  it("maps the seed's mockStream: text → one text block, done stop", () => {
    const { chunks, diagnostics } = translateSimplified(
      items(
        { type: 'text', content: 'Hello' },
        { type: 'text', content: ', world!' },
        { type: 'done', reason: 'stop' },
      ),
    )
    expect(chunks).toEqual([
      bs(0, 'text'),
      td(0, 'Hello'),
      td(0, ', world!'),
      be(0, text('Hello, world!')),
      finish('stop'),
    ])
    expect(diagnostics).toEqual([])
  })

  it('maps done reasons and usage', () => {
    const finishOf = (reason: string) =>
      translateSimplified(
        items({ type: 'done', reason, usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } }),
      ).chunks
    expect(finishOf('tool_use')).toEqual([usage(3, 2), finish('tool-calls')])
    expect(finishOf('length')[1]).toEqual(finish('max-tokens'))
    expect(finishOf('cancel')[1]).toEqual({
      type: 'finish',
      reason: { kind: 'aborted', failure: { message: 'cancelled', code: 'ABORTED' } },
    })
  })

  it('reads the tool fixture: tool calls as complete blocks, tool results as notes, unmapped fields listed', () => {
    const source = loadSource(fixture('tutorial-simplified-tools.ndjson'))
    expect(source.format).toBe('simplified-stream')
    const stream = source.sessions[0]!.streams[0]!
    const chunks = stream.chunks.map((c) => c.chunk)
    expect(chunks.map((c) => c.type)).toEqual([
      'block-start',
      'text-delta',
      'text-delta',
      'block-start',
      'tool-call-delta',
      'block-end',
      'block-start',
      'tool-call-delta',
      'block-end',
      'text-delta',
      'block-end',
      'usage',
      'finish',
    ])
    expect(chunks[10]).toEqual({
      type: 'block-end',
      index: 0,
      block: { type: 'text', text: '我来检查两个文件两个文件的内容如上...' },
    })
    expect(chunks[5]).toEqual({
      type: 'block-end',
      index: 1,
      block: {
        type: 'tool-call',
        id: 'call_1',
        name: 'file_edit',
        arguments: '{"action":"read","path":"src/index.ts"}',
      },
    })
    expect(source.diagnostics.filter((d) => d.line !== undefined).map((d) => [d.line, d.severity])).toEqual([
      [5, 'info'],
      [6, 'info'],
    ])
    expect(source.diagnostics.at(-1)!.message).toBe(
      'not mapped onto StreamChunks: tool_call.index (wire order; blocks are numbered by arrival) ×2, ' +
        'tool_result (kept as notes) ×2, done.usage.totalTokens',
    )
    // NDJSON keeps the line ↔ chunk pairing
    expect(wireEvent(stream.wire!, 4)).toMatchObject({ line: 5, chunkPositions: [] })
    expect(wireEvent(stream.wire!, 7)).toMatchObject({ line: 8, chunkPositions: [10, 11, 12] })
  })

  it('uses the last error for done error and keeps errors as notes (JSON array)', () => {
    const source = loadSource(fixture('tutorial-simplified-errors.json'))
    expect(source.format).toBe('simplified-stream')
    const chunks = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      reason: { kind: 'error', failure: { message: 'Invalid API key', code: 'UNKNOWN' } },
    })
    expect(source.diagnostics.filter((d) => d.message.startsWith('item 1: error'))).toHaveLength(1)
  })

  it('reads the truncated variant: the cut line is reported, no finish', () => {
    const source = loadSource(fixture('tutorial-simplified-truncated.ndjson'))
    expect(source.diagnostics.map((d) => d.severity)).toEqual(expect.arrayContaining(['error', 'warning']))
    expect(source.diagnostics.find((d) => d.severity === 'error')!.line).toBe(7)
    const chunks = source.sessions[0]!.streams[0]!.chunks
    expect(chunks.at(-1)!.chunk.type).toBe('block-end')
    expect(chunks.some((c) => c.chunk.type === 'finish')).toBe(false)
  })

  it('is detected before the StreamChunk readers and does not take their files', () => {
    expect(detectFormat('[{"type":"text","content":"Hello"}]')).toBe('simplified-stream')
    expect(detectFormat('[{"content":"Hello","type":"done"}]')).toBe('simplified-stream')
    expect(detectFormat('{"type":"text","content":"a"}\n{"type":"done","reason":"stop"}\n')).toBe(
      'simplified-stream',
    )
    expect(detectFormat('[{"type":"text-delta","index":0,"text":"a"}]')).toBe('chunk-json')
    expect(detectFormat('{"type":"text-delta","index":0,"text":"a"}\n')).toBe('chunk-ndjson')
    expect(detectFormat('[]')).toBe('chunk-json')
  })
})
