import { readdirSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FeedRecord } from '../live/feedProtocol'
import { readSseStream, type SseDialect } from '../sse/readSse'
import { sniffSseDialect } from '../sse/sniff'
import { readWireBody } from '../wire/wireFormats'
import { detectLiveWire } from './liveWire'
import { SessionRecorder } from './sessionRecorder'

/**
 * A live capture (proxy or page) tells each response's wire from its first body text, the request path breaking a
 * tie, and reads it with the file readers' own translators (docs/protocol.md §9, "Live capture: which wire"): recorded bodies of
 * every streamed wire, fed to the recorder in random pieces, must log the chunks the file reader makes of the whole
 * body. Only intact recordings: the file readers' framings differ from the live parser's on torn bodies.
 */
const fixtures = new URL('../fixtures/', import.meta.url)
const pick = (dir: string, keep: (name: string) => boolean) =>
  readdirSync(new URL(dir, fixtures))
    .filter(keep)
    .map((name) => ({ name: `${dir}${name}`, text: readFileSync(new URL(dir + name, fixtures), 'utf8') }))
const recorded = (name: string) =>
  /^(vercel|pydantic-ai|cohere)-/.test(name) && !/truncated|broken|torn|bad-json/.test(name)
const bodies = [
  ...pick('responses/', (n) => recorded(n) && n.endsWith('.sse')),
  ...pick('anthropic/', (n) => n.startsWith('vercel-') && n.endsWith('.sse')),
  ...pick('gemini/', (n) => recorded(n) && n.endsWith('.sse')),
  ...pick('wire/', (n) => recorded(n) && n.endsWith('.sse')),
  ...pick('wire/', (n) =>
    /^(ollama-chat-thinking-tools|ollama-generate-length)\.ndjson$|^ai-sdk-ui-stream\.sse$/.test(n),
  ),
  ...pick('interactions/', (n) => /^(steps-|content-)/.test(n) && !/torn|bad-json/.test(n)),
  ...pick('completions/', (n) => n.endsWith('.sse') && !/torn|bad-json/.test(n)),
]

/** What the file readers make of the whole body: the wires without a harness route first, then the SSE dialects. */
function fileChunks(text: string): { format: string; chunks: unknown[] } {
  const wire = readWireBody(text, {})
  if (wire !== null) return { format: wire.format, chunks: wire.read.attempt!.chunks.map((c) => c.chunk) }
  const dialect: SseDialect = sniffSseDialect(text) ?? 'openai-sse'
  return { format: dialect, chunks: readSseStream(text, dialect).attempt!.chunks.map((c) => c.chunk) }
}

async function liveChunks(
  pieces: readonly string[],
  path = '/v1/x',
): Promise<{ format: string; chunks: unknown[] }> {
  const records: FeedRecord[] = []
  const recorder = new SessionRecorder({
    id: 'cap',
    kind: 'proxy',
    title: 't',
    model: null,
    wire: { path },
    sink: { append: async (record) => void records.push(record) },
  })
  for (const piece of pieces) recorder.pushText(piece)
  recorder.endBody()
  const format = recorder.wireFormat
  await recorder.end()
  const chunks = records
    .filter((r) => r['type'] === 'assistant/chunk')
    .map((r) => (r['data'] as { chunk: unknown }).chunk)
  return { format, chunks }
}

const cut = (text: string, at: readonly number[]) => {
  const points = [...new Set(at.map((p) => Math.floor(p * text.length)))].sort((a, b) => a - b)
  return [0, ...points, text.length].slice(1).map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end))
}

describe('a live capture reads every streamed wire as the file readers do', () => {
  it('has recorded bodies of each wire', () => {
    const formats = new Set(bodies.map((b) => fileChunks(b.text).format))
    expect([...formats].sort()).toEqual([
      'ai-sdk-ui-sse',
      'anthropic-sse',
      'cohere-sse',
      'gemini-interactions-sse',
      'gemini-sse',
      'ollama-ndjson',
      'openai-completions-sse',
      'openai-responses-sse',
    ])
  })

  it.each(bodies)('$name, fed in random pieces', async ({ text }) => {
    const expected = fileChunks(text)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        async (at) => {
          const live = await liveChunks(cut(text, at))
          expect(live.format).toBe(expected.format)
          expect(live.chunks).toEqual(JSON.parse(JSON.stringify(expected.chunks)))
        },
      ),
      { numRuns: Number(process.env['RUNS'] ?? 8) },
    )
  })

  it('the request path decides what the first text cannot', () => {
    const plain = 'data: {"x":1}\n\n'
    expect(detectLiveWire(plain, { path: '/v1/chat/completions' })).toBe('openai-sse')
    expect(detectLiveWire(plain, { path: '/v1/responses' })).toBe('openai-responses-sse')
    expect(detectLiveWire(plain, { path: '/v1/messages?beta=true' })).toBe('anthropic-sse')
    expect(detectLiveWire(plain, { path: '/v1beta/models/g:streamGenerateContent?alt=sse' })).toBe(
      'gemini-sse',
    )
    expect(detectLiveWire(plain, { path: '/v1/completions' })).toBe('openai-completions-sse')
    expect(detectLiveWire('', { path: '/api/chat' })).toBe('ollama-ndjson')
    expect(detectLiveWire(plain, {})).toBe('openai-sse')
  })
})
