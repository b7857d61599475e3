import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSource } from '../../formats/load'
import { readSseStream } from '../../formats/sse/readSse'
import { readOllama } from '../../formats/wire/wireFormats'
import { startProxy, type ProxyServer } from './proxy'
import { postRaw } from './testClient'

/**
 * The proxy records every streamed wire, not only Chat Completions: each capture's wire is told from the response
 * (its first text, then the path; docs/protocol.md §9, "Live capture: which wire") and read by the file readers' translators, so
 * the log holds the chunks the file reader makes of the same body. Recorded bodies, served by a loopback upstream.
 */
const fixture = (path: string) =>
  readFileSync(new URL(`../../formats/fixtures/${path}`, import.meta.url), 'utf8')
const RESPONSES = fixture('responses/vercel-openai-reasoning-encrypted-content.1.sse')
const GEMINI = fixture('gemini/vercel-google-tool-call.sse')
const OLLAMA = fixture('wire/ollama-chat-thinking-tools.ndjson')

const ROUTES: Record<string, { type: string; body: string }> = {
  '/v1/responses': { type: 'text/event-stream', body: RESPONSES },
  '/v1beta/models/gemini-2.5-flash:streamGenerateContent': { type: 'text/event-stream', body: GEMINI },
  '/api/chat': { type: 'application/x-ndjson', body: OLLAMA },
}

let upstream: Server
let proxy: ProxyServer
let out: string

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const route = ROUTES[(req.url ?? '').split('?')[0]!]
      if (route === undefined) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': route.type })
      // In pieces that cut events apart, as a network does.
      for (let at = 0; at < route.body.length; at += 97) res.write(route.body.slice(at, at + 97))
      res.end()
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  out = mkdtempSync(join(tmpdir(), 'chunkscope-proxy-wires-'))
  const port = (upstream.address() as AddressInfo).port
  proxy = await startProxy({ upstream: `http://127.0.0.1:${port}`, out })
})

afterAll(async () => {
  await proxy?.close()
  await new Promise((resolve) => upstream?.close(resolve))
  rmSync(out, { recursive: true, force: true })
})

async function captured(path: string, body: Record<string, unknown>) {
  const response = await postRaw(`${proxy.url}${path}`, { body })
  expect(response.status).toBe(200)
  await proxy.settled()
  const capture = proxy.captures().find((c) => c.path === path)!
  expect(capture.state).not.toBe('streaming')
  const source = loadSource(readFileSync(join(out, capture.file), 'utf8'), capture.file)
  expect(source.format).toBe('dsh-session-jsonl')
  return {
    client: response.bytes.toString('utf8'),
    chunks: source.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk),
  }
}

const chunksOf = (read: { attempt: { chunks: readonly { chunk: unknown }[] } | null }) =>
  JSON.parse(JSON.stringify(read.attempt!.chunks.map((c) => c.chunk))) as unknown

describe('the proxy captures the wires beside Chat Completions', () => {
  it('an OpenAI Responses stream', async () => {
    const { client, chunks } = await captured('/v1/responses', { model: 'gpt-5', stream: true, input: 'hi' })
    expect(client).toBe(RESPONSES)
    expect(chunks).toEqual(chunksOf(readSseStream(RESPONSES, 'openai-responses-sse')))
  })

  it('a Gemini stream, asked for in the path (no "stream" in the body)', async () => {
    const path = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'
    const { chunks } = await captured(path, { contents: [{ parts: [{ text: 'hi' }] }] })
    expect(chunks).toEqual(chunksOf(readSseStream(GEMINI, 'gemini-sse')))
  })

  it('an Ollama NDJSON stream (Ollama streams unless told not to)', async () => {
    const { chunks } = await captured('/api/chat', { model: 'qwen3', messages: [] })
    expect(chunks).toEqual(chunksOf(readOllama(OLLAMA)))
  })
})
