import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../core/protocol'
import { piAiChunks } from '../../test/piAiOracle'
import { createTranslator, readSseStream } from './readSse'
import { sniffSseDialect } from './sniff'
import { SseParser } from './sseEvents'
import { wireChaos } from './wireChaos'
import { chunksOfReads, harnessPipeline, type WireReader } from './wireReads'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url))
const BODIES = [
  'deepseek-reasoner-tool-calls.sse',
  'deepseek-malformed-json.sse',
  'deepseek-reasoner-truncated.sse',
  'groq-reasoning.sse',
  'openrouter-keepalive.sse',
  'anthropic-thinking-tool-use.sse',
  'anthropic-truncated.sse',
  'anthropic/synthetic-crlf-line-endings.sse',
  'anthropic/synthetic-cr-line-endings.sse',
]

describe('reading a body read by read', () => {
  it.each(BODIES)('one read of %s gives the chunks the file reader gives', (name) => {
    const bytes = fixture(name)
    const text = new TextDecoder().decode(bytes)
    const dialect = sniffSseDialect(text)!
    const read = readSseStream(text, dialect).attempt!.chunks.map((c) => c.chunk)
    expect(chunksOfReads(harnessPipeline(dialect), bytes, [])).toEqual(read)
  })

  it('the DeepSeek route gives the same message and findings under every re-split (eventsource-parser)', () => {
    for (const name of BODIES.filter((n) => !n.startsWith('anthropic'))) {
      const report = wireChaos(fixture(name), harnessPipeline('openai-sse'), { seed: 11 })
      expect(report.variants.length).toBeGreaterThan(5)
      expect(report.variants.filter((v) => v.diff !== null).map((v) => `${name} ${v.kind}`)).toEqual([])
    }
  })
})

/**
 * A deliberately broken adapter: it decodes each read on its own (no `stream: true`), so a character cut between
 * two reads becomes two U+FFFD — the bug chaos re-chunking exists to find.
 */
function brokenDecoder(): WireReader {
  const parser = new SseParser()
  const translator = createTranslator('openai-sse')
  const out: StreamChunk[] = []
  return {
    read(bytes) {
      for (const event of parser.feed(new TextDecoder().decode(bytes)))
        if (!translator.finished) out.push(...translator.push(event.data, event.event))
    },
    end() {
      if (!translator.finished) out.push(...translator.end('eof'))
      return out
    },
  }
}

describe('wireChaos', () => {
  const body = new TextEncoder().encode(
    'data: {"choices":[{"delta":{"content":"caf\\u00e9 "}}]}\n\n' +
      'data: {"choices":[{"delta":{"content":"naïve ☕"}}]}\n\n' +
      'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n' +
      'data: [DONE]\n\n',
  )

  it('finds the broken decoder by a single cut inside a multi-byte character, smallest first', () => {
    const report = wireChaos(body, brokenDecoder, { seed: 3 })
    const first = report.variants[0]!
    expect(first.minimal?.cuts).toHaveLength(1)
    expect(first.minimal?.where[0]).toMatch(/inside "(ï|☕)" \((2|3)-byte UTF-8\)/)
    expect(first.minimal?.diff.fields).toContain('blocks')
    const differing = report.variants.filter((v) => v.diff !== null).map((v) => v.kind)
    expect(differing).toEqual(expect.arrayContaining(['bytes-1', 'mid-utf8', 'as-crlf-bytes-1']))
    // Cuts that split no character leave the broken decoder right.
    expect(differing).not.toContain('crlf-halves')
    expect(differing).not.toContain('merged-events')
    expect(report.variants.find((v) => v.kind === 'mid-escape')?.diff).toBeNull()
  })

  it('the harness route reads the same body right under every split, multi-byte characters included', () => {
    const report = wireChaos(body, harnessPipeline('openai-sse'), { seed: 3 })
    expect(report.variants.map((v) => v.kind)).toContain('mid-utf8')
    expect(report.variants.filter((v) => v.diff !== null)).toEqual([])
  })

  it('repeats a run from its seed', () => {
    const a = wireChaos(body, brokenDecoder, { seed: 99 })
    const b = wireChaos(body, brokenDecoder, { seed: 99 })
    expect(b).toEqual(a)
  })

  it('finds that pi-ai reads a CRLF cut between two reads as an extra line end — as the real pi-ai does', async () => {
    const bytes = fixture('anthropic/synthetic-crlf-line-endings.sse')
    const report = wireChaos(bytes, harnessPipeline('anthropic-sse'), { seed: 5, only: ['crlf-halves'] })
    const variant = report.variants[0]!
    expect(variant.diff?.message).toBe(true)
    expect(variant.minimal?.cuts).toHaveLength(1)
    expect(variant.minimal?.where[0]).toMatch(/between CR and LF/)
    // The real pi-ai 0.82.1, fed the same reads through fetch, emits the same chunks as our reader.
    const text = new TextDecoder().decode(bytes)
    const cuts = variant.minimal!.cuts
    const oracle = await piAiChunks(text, 200, { 'content-type': 'text/event-stream' }, cuts)
    expect(chunksOfReads(harnessPipeline('anthropic-sse'), bytes, cuts)).toEqual(oracle.chunks)
    expect(oracle.chunks).not.toEqual((await piAiChunks(text)).chunks)
  })
})
