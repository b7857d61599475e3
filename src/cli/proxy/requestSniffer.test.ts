import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RequestSniffer } from './requestSniffer'

function sniff(text: string, pieceSize = 7): ReturnType<RequestSniffer['result']> {
  const sniffer = new RequestSniffer()
  const bytes = Buffer.from(text, 'utf8')
  for (let i = 0; i < bytes.length; i += pieceSize) sniffer.feed(bytes.subarray(i, i + pieceSize))
  return sniffer.result()
}

/** What JSON.parse makes of the same body: the reference the streaming scan must agree with. */
function parsed(text: string): ReturnType<RequestSniffer['result']> {
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
    const { stream, model } = value as { stream?: unknown; model?: unknown }
    return {
      stream: stream === true,
      noStream: stream === false,
      model: typeof model === 'string' ? model : null,
    }
  } catch {
    return null
  }
}

describe('RequestSniffer', () => {
  it('reads the top-level stream and model of a chat request, not nested ones', () => {
    const body = JSON.stringify({
      messages: [{ role: 'user', content: 'say "stream": true, {model}' }],
      tools: [{ function: { name: 'x', parameters: { model: 'nested', stream: true } } }],
      model: 'deepseek-\u00e9\\"chat',
      stream: true,
    })
    expect(sniff(body, 1)).toEqual({
      stream: true,
      noStream: false,
      model: 'deepseek-\u00e9\\"chat',
    })
    expect(sniff('{"stream":false,"model":"m"}')).toEqual({ stream: false, noStream: true, model: 'm' })
    expect(sniff('  { "stream" : true }\n')).toEqual({ stream: true, noStream: false, model: null })
  })

  it('refuses what is not one whole JSON object', () => {
    for (const text of ['[1]', '{"stream":true', '{"stream":true} x', 'stream', ''])
      expect(sniff(text)).toBeNull()
  })

  it('agrees with JSON.parse on random request bodies cut into random pieces', () => {
    const member = fc.oneof(
      fc.constant<[string, unknown]>(['stream', true]),
      fc.tuple(fc.constantFrom('stream', 'model', 'messages', 'x'), fc.jsonValue()),
    )
    fc.assert(
      fc.property(fc.array(member, { maxLength: 6 }), fc.integer({ min: 1, max: 40 }), (members, size) => {
        const text = `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',')}}`
        expect(sniff(text, size)).toEqual(parsed(text))
      }),
      { numRuns: 300 },
    )
  })
})
