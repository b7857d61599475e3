import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from '../../core/BlockAssembler'
import type { ContentBlock, SourcedChunk } from '../../core/protocol'
import { attemptDivergence } from '../../core/firstDivergence'
import { ReplayEngine } from '../../core/ReplayEngine'
import { buildStreamSession, compareRecorded } from '../../core/session'
import { knownStream, oddStream } from '../../test/arbitraries'
import { be, bs, finish, sourced, tcd, td, text, toolCall, usage } from '../../test/chunks'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { loadSource } from '../load'
import type { LoadedSource } from '../types'
import { buildSharePayload, openSharePayload, sessionFromRecords } from './payload'
import {
  FULL_REDACTION,
  maskJsonValues,
  redactChunks,
  redactEvents,
  redactText,
  type RedactionOptions,
} from './redact'
import { decodeShareLink, encodeShareLink } from './shareLink'

/** A block's shape: type, and the length of every string field (ids and names kept as they are). */
function shape(block: ContentBlock): unknown {
  if (block.type === 'tool-call') {
    const args = String(block['arguments'])
    return {
      type: 'tool-call',
      id: block['id'],
      name: block['name'],
      arguments: args.length,
      json: jsonShape(args),
    }
  }
  return Object.fromEntries(
    Object.entries(block).map(([key, value]) => [
      key,
      typeof value === 'string' && key !== 'type' ? value.length : value,
    ]),
  )
}

/** The structure of JSON text: keys and value kinds, or 'invalid'. */
function jsonShape(text: string): unknown {
  try {
    return kinds(JSON.parse(text))
  } catch {
    return 'invalid'
  }
}

function kinds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(kinds)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, kinds(v)]))
  return value === null ? 'null' : typeof value
}

function assemble(chunks: readonly SourcedChunk[]) {
  const assembler = new BlockAssembler()
  for (const s of chunks) assembler.push(s.chunk)
  let blocks: ContentBlock[] | string
  try {
    blocks = assembler.blocks()
  } catch (error) {
    blocks = String(error)
  }
  return {
    blocks,
    usage: assembler.usage,
    finish: assembler.finish,
    interrupted: assembler.interruptedBlocks(),
  }
}

function expectSameShape(original: readonly SourcedChunk[], redacted: readonly SourcedChunk[]): void {
  expect(redacted.map((s) => [s.seq, s.time, s.chunk.type])).toEqual(
    original.map((s) => [s.seq, s.time, s.chunk.type]),
  )
  const a = assemble(original)
  const b = assemble(redacted)
  expect(typeof b.blocks === 'string' ? b.blocks : b.blocks.map(shape)).toEqual(
    typeof a.blocks === 'string' ? a.blocks : a.blocks.map(shape),
  )
  expect(b.usage).toEqual(a.usage)
  expect(b.finish).toEqual(a.finish)
  // Same effects chunk by chunk: the assembler cannot tell the redacted stream from the original.
  expect(new ReplayEngine(redacted).effectCodes).toEqual(new ReplayEngine(original).effectCodes)
}

