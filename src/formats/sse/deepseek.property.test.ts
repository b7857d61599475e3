import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../core/protocol'
import { createTranslator, readSseStream } from './readSse'
import { scanSse, SseParser, type SseEvent } from './sseEvents'

const eol = fc.constantFrom('\n', '\r\n', '\r')
const text = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', '\\n', '"', '\u2028'), maxLength: 6 })
const toolCall = fc.record({ index: fc.integer({ min: 0, max: 2 }), args: text })
const delta = fc.oneof(
  fc.record({ content: text }),
  fc.record({ reasoning_content: text }),
  fc.record({ tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 2 }) }),
)
type Delta = { content?: string; reasoning_content?: string; tool_calls?: { index: number; args: string }[] }

const payloadOf = (d: Delta) =>
  JSON.stringify({
    choices: [
      {
        delta: d.tool_calls
          ? { tool_calls: d.tool_calls.map((c) => ({ index: c.index, function: { arguments: c.args } })) }
          : d,
      },
    ],
  })

/** A body of these deltas with one kind of line ending, a comment now and then, and an ending of one kind. */
const bodyOf = (deltas: Delta[], eols: string[], ending: 'done' | 'unterminated' | 'none') => {
  let at = 0
  const e = () => eols[at++ % eols.length]!
  let out = ''
  for (const d of deltas) out += `${at % 3 === 0 ? `: ping${e()}` : ''}data: ${payloadOf(d)}${e()}${e()}`
  if (ending === 'done') out += `data: [DONE]${e()}${e()}`
  if (ending === 'unterminated') out += `data: [DONE]${e()}`
  // A lone CR as the very last character is held back by the parser (tested on its own elsewhere).
  return out.endsWith('\r') && !out.endsWith('\r\n') ? `${out}\n` : out
}

const body = fc
  .tuple(
    fc.array(delta, { maxLength: 12 }),
    eol.map((e) => [e]),
    fc.constantFrom('done', 'unterminated', 'none'),
  )
  .map(([deltas, eols, ending]) => ({
    deltas: deltas as Delta[],
    ending,
    text: bodyOf(deltas as Delta[], eols, ending),
  }))

describe('DeepSeek bodies: any byte split gives the same events and chunks', () => {
  it('holds for random bodies cut into random byte pieces, decoded as a stream', () => {
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 8 }), ({ text }, cuts) => {
        const bytes = new TextEncoder().encode(text)
        const at = [...new Set([0, ...cuts.map((c) => c % (bytes.length + 1)), bytes.length])].sort(
          (a, b) => a - b,
        )
        const decoder = new TextDecoder()
        const parser = new SseParser()
        const translator = createTranslator('openai-sse')
        const events: SseEvent[] = []
        const chunks = []
        for (let k = 0; k + 1 < at.length; k++) {
          for (const event of parser.feed(
            decoder.decode(bytes.subarray(at[k], at[k + 1]), { stream: true }),
          )) {
            events.push(event)
            if (!translator.finished) chunks.push(...translator.push(event.data, event.event))
          }
        }
        parser.feed(decoder.decode())
        parser.end()
        if (!translator.finished) chunks.push(...translator.end('eof'))
        const whole: SseEvent[] = []
        scanSse(text, (event) => whole.push(event))
        expect(events).toEqual(whole)
        expect(chunks).toEqual(readSseStream(text, 'openai-sse').attempt!.chunks.map((c) => c.chunk))
      }),
      { numRuns: 300 },
    )
  })
})

describe('DeepSeek bodies: the documented behaviour (docs/protocol.md §9) on random bodies', () => {
  it('one text block holding every content, block-ends in opening order, STREAM_CLOSED unless [DONE] ends with its blank line', () => {
    fc.assert(
      fc.property(body, ({ deltas, ending, text }) => {
        const chunks = readSseStream(text, 'openai-sse').attempt!.chunks.map((c) => c.chunk as StreamChunk)
        const finish = chunks.at(-1)!
        const starts = chunks.flatMap((c) => (c.type === 'block-start' ? [c.index] : []))
        const ends = chunks.flatMap((c) => (c.type === 'block-end' ? [c] : []))
        const content = deltas.map((d) => d.content ?? '').join('')
        const code =
          finish.type === 'finish' && finish.reason.kind === 'error' ? finish.reason.failure.code : null
        const closed = ending === 'done'
        expect({
          finishes: chunks.filter((c) => c.type === 'finish').length,
          starts,
          ends: ends.map((c) => c.index),
          texts: ends.flatMap((c) => (c.block.type === 'text' ? [(c.block as { text: string }).text] : [])),
          code,
        }).toEqual({
          finishes: 1,
          starts: starts.map((_, k) => k),
          ends: closed ? starts : [],
          texts: closed && content !== '' ? [content] : [],
          code: !closed ? 'STREAM_CLOSED' : starts.length === 0 ? 'EMPTY_RESPONSE' : null,
        })
      }),
      { numRuns: 300 },
    )
  })
})
