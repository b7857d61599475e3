import { readdirSync, readFileSync } from 'node:fs'
import { GoogleGenAI } from '@google/genai'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readSseWire, type WireDialect } from '../wire/readWire'
import { createInteractionsDialect } from './interactions'

/**
 * The events Chunkscope's reader hands to its Interactions dialect are the events Google's own client yields: the
 * `@google/genai` SDK's `interactions.create({stream: true})` (1.52, installed with pi-ai) fed each fixture, and
 * random cuts and line endings of them, through a fake `fetch` (docs/protocol.md §9, "Gemini Interactions"). The SDK
 * stops at `[DONE]` and throws at data that is no JSON; the reader fails there (MALFORMED_RESPONSE).
 */
const dir = new URL('../fixtures/interactions/', import.meta.url)
const bodies = readdirSync(dir)
  .filter((name) => name.endsWith('.sse'))
  .map((name) => readFileSync(new URL(name, dir), 'utf8'))

afterEach(() => vi.unstubAllGlobals())

async function sdkEvents(body: string): Promise<unknown[]> {
  vi.stubGlobal('fetch', async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }))
  const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} }
  vi.stubGlobal('console', { ...console, ...silent })
  const ai = new GoogleGenAI({ apiKey: 'test-key' })
  const events: unknown[] = []
  try {
    const stream = await ai.interactions.create({
      model: 'gemini-3-flash-preview',
      input: 'hi',
      stream: true,
    })
    for await (const event of stream as AsyncIterable<unknown>) events.push(event)
  } catch {
    events.push('THROWN')
  }
  return events
}

/** What the reader hands the dialect, up to where either stops reading. */
function ourEvents(body: string): unknown[] {
  const events: unknown[] = []
  const real = createInteractionsDialect()
  let stopped = false
  const spy: WireDialect = {
    markers: new Set(['[DONE]']),
    push(payload, name) {
      if (payload === '[DONE]') stopped = true
      else if (!stopped) events.push(payload)
      return real.push(payload, name)
    },
    malformed(message, data) {
      if (!stopped) events.push('THROWN')
      stopped = true
      return real.malformed(message, data)
    },
    end: () => real.end(),
    get finished() {
      return real.finished || stopped
    },
    takeNotes: () => real.takeNotes(),
  }
  readSseWire(body, 'gemini-interactions-sse', spy)
  return events
}

describe('Gemini Interactions bodies are read as the @google/genai SDK reads them', () => {
  it.each(bodies.map((body, i) => [i, body] as const))('fixture %i', async (_, body) => {
    const sdk = await sdkEvents(body)
    // The SDK really read the body: every event it yielded is an object with an event_type.
    expect(
      sdk.filter((e) => typeof e === 'object' && e !== null && 'event_type' in e).length,
    ).toBeGreaterThan(2)
    expect(ourEvents(body)).toEqual(sdk)
  })

  it('cut anywhere, with CRLF or LF line endings, the same events reach the reader', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...bodies),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        async (whole, at, crlf) => {
          const cut = whole.slice(0, Math.floor(whole.length * at))
          const body = crlf ? cut.replace(/\n/g, '\r\n') : cut
          expect(ourEvents(body)).toEqual(await sdkEvents(body))
        },
      ),
      { numRuns: 120, seed: 20261201 },
    )
  })
})