describe('placeholders', () => {
  it('text keeps length and whitespace', () => {
    expect(redactText('Hi there,\nBob\t!')).toBe('xx xxxxxx\nxxx\tx')
    expect(redactText('思考 🙂')).toHaveLength('思考 🙂'.length)
  })

  it('JSON values are masked, keys and structure kept, valid JSON stays valid', () => {
    expect(maskJsonValues('{"path": "/etc/passwd", "n": -42.5e3, "ok": true, "x": null}')).toBe(
      '{"path": "xxxxxxxxxxx", "n": -11.1e1, "ok": true, "x": null}',
    )
    expect(maskJsonValues('{"a":"q\\"uote","b":[1,"two",{"c":0}]}')).toBe(
      '{"a":"xxxxxxx","b":[1,"xxx",{"c":0}]}',
    )
    expect(maskJsonValues('{"cut": "sec')).toBe('{"cut": "xxx')
    expect(maskJsonValues('oops')).toBe('xxxx')
  })

  it('valid JSON of any shape stays valid, same shape, same length', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const masked = maskJsonValues(text)
        expect(masked).toHaveLength(text.length)
        expect(jsonShape(masked)).toEqual(jsonShape(text))
      }),
      { numRuns: 500 },
    )
  })

  it('masking arguments split anywhere equals masking them whole', () => {
    fc.assert(
      fc.property(fc.json(), fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((x, y) => x - y)
        const pieces = [0, ...points].map((start, i) => text.slice(start, [...points, text.length][i]))
        const chunks = sourced(
          pieces.map(
            (argumentsDelta) => ({ type: 'tool-call-delta', index: 0, id: 'c', argumentsDelta }) as const,
          ),
        )
        const redacted = redactChunks(chunks, FULL_REDACTION)
        expect(redacted.map((s) => (s.chunk as { argumentsDelta: string }).argumentsDelta)).toEqual(
          pieces
            .map((piece) => piece.length)
            .map((n, i) => maskJsonValues(text).slice(offset(pieces, i), offset(pieces, i) + n)),
        )
      }),
      { numRuns: 300 },
    )
  })
})

function offset(pieces: readonly string[], i: number): number {
  return pieces.slice(0, i).reduce((sum, piece) => sum + piece.length, 0)
}

describe('redacted streams assemble to blocks of the same shape and lengths', () => {
  it.each(corpusFiles())('%s: every stream', (name) => {
    const source = loadSource(readCorpus(name), name)
    expect(source.sessions[0]!.streams.length).toBeGreaterThan(0)
    for (const attempt of source.sessions[0]!.streams) {
      expectSameShape(attempt.chunks, redactChunks(attempt.chunks, FULL_REDACTION))
    }
  })

  it('a generated stream (text, reasoning, tool calls split anywhere)', () => {
    const chunks = generateStream(4000, 90)
    const redacted = redactChunks(chunks, FULL_REDACTION)
    expectSameShape(chunks, redacted)
    const text = JSON.stringify(redacted.map((s) => s.chunk))
    for (const word of ['zebra', 'quartz', 'lantern', '思考']) expect(text).not.toContain(word)
  })

  it('text alone or arguments alone', () => {
    const chunks = sourced([td(0, 'secret'), tcd(1, 'c1', 'read', '{"path":"/home/me"}')])
    const only = (options: RedactionOptions) => redactChunks(chunks, options).map((s) => s.chunk)
    expect(only({ text: true, arguments: false, events: false })).toEqual([td(0, 'xxxxxx'), chunks[1]!.chunk])
    expect(only({ text: false, arguments: true, events: false })[1]).toMatchObject({
      argumentsDelta: '{"path":"xxxxxxxx"}',
    })
  })

  it('replayState strings are masked with text, finish reasons and usage kept', () => {
    const chunks = sourced([
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 4 } },
      {
        type: 'finish',
        reason: { kind: 'stop' },
        replayState: { response: { reasoning_content: 'hidden' } },
      },
    ])
    const [usage, finish] = redactChunks(chunks, FULL_REDACTION).map((s) => s.chunk)
    expect(usage).toEqual(chunks[0]!.chunk)
    expect(finish).toEqual({
      type: 'finish',
      reason: { kind: 'stop' },
      replayState: { response: { reasoning_content: 'xxxxxx' } },
    })
  })
})

