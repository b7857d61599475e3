import { describe, expect, it } from 'vitest'
import { block, event, jsonl } from '../test/builders'
import { finish, td } from '../test/chunks'
import { generateStream } from '../test/generate'
import { streamAsSessionLog, toSessionJsonl } from './export/sessionJsonl'
import { loadSource } from './load'
import { FORMAT_LABELS, FORMATS, TEXT_FORMATS } from './registry'

describe('loadSource', () => {
  it('says "empty input" for blank text, with no sessions', () => {
    expect(loadSource(' \n\t\n', 'x.jsonl')).toEqual({
      format: null,
      name: 'x.jsonl',
      sessions: [],
      diagnostics: [{ severity: 'error', message: 'empty input' }],
    })
  })

  it('names what it expected and how the input starts when it recognises nothing', () => {
    expect(loadSource('\nHello, this is not a log at all, just some prose that goes on\n')).toEqual({
      format: null,
      sessions: [],
      diagnostics: [
        {
          line: 1,
          severity: 'error',
          message:
            'unrecognised format: expected a Chunkscope lesson (JSON or Markdown), a HAR file (browser devtools export), ' +
            'a Google Gemini streamGenerateContent body without alt=sse (a JSON array), ' +
            'an OTLP / Langfuse / Phoenix trace export holding gen_ai.output.messages, ' +
            "a recording of the harness's live WebSocket (server-request frames), " +
            'a DeepSeek Harness session log, ' +
            'an HTTP error body saved without its status line (JSON error or HTML page), ' +
            "the seed tutorial's simplified stream (text / tool_call / done), " +
            'a JSON array of StreamChunks, NDJSON of StreamChunks, ' +
            'AWS Bedrock ConverseStream events (decoded from their frames), an AWS Bedrock event stream saved as text, ' +
            'an Ollama /api/chat or /api/generate NDJSON stream, ' +
            'an Ollama stream printed one object over several lines (jq), a Cohere v2 chat SSE stream, ' +
            "the Vercel AI SDK's UI message stream (SSE), " +
            'a legacy OpenAI Completions (/v1/completions) SSE body, a Gemini Interactions API SSE body, ' +
            "@ai-sdk/devtools' stored generations (.devtools/generations.json), " +
            'a DeepSeek / OpenAI-compatible SSE body, an Anthropic Messages SSE body, ' +
            'an OpenAI Responses API SSE body, a Google Gemini streamGenerateContent SSE body or ' +
            'a JavaScript/TypeScript snippet that yields chunk literals; ' +
            'first line starts with "Hello, this is not a log at all, just so…"',
        },
      ],
    })
  })

  it('reads a session log into one session with its streams', () => {
    const text = jsonl(
      event.header(),
      event.turnStart(0, 1),
      event.chunk(1, 1, 1, td(0, 'hi')),
      event.chunk(2, 1, 1, finish('stop')),
      event.message(3, 1, 1, [block.text('hi')], [1, 2]),
      event.turnEnd(4, 1),
    )
    const source = loadSource(text, 'session.jsonl')
    expect(source.format).toBe('dsh-session-jsonl')
    expect(source.name).toBe('session.jsonl')
    expect(source.diagnostics).toEqual([])
    expect(source.sessions).toHaveLength(1)
    expect(source.sessions[0]!.header?.id).toBe('session-1')
    expect(source.sessions[0]!.streams.map((a) => [a.id, a.recorded?.seq])).toEqual([['t1.s1.a1', 3]])
  })

  it('reads a session log without header, with a warning', () => {
    const source = loadSource(jsonl(event.turnStart(0, 1), event.chunk(1, 1, 1, finish('stop'))))
    expect(source.format).toBe('dsh-session-jsonl')
    expect(source.sessions[0]!.header).toBeNull()
    expect(source.diagnostics.map((d) => d.severity)).toEqual(['warning'])
  })

  it('turns citation problems into diagnostics on the message line', () => {
    const text = jsonl(
      event.header(),
      event.chunk(0, 1, 1, td(0, 'a')),
      event.message(1, 1, 1, [block.text('a')], [0, 5]),
      event.message(2, 1, 2, []),
    )
    expect(loadSource(text).diagnostics).toEqual([
      {
        line: 3,
        severity: 'warning',
        message: 'line 3: assistant/message seq 1 cites 1 seq that are not in the log (5)',
      },
      {
        line: 4,
        severity: 'info',
        message:
          'line 4: assistant/message seq 2 has no sourceEventSeqs: unknown provenance (crash repair writes such, docs/protocol.md §6); not linked to a stream',
      },
    ])
  })

  it('reads a JSON array and NDJSON of chunks into one stream', () => {
    const chunks = [td(0, 'a'), finish('stop')]
    for (const [text, format] of [
      [JSON.stringify(chunks), 'chunk-json'],
      [jsonl(...chunks), 'chunk-ndjson'],
    ] as const) {
      const source = loadSource(text)
      expect(source.format).toBe(format)
      expect(source.sessions).toHaveLength(1)
      expect(source.sessions[0]!.header).toBeNull()
      expect(source.sessions[0]!.turns).toEqual([])
      expect(source.sessions[0]!.streams.map((s) => [s.id, s.chunks.length])).toEqual([['stream', 2]])
    }
  })

  it('yields no session and an error for an array with no chunks', () => {
    expect(loadSource('[]')).toEqual({
      format: 'chunk-json',
      sessions: [],
      diagnostics: [{ severity: 'error', message: 'no StreamChunks in the input' }],
    })
  })

  it('names every registered format once, and lists every text format when nothing fits', () => {
    const ids = FORMATS.map((f) => f.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(Object.keys(FORMAT_LABELS).sort()).toEqual([...ids].sort())
    const [unrecognised] = loadSource('hello world\n').diagnostics
    for (const format of TEXT_FORMATS) expect(unrecognised!.message).toContain(format.description)
  })
})

describe('parsing progress', () => {
  it('line readers report how far into a big text they are, in order', () => {
    const line = JSON.stringify({ type: 'text-delta', index: 0, text: 'x'.repeat(200) })
    const text = `${line}\n`.repeat(60_000) // ~13 MB
    const reports: [number, number][] = []
    const source = loadSource(text, 'big.ndjson', (done, total) => reports.push([done, total]))
    expect(source.format).toBe('chunk-ndjson')
    expect(reports.length).toBeGreaterThanOrEqual(3)
    expect(reports.every(([, total]) => total === text.length)).toBe(true)
    const done = reports.map(([d]) => d)
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(done.at(-1)!).toBeLessThan(text.length)
  })

  it('a session log’s bar runs on, in order, while its events are segmented into streams', () => {
    const text = toSessionJsonl(streamAsSessionLog(generateStream(80_000)))
    const reports: number[] = []
    const source = loadSource(text, 'session.jsonl', (done, total) => reports.push(done / total))
    expect(source.sessions[0]!.streams[0]!.chunks).toHaveLength(80_000)
    expect(reports).toEqual([...reports].sort((a, b) => a - b))
    // Segmenting reports past the lines' share of the bar, and the bar never passes its end.
    expect(reports.filter((r) => r > 0.6).length).toBeGreaterThanOrEqual(3)
    expect(Math.max(...reports)).toBeLessThanOrEqual(1)
  })
})
