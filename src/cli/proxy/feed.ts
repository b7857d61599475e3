// The live feed: `GET /__chunkscope/events` as Server-Sent Events, one JSON message per written record.
import type { ServerResponse } from 'node:http'
import type { FeedMessage } from '../../formats/live/feedProtocol'

export type { FeedMessage }

export class LiveFeed {
  private readonly clients = new Set<ServerResponse>()

  get size(): number {
    return this.clients.size
  }

  subscribe(res: ServerResponse, hello: FeedMessage, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    })
    res.write(': chunkscope live feed\n\n')
    res.write(frame(hello))
    this.clients.add(res)
    // Only the response's close means the client went away (the request's fires once its empty body is read).
    res.on('close', () => this.clients.delete(res))
  }

  publish(message: FeedMessage): void {
    if (this.clients.size === 0) return
    const text = frame(message)
    for (const client of this.clients) client.write(text)
  }

  closeAll(): void {
    for (const client of this.clients) client.end()
    this.clients.clear()
  }
}

function frame(message: FeedMessage): string {
  return `data: ${JSON.stringify(message)}\n\n`
}
