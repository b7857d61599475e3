import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchSource, sourceUrlParam, type FetchProgress } from './fetchSource'

let server: Server
let base = ''
const body = 'x'.repeat(200_000)
const chunkedClosed: boolean[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/logs/session%201.jsonl') {
      response.writeHead(200, { 'content-length': String(body.length) })
      response.end(body)
    } else if (request.url === '/chunked') {
      // No content-length: only counting the bytes as they come can stop it.
      response.writeHead(200)
      const pump = () => {
        while (!response.destroyed && response.write('y'.repeat(16_384)));
        if (!response.destroyed) response.once('drain', pump)
      }
      response.on('close', () => chunkedClosed.push(true))
      pump()
    } else if (request.url === '/private') {
      response.writeHead(403)
      response.end()
    } else if (request.url === '/cut') {
      response.writeHead(200, { 'content-length': '100000' })
      response.write('partial')
      setTimeout(() => response.destroy(), 20)
    } else {
      response.writeHead(404)
      response.end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('fetchSource (?src=)', () => {
  it('fetches with progress and names the file from the path', async () => {
    const progress: FetchProgress[] = []
    const got = await fetchSource(`${base}/logs/session%201.jsonl`, { onProgress: (p) => progress.push(p) })
    if ('error' in got) throw new Error(got.error)
    expect(got.bytes.length).toBe(body.length)
    expect(got.name).toBe('session 1.jsonl')
    expect(progress.at(-1)).toEqual({ loaded: body.length, total: body.length })
    expect(progress.length).toBeGreaterThan(1)
  })

  it('explains failures in plain words', async () => {
    expect(await fetchSource(`${base}/gone`)).toMatchObject({
      error: expect.stringMatching(/not found \(404\)/),
    })
    expect(await fetchSource(`${base}/private`)).toMatchObject({ error: expect.stringMatching(/private/) })
    expect(await fetchSource(`${base}/cut`)).toMatchObject({ error: expect.stringMatching(/broke off/) })
    expect(await fetchSource('http://127.0.0.1:1/x')).toMatchObject({ error: expect.stringMatching(/CORS/) })
    expect(await fetchSource('javascript:alert(1)')).toMatchObject({
      error: expect.stringMatching(/only http/),
    })
    expect(await fetchSource('not a url')).toMatchObject({ error: expect.stringMatching(/not a URL/) })
    expect(await fetchSource(`${base}/logs/session%201.jsonl`, { maxBytes: 1000 })).toMatchObject({
      error: expect.stringMatching(/larger than/),
    })
  })

  it('stops an endless body without a length at the cap and drops the download', async () => {
    expect(await fetchSource(`${base}/chunked`, { maxBytes: 100_000 })).toMatchObject({
      error: expect.stringMatching(/larger than/),
    })
    await expect.poll(() => chunkedClosed.length).toBe(1)
  })

  it('reads the src parameter', () => {
    expect(sourceUrlParam('?src=https%3A%2F%2Fexample.com%2Fa.jsonl')).toBe('https://example.com/a.jsonl')
    expect(sourceUrlParam('?ex=seed')).toBeNull()
  })
})
