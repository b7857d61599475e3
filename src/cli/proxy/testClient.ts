// Loopback HTTP helpers for the proxy's tests and bench: raw bytes with arrival times, and the client's own assembly.
import { request, type IncomingHttpHeaders } from 'node:http'
import { analyzeStream, type StreamResult } from '../../core/analyzeStream'
import type { SourcedChunk, StreamChunk } from '../../core/protocol'
import { httpFailure } from '../../formats/sse/httpFailure'
import { createTranslator } from '../../formats/sse/readSse'
import { SseParser } from '../../formats/sse/sseEvents'

export type RawResponse = {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly bytes: Buffer
  /** performance.now() at each received piece, and the byte count so far. */
  readonly arrivals: { readonly at: number; readonly total: number }[]
  /** The body ended cleanly (false: the connection closed first). */
  readonly complete: boolean
}

export type PostOptions = {
  readonly headers?: Record<string, string>
  readonly body?: unknown
  /** Destroy the request after the first body piece arrives (a client going away mid-stream). */
  readonly abortAfterFirstPiece?: boolean
}

/** POSTs JSON to `url` and collects the raw response body as it arrives; never rejects for a cut body. */
export function postRaw(url: string, options: PostOptions = {}): Promise<RawResponse> {
  const body = JSON.stringify(options.body ?? {})
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        const parts: Buffer[] = []
        const arrivals: { at: number; total: number }[] = []
        let total = 0
        res.on('data', (part: Buffer) => {
          parts.push(part)
          total += part.length
          arrivals.push({ at: performance.now(), total })
          if (options.abortAfterFirstPiece && parts.length === 1) req.destroy()
        })
        res.on('error', () => {})
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            bytes: Buffer.concat(parts),
            arrivals,
            complete: res.complete,
          }),
        )
      },
    )
    req.on('error', (error) => {
      if (!options.abortAfterFirstPiece) reject(error)
    })
    req.end(body)
  })
}

/** GETs `url` as text. */
export function getText(
  url: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      const parts: Buffer[] = []
      res.on('data', (part: Buffer) => parts.push(part))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(parts).toString('utf8'),
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** What the client itself makes of a response: the openai-sse translation of its bytes, or the HTTP failure. */
export function clientChunks(response: RawResponse): StreamChunk[] {
  const text = response.bytes.toString('utf8')
  if (response.status >= 400) {
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers))
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
    return [
      { type: 'finish', reason: { kind: 'error', failure: httpFailure(response.status, headers, text) } },
    ]
  }
  const parser = new SseParser()
  const translator = createTranslator('openai-sse')
  const chunks: StreamChunk[] = []
  for (const event of [...parser.feed(text), ...parser.end()]) {
    if (translator.finished) break
    chunks.push(...translator.push(event.data, event.event))
  }
  if (!translator.finished) chunks.push(...translator.end('eof'))
  return chunks
}

export function clientResult(response: RawResponse): StreamResult {
  const sourced: SourcedChunk[] = clientChunks(response).map((chunk, seq) => ({ seq, time: null, chunk }))
  return analyzeStream(sourced)
}
