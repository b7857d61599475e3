import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { piAiApiChunks } from '../../test/piAiOracle'
import { readHar } from '../har/readHar'
import { detectFormat } from '../registry'
import { scanGeminiJsonArray } from './geminiJsonArray'
import { readGeminiJsonArray } from './geminiJsonRead'
import { geminiModelOfBody } from './geminiModel'

/**
 * Gemini's streamGenerateContent without `alt=sse` streams one JSON array of the chunks the SSE form sends as `data:`
 * lines (docs/protocol.md §9.3, "Without alt=sse"). Recorded bodies (fixtures/gemini-json/SOURCES.md) read as that
 * array must equal what the real pi-ai 0.82.1 makes of the same elements sent as SSE, through the harness's route;
 * so must a body cut inside an element (pi-ai's SDK then meets an incomplete last segment).
 */
const dir = new URL('../fixtures/gemini-json/', import.meta.url)
const bodies = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, text: readFileSync(new URL(name, dir), 'utf8') }))

/** The elements as the SSE form sends them, the last one optionally torn (no blank line after it). */
const asSse = (elements: readonly string[], torn = '') =>
  elements.map((e) => `data: ${JSON.stringify(JSON.parse(e))}\r\n\r\n`).join('') +
  (torn === '' ? '' : `data: ${torn}`)

const elementsOf = (text: string): string[] => {
  const out: string[] = []
  scanGeminiJsonArray(text, (event) => out.push(event.data))
  return out
}

/** JSON of the chunks with the tool call ids pi-ai makes up (`<name>_<clock>_<counter>`) reduced to their name. */
const withoutClock = (chunks: unknown): unknown =>
  JSON.parse(JSON.stringify(chunks).replace(/"id":"([^"]*)_\d+_\d+"/g, '"id":"$1_#"'))

const ours = (text: string) => readGeminiJsonArray(text).sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)

describe('Gemini streams without alt=sse (a JSON array)', () => {
  it('has the recorded bodies, each recognised by its content', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(15)
    for (const { name, text } of bodies)
      expect([name, detectFormat(text)]).toEqual([name, 'gemini-json-stream'])
  })

  it('a JSON array of StreamChunks or of anything else is not taken for one', () => {
    expect(detectFormat('[{"type":"text-delta","index":0,"text":"hi"}]')).toBe('chunk-json')
    expect(detectFormat('[{"name":"x","candidates":[]}]')).not.toBe('gemini-json-stream')
  })

  it.each(bodies)('$name agrees with pi-ai on the same chunks sent as SSE', async ({ text }) => {
    const elements = elementsOf(text)
    expect(elements.length).toBeGreaterThan(0)
    const sse = asSse(elements)
    const oracle = await piAiApiChunks('google-generative-ai', geminiModelOfBody(sse), sse)
    expect(withoutClock(ours(text))).toEqual(withoutClock(oracle.chunks))
  })

  it('cut inside its last element, or without its closing ], it still agrees', async () => {
    const { text } = bodies.find((b) => b.name.includes('test_tools--0'))!
    const elements = elementsOf(text)
    const lastStart = text.lastIndexOf(elements.at(-1)!)
    const cut = text.slice(0, lastStart + Math.floor(elements.at(-1)!.length / 2))
    const tornSse = asSse(elements.slice(0, -1), 'x')
    const torn = await piAiApiChunks('google-generative-ai', geminiModelOfBody(tornSse), tornSse)
    expect(withoutClock(ours(cut))).toEqual(withoutClock(torn.chunks))
    expect(
      readGeminiJsonArray(cut)
        .diagnostics.map((d) => d.message)
        .join('\n'),
    ).toMatch(/ends inside an element/)

    const unclosed = text.slice(0, lastStart + elements.at(-1)!.length)
    expect(ours(unclosed)).toEqual(ours(text))
    expect(
      readGeminiJsonArray(unclosed)
        .diagnostics.map((d) => d.message)
        .join('\n'),
    ).toMatch(/closing \] never came/)
  })

  it('inside a HAR it reads the same', () => {
    const { text } = bodies.find((b) => b.name.includes('test_tools--0'))!
    const entry = {
      request: {
        method: 'POST',
        url: 'https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent',
        headers: [],
      },
      response: { status: 200, headers: [], content: { mimeType: 'application/json; charset=UTF-8', text } },
    }
    const har = readHar(JSON.stringify({ log: { version: '1.2', entries: [entry] } }))
    expect(har.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)).toEqual(ours(text))
  })
})
