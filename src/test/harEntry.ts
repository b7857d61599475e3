import { expect } from 'vitest'
import { loadSource } from '../formats/load'

/**
 * A body recorded as a HAR file's one entry (a streamed POST) opens as the same stream the body opens as alone, and
 * the HAR reader's note names the format it read the body as (docs/protocol.md §9, HAR).
 */
export function expectSameStreamInHar(body: string, format: string): void {
  const entry = {
    request: { method: 'POST', url: 'https://api.example.com/v1' },
    response: { status: 200, content: { mimeType: 'text/event-stream', text: body } },
  }
  const har = loadSource(JSON.stringify({ log: { entries: [entry] } }))
  expect(har.format).toBe('har')
  expect(har.diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining(`→ ${format}`))
  const alone = loadSource(body)
  expect(alone.format).toBe(format)
  const chunks = (source: typeof har) => source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
  expect(chunks(har)).toEqual(chunks(alone))
}
