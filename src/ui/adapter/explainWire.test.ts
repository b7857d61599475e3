import { describe, expect, it } from 'vitest'
import { wirePairs } from '../../test/wirePairs'

const pairs = (name: string) => wirePairs(`wire/${name}`)

describe('the Adapter view over the wires without a route', () => {
  it.each([
    'ollama-chat-thinking-tools.ndjson',
    'ollama-chat-torn.ndjson',
    'ollama-chat-bad-json.ndjson',
    'cohere-tool-call.sse',
    'cohere-citations.sse',
    'cohere-tool-call-torn.sse',
    'ai-sdk-ui-stream.sse',
    'ai-sdk-ui-stream-torn.sse',
    'devtools-generations.json',
  ])('%s: every raw event made chunks or says why it made none', (name) => {
    const silent = pairs(name).filter((pair) => pair.chunks.length === 0 && pair.note === null)
    expect(silent.map((pair) => pair.raw)).toEqual([])
  })

  it('names the reason: metadata, a tool result, citations, the end marker, a torn tail', () => {
    const ui = pairs('ai-sdk-ui-stream.sse')
    expect(ui[0]!.note).toMatchObject({ kind: 'metadata' })
    expect(ui.find((p) => p.raw.includes('tool-output-available'))!.note!.text).toMatch(/a tool result/)
    expect(ui.at(-1)!).toMatchObject({ raw: 'data: [DONE]', note: { kind: 'held' } })
    expect(ui.find((p) => p.raw.includes('"finish"'))!.chunks).toEqual(['usage', 'finish'])
    const cohere = pairs('cohere-citations.sse')
    expect(cohere.find((p) => p.raw.includes('citation-start'))!.note).toMatchObject({ kind: 'not-read' })
    const torn = pairs('cohere-tool-call-torn.sse')
    expect(torn.at(-1)!.note).toMatchObject({ kind: 'undispatched' })
    const ollama = pairs('ollama-chat-thinking-tools.ndjson')
    expect(ollama[4]!.chunks).toEqual(['block-end', 'block-start', 'tool-call-delta', 'block-end'])
  })
})
