import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readSseStream } from '../../formats/sse/readSse'
import { explainEvent } from './explainEvent'

/** The Adapter view's reason for OpenAI Responses events that made no chunk (docs/protocol.md §9.2). */
const read = (name: string) =>
  readSseStream(
    readFileSync(new URL(`../../formats/fixtures/responses/${name}`, import.meta.url), 'utf8'),
    'openai-responses-sse',
  ).attempt!

describe('the Adapter view on a Responses capture', () => {
  it('names the built-in tool an item and its progress events belong to', () => {
    const attempt = read('synthetic-web-search.sse')
    const wire = attempt.wire!
    const raw = (i: number) => wire.text.slice(wire.start[i]!, wire.end[i]!)
    const events = [...Array(wire.count).keys()]
    const added = events.find((i) => raw(i).includes('"type":"web_search_call"'))!
    expect(explainEvent(wire, added, attempt.chunks, -1)?.text).toBe(
      'not read by this adapter: web_search_call (the built-in web search tool) — pi-ai keeps no block for it',
    )
    const searching = events.find((i) => raw(i).includes('web_search_call.searching'))!
    expect(explainEvent(wire, searching, attempt.chunks, -1)?.text).toBe(
      'not read by this adapter: progress of web_search_call (the built-in web search tool)',
    )
    const completed = events.find((i) => raw(i).startsWith('event: response.completed'))!
    expect(explainEvent(wire, completed, attempt.chunks, -1)?.kind).toBe('held')
  })

  it('shows the event the SDK never dispatched', () => {
    const attempt = read('synthetic-no-final-blank-line.sse')
    const wire = attempt.wire!
    expect(explainEvent(wire, wire.count - 1, attempt.chunks, -1)?.kind).toBe('undispatched')
  })
})