describe('redacted sessions', () => {
  it.each(corpusFiles())(
    '%s: recorded messages still match when only text and arguments are hidden',
    (name) => {
      const source = loadSource(readCorpus(name), name)
      const session = source.sessions[0]!
      const redacted = loadSourceFromEvents(source, { text: true, arguments: true, events: false })
      const before = session.streams.map((attempt) => compareRecorded(attempt)?.match ?? null)
      const after = redacted.sessions[0]!.streams.map((attempt) => compareRecorded(attempt)?.match ?? null)
      expect(after).toEqual(before)
    },
  )

  it.each(corpusFiles())('%s: dropping events keeps every stream and its id', (name) => {
    const source = loadSource(readCorpus(name), name)
    const redacted = loadSourceFromEvents(source, FULL_REDACTION)
    const ids = (s: LoadedSource) =>
      s.sessions[0]!.streams.map((attempt) => [attempt.id, attempt.chunks.length])
    expect(ids(redacted)).toEqual(ids(source))
    const types = new Set(redacted.sessions[0]!.events.map((event) => event.type))
    expect(
      [...types].every((type) => /^assistant\/(chunk|message)$|^(turn|step)\/|retry-started/.test(type)),
    ).toBe(true)
  })

  it('a redacted link says so when opened, and carries no original text', async () => {
    const name = 'acp-agent-packed-chunks-session.jsonl'
    const source = loadSource(readCorpus(name), name)
    const attempt = source.sessions[0]!.streams[0]!
    const payload = buildSharePayload(
      { source, attempt, streamKey: attempt.id, k: 5 },
      { redact: FULL_REDACTION },
    )
    expect(JSON.stringify(payload)).not.toContain('echo HELLO')
    expect(JSON.stringify(payload)).not.toContain('The user wants')
    const decoded = await decodeShareLink(await encodeShareLink(payload))
    if ('error' in decoded) throw new Error(decoded.error)
    expect(decoded.redacted).toEqual(FULL_REDACTION)
    expect(decoded.streamKey).toBe(attempt.id)
    const opened = decoded.source.sessions[0]!.streams[0]!
    expectSameShape(attempt.chunks, opened.chunks)
  })

  it('a bare stream shares redacted too', async () => {
    const chunks = generateStream(500)
    const source: LoadedSource = {
      format: 'chunk-json',
      diagnostics: [],
      sessions: [buildStreamSession(chunks)],
    }
    const payload = buildSharePayload(
      { source, attempt: source.sessions[0]!.streams[0]!, streamKey: 'stream', k: 9 },
      { redact: { text: true, arguments: false, events: false } },
    )
    const decoded = await decodeShareLink(await encodeShareLink(payload))
    if ('error' in decoded) throw new Error(decoded.error)
    expect(decoded.redacted).toEqual({ text: true, arguments: false, events: false })
    expectSameShape(chunks, decoded.source.sessions[0]!.streams[0]!.chunks)
  })
})

function loadSourceFromEvents(source: LoadedSource, options: RedactionOptions): LoadedSource {
  const session = source.sessions[0]!
  const events = redactEvents(session.events, options)
  const attempt = session.streams[0]!
  // Through the payload's own session path, as a link would go.
  const payload = buildSharePayload({
    source: { ...source, sessions: [{ ...session, events }] },
    attempt,
    streamKey: attempt.id,
    k: 0,
  })
  if (payload.source.kind !== 'session') throw new Error('expected a session payload')
  return sessionFromRecords(payload.source.records, source.name)
}

