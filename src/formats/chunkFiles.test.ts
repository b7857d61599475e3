import { describe, expect, it } from 'vitest'
import { block, jsonl } from '../test/builders'
import { be, bs, finish, td } from '../test/chunks'
import { readChunkJson, readChunkNdjson } from './chunkFiles'

describe('readChunkJson', () => {
  it('reads an array of chunks: seq is the 0-based position, time is null', () => {
    const chunks = [bs(0, 'text'), td(0, 'hi'), be(0, block.text('hi')), finish('stop')]
    const read = readChunkJson(JSON.stringify(chunks, null, 2))
    expect(read.chunks).toEqual(chunks.map((c, seq) => ({ seq, time: null, chunk: c })))
    expect(read.diagnostics).toEqual([])
  })

  it('keeps objects of unknown type (the engine reports them) and skips items that are no chunk', () => {
    const read = readChunkJson(JSON.stringify([td(0, 'a'), 7, { type: 'ping' }, { index: 0 }]))
    expect(read.chunks.map((c) => [c.seq, c.chunk.type])).toEqual([
      [0, 'text-delta'],
      [1, 'ping'],
    ])
    expect(read.diagnostics).toEqual([
      { severity: 'error', message: 'item 1: not a StreamChunk: not a JSON object (got number); skipped' },
      { severity: 'error', message: 'item 3: not a StreamChunk: no string "type" (got undefined); skipped' },
    ])
  })

  it('keeps a known chunk with a missing field, with a warning', () => {
    const read = readChunkJson('[{"type":"block-end","index":0}]')
    expect(read.chunks).toHaveLength(1)
    expect(read.diagnostics).toEqual([
      { severity: 'warning', message: 'item 0: block-end has no "block" object (got undefined)' },
    ])
  })

  it('reports malformed JSON and a non-array without throwing', () => {
    expect(readChunkJson('[{"type":').diagnostics[0]!.message).toMatch(/^malformed JSON: .+; no chunks read$/)
    expect(readChunkJson('{"type":"finish"}').diagnostics).toEqual([
      { severity: 'error', message: 'expected a JSON array of StreamChunks, got object; no chunks read' },
    ])
  })
})

describe('readChunkNdjson', () => {
  it('reads one chunk per line, skipping blank lines', () => {
    const text = `${JSON.stringify(td(0, 'a'))}\n\n   \n${JSON.stringify(finish('stop'))}\n`
    const read = readChunkNdjson(text)
    expect(read.chunks).toEqual([
      { seq: 0, time: null, chunk: td(0, 'a') },
      { seq: 1, time: null, chunk: finish('stop') },
    ])
    expect(read.diagnostics).toEqual([])
  })

  it('reports bad lines with their numbers and keeps the rest, including a last line without newline', () => {
    const text = jsonl(td(0, 'a'), '{oops', '[1]', { type: 'mystery' }) + JSON.stringify(finish('stop'))
    const read = readChunkNdjson(text)
    expect(read.chunks.map((c) => `${c.seq} ${c.chunk.type}`)).toEqual([
      '0 text-delta',
      '1 mystery',
      '2 finish',
    ])
    expect(read.diagnostics.map((d) => [d.line, d.severity])).toEqual([
      [2, 'error'],
      [3, 'error'],
    ])
    expect(read.diagnostics[0]!.message).toMatch(/^line 2: malformed JSON: .+; line skipped$/)
    expect(read.diagnostics[1]!.message).toBe(
      'line 3: not a StreamChunk: not a JSON object (got array); skipped',
    )
  })

  it('warns about a known chunk with a field of the wrong type and keeps it', () => {
    const read = readChunkNdjson(
      jsonl({ type: 'tool-call-delta', index: 0, id: 'c', name: 3, argumentsDelta: '' }),
    )
    expect(read.chunks).toHaveLength(1)
    expect(read.diagnostics).toEqual([
      { line: 1, severity: 'warning', message: 'line 1: tool-call-delta has no string "name" (got number)' },
    ])
  })
})
