import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mockScript, parseMockModel, startMockUpstream, type MockUpstream } from './mockUpstream'

let plain: MockUpstream
let cors: MockUpstream

beforeAll(async () => {
  plain = await startMockUpstream()
  cors = await startMockUpstream({ cors: true })
})

afterAll(async () => {
  await plain?.close()
  await cors?.close()
})

const post = (base: string, model: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  })

describe('parseMockModel', () => {
  it('reads sequences and options; unknown scenarios and options are null', () => {
    expect(parseMockModel('mock-text')).toEqual([{ scenario: 'text', options: {} }])
    expect(parseMockModel('text')).toEqual([{ scenario: 'text', options: {} }])
    expect(parseMockModel('mock-rate-limit,text')).toEqual([
      { scenario: 'rate-limit', options: {} },
      { scenario: 'text', options: {} },
    ])
    expect(parseMockModel('mock-drip:delay=150:events=40')).toEqual([
      { scenario: 'drip', options: { delayMs: 150, events: 40 } },
    ])
    expect(parseMockModel('mock-server-error,drip:events=3')).toEqual([
      { scenario: 'server-error', options: {} },
      { scenario: 'drip', options: { events: 3 } },
    ])
    expect(parseMockModel('mock-nothing')).toBeNull()
    expect(parseMockModel('mock-drip:speed=2')).toBeNull()
    expect(parseMockModel('mock-text,')).toBeNull()
  })
})

describe('startMockUpstream', () => {
  it('plays a sequence over requests with that exact model; the last step repeats', async () => {
    const model = 'mock-rate-limit,text'
    const first = await post(plain.url, model)
    expect(first.status).toBe(429)
    expect(first.headers.get('retry-after')).toBe('2')
    await first.text()
    for (let i = 0; i < 2; i++) {
      const next = await post(plain.url, model)
      expect(next.status).toBe(200)
      expect(await next.text()).toBe(mockScript('text').pieces.join(''))
    }
    // Another name has its own count.
    expect((await post(plain.url, 'mock-rate-limit,drip')).status).toBe(429)
    expect(plain.requests.at(-1)!.scenario).toBe('rate-limit')
  })

  it('takes drip options from the model name', async () => {
    const response = await post(plain.url, 'mock-drip:delay=1:events=3')
    expect(await response.text()).toBe(mockScript('drip', { events: 3 }).pieces.join(''))
    const request = plain.requests.at(-1)!
    expect(request.scenario).toBe('drip')
    expect(request.writes).toHaveLength(mockScript('drip', { events: 3 }).pieces.length)
  })

  it('still takes the scenario and options from headers', async () => {
    const response = await post(plain.url, 'whatever', { 'x-mock-scenario': 'drip', 'x-mock-events': '2' })
    expect(await response.text()).toBe(mockScript('drip', { events: 2 }).pieces.join(''))
  })

  it('answers no CORS by default: a preflight is a 404 without Access-Control headers', async () => {
    const response = await fetch(`${plain.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5300', 'access-control-request-method': 'POST' },
    })
    expect(response.status).toBe(404)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const post404 = await post(plain.url, 'mock-text', { origin: 'http://127.0.0.1:5300' })
    expect(post404.headers.get('access-control-allow-origin')).toBeNull()
    await post404.text()
  })

  it('with cors: answers preflights and exposes Retry-After and x-request-id', async () => {
    const before = cors.requests.length
    const preflight = await fetch(`${cors.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5300',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5300')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type')
    expect(cors.requests.length).toBe(before) // a preflight plays nothing
    const limited = await post(cors.url, 'mock-rate-limit', { origin: 'http://127.0.0.1:5300' })
    expect(limited.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5300')
    expect(limited.headers.get('access-control-expose-headers')).toContain('retry-after')
    expect(limited.headers.get('access-control-expose-headers')).toContain('x-request-id')
    await limited.text()
  })
})
