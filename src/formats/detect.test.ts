import { describe, expect, it } from 'vitest'
import { chunk, event, jsonl } from '../test/builders'
import { detectFormat } from './detect'

describe('detectFormat', () => {
  it('recognises a session log by its header line', () => {
    expect(detectFormat(jsonl(event.header(), event.turnStart(0, 1)))).toBe('dsh-session-jsonl')
  })

  it('recognises a session log from a torn header alone', () => {
    expect(detectFormat('{"type":"session","version":0,"id":"ab')).toBe('dsh-session-jsonl')
  })

  it('recognises a header with other spacing and leading blank lines', () => {
    expect(detectFormat('\n\n{ "type": "session", "version": 0 }\n')).toBe('dsh-session-jsonl')
  })

  it('recognises a session log without header from event lines (seq + type) and packed rows', () => {
    expect(detectFormat(jsonl(event.turnStart(0, 1), event.chunk(1, 1, 1, chunk.textDelta(0, 'a'))))).toBe(
      'dsh-session-jsonl',
    )
    expect(detectFormat(jsonl(event.textChunks(4, 1, 1, 0, ['a', 'b', 'c'])))).toBe('dsh-session-jsonl')
  })

  it('recognises a JSON array by its first character', () => {
    expect(detectFormat('  \n[{"type":"text-delta","index":0,"text":"a"}]')).toBe('chunk-json')
    expect(detectFormat('[')).toBe('chunk-json')
  })

  it('recognises NDJSON of chunks, even when a line before them is broken', () => {
    expect(detectFormat(jsonl(chunk.blockStart(0), chunk.textDelta(0, 'a')))).toBe('chunk-ndjson')
    expect(detectFormat(jsonl('{broken', chunk.finish()))).toBe('chunk-ndjson')
  })

  it('recognises nothing else', () => {
    expect(detectFormat('')).toBeNull()
    expect(detectFormat('hello world\n')).toBeNull()
    expect(detectFormat('{"type":"message_start"}\n{"type":"ping"}\n')).toBeNull()
    expect(detectFormat('data: {"choices":[]}\nhello\n\n')).toBeNull()
  })

  it('recognises raw SSE bodies (issue 5): OpenAI-compatible, and Anthropic by its event names', () => {
    expect(detectFormat('data: {"choices":[]}\n\n')).toBe('openai-sse')
    expect(detectFormat('event: message_start\ndata: {"type":"message_start"}\n\n')).toBe('anthropic-sse')
  })
})