// Redaction hides words, never findings (docs/protocol.md §5, §14): what the opener of a redacted link sees checked
// is what the sender saw, every field of every finding.
describe('redaction keeps every finding', () => {
  const findingsOf = (chunks: readonly SourcedChunk[]) =>
    new ReplayEngine(chunks).findings.map(({ rule, severity, seq, pos, message, params }) => ({
      rule,
      severity,
      seq,
      pos,
      message,
      params,
    }))
  const expectKept = (chunks: readonly SourcedChunk[]): void => {
    expect(findingsOf(redactChunks(chunks, FULL_REDACTION))).toEqual(findingsOf(chunks))
  }

  it('a block-end that differs from its deltas by the letters alone', () => {
    const chunks = sourced([bs(0, 'text'), td(0, 'hello'), be(0, text('world')), usage(1, 1), finish('stop')])
    expect(findingsOf(chunks).map((f) => f.rule)).toEqual(['end-content-mismatch'])
    expectKept(chunks)
  })

  it('arguments written another way stay formatting-only; other values stay another value', () => {
    const formatting = [
      bs(0, 'tool-call'),
      tcd(0, 'c1', 'f', '{"n": 1.50}'),
      be(0, toolCall('c1', 'f', '{"n":1.5}')),
    ]
    const changed = [
      bs(0, 'tool-call'),
      tcd(0, 'c1', 'f', '{"n": 15}'),
      be(0, toolCall('c1', 'f', '{"n": 16}')),
    ]
    expect(findingsOf(sourced(formatting))[0]!.params).toEqual({ index: '0', formatting: 'yes' })
    expectKept(sourced(formatting))
    expectKept(sourced(changed))
  })

  it('invalid arguments stay invalid: a bad escape, a raw newline, a leading zero', () => {
    for (const args of ['{"p": "a\\qb"}', '{"p": "a\nb"}', '{"n": 05}']) {
      expect(() => JSON.parse(args)).toThrow(SyntaxError)
      expectKept(sourced([bs(0, 'tool-call'), tcd(0, 'c1', 'f', args), be(0, toolCall('c1', 'f', args))]))
    }
  })

  it('invisible characters stay, so the redacted text still shows their marks', () => {
    expect(redactText('ok\u202e txt.exe')).toBe('xx\u202e xxxxxxx')
    expect(maskJsonValues('{"p": "a\u200bb"}')).toBe('{"p": "x\u200bx"}')
  })

  it('holds for random streams', () => {
    fc.assert(
      fc.property(fc.oneof(knownStream, oddStream), (chunks) => {
        expectKept(sourced(chunks))
      }),
      { numRuns: 500 },
    )
  })
})

describe('a redacted recorded message compares as the original did', () => {
  it.each([
    ['in letters alone', ['hello ', 'world'], 'hello world', 'hello wordl'],
    ['after a block-end that differs from its deltas', ['a', 'b'], 'aX', 'aXZ'],
  ])(
    'a record that differs from the chunks %s keeps its mismatch and where it begins',
    (_label, deltas, end, recorded) => {
      const lines = [
        { type: 'session', version: 0, id: 's', createdAt: 0, cwd: '/' },
        { type: 'turn/start', seq: 1, time: 1, data: { turn: 1 } },
        { type: 'step/start', seq: 2, time: 2, data: { turn: 1, step: 1 } },
        ...[bs(0, 'text'), ...deltas.map((delta) => td(0, delta)), be(0, text(end))].map((chunk, i) => ({
          type: 'assistant/chunk',
          seq: 3 + i,
          time: 3 + i,
          data: { turn: 1, step: 1, chunk },
        })),
        {
          type: 'assistant/message',
          seq: 7,
          time: 7,
          data: { turn: 1, step: 1, message: { role: 'assistant', content: [text(recorded)] } },
          sourceEventSeqs: [3, 4, 5, 6],
        },
      ]
      const source = loadSource(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', 'log.jsonl')
      const attempt = source.sessions[0]!.streams[0]!
      const input = { source, attempt, streamKey: attempt.id, k: 4 }
      for (const scope of [{ scope: 'session' as const }, { scope: 'stream' as const }]) {
        const payload = buildSharePayload(input, { ...scope, redact: FULL_REDACTION })
        const opened = openSharePayload(JSON.parse(JSON.stringify(payload)))
        if ('error' in opened) throw new Error(opened.error)
        const shared = opened.source.sessions[0]!.streams.find((a) => a.id === attempt.id)!
        expect({ scope: scope.scope, match: compareRecorded(shared)?.match }).toEqual({
          scope: scope.scope,
          match: false,
        })
        expect({ scope: scope.scope, divergence: attemptDivergence(shared) }).toEqual({
          scope: scope.scope,
          divergence: attemptDivergence(attempt),
        })
      }
    },
  )
})
