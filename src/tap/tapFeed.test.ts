import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../core/protocol'
import type { FeedMessage } from '../formats/live/feedProtocol'
import { loadBytes } from '../formats/loadBytes'
import { tap } from './tap'
import { startTapFeed } from './tapFeed'

const NAME = 'acp-agent-parallel-tool-calls-session.jsonl'
const LOG = new URL(`../../fixtures/dsh/${NAME}`, import.meta.url)

/** Subscribes to `GET /__chunkscope/events`; `until(stop)` reads messages until `stop` says so. */
async function subscribe(url: string) {
  const response = await fetch(`${url}/__chunkscope/events`)
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const until = async (stop: (message: FeedMessage) => boolean): Promise<FeedMessage[]> => {
    const messages: FeedMessage[] = []
    for (;;) {
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = event.split('\n').find((line) => line.startsWith('data: '))
        if (data === undefined) continue
        const message = JSON.parse(data.slice(6)) as FeedMessage
        messages.push(message)
        if (stop(message)) return messages
      }
      const { done, value } = await reader.read()
      if (done) return messages
      buffer += decoder.decode(value, { stream: true })
    }
  }
  return { until, close: () => reader.cancel() }
}

describe('startTapFeed', () => {
  it('publishes a tapped call live on the workbench feed, and its log for a page that connects late', async () => {
    const source = await loadBytes(readFileSync(LOG), NAME)
    const chunks = source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk as StreamChunk)
    const feed = await startTapFeed()
    try {
      const page = await subscribe(feed.url)
      // Subscribed once the hello arrived; the stream starts after.
      expect(await page.until((m) => m.type === 'hello')).toEqual([{ type: 'hello', captures: [] }])
      async function* adapter() {
        yield* chunks
      }
      for await (const _chunk of tap(adapter(), { feed })) {
        // consume
      }
      const messages = await page.until((m) => m.type === 'capture' && m.capture.state !== 'streaming')
      await page.close()
      const records = messages.flatMap((m) => (m.type === 'record' ? [m.record] : []))
      const live = records
        .filter((r) => r['type'] === 'assistant/chunk')
        .map((r) => (r['data'] as { chunk: unknown }).chunk)
      expect(live).toEqual(chunks)
      const ended = messages.at(-1)
      expect(ended).toMatchObject({ type: 'capture', capture: { state: 'completed', chunks: chunks.length } })
      const id = ended?.type === 'capture' ? ended.capture.id : ''
      const log = await (await fetch(`${feed.url}/__chunkscope/captures/${id}`)).arrayBuffer()
      const reopened = await loadBytes(new Uint8Array(log), 'tap.jsonl')
      expect(reopened.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)).toEqual(chunks)
    } finally {
      await feed.close()
    }
  })
})
