import type { StreamChunk } from '../../core/protocol'
import { createTranslator, type SseDialect } from './readSse'
import { SseParser } from './sseEvents'

/**
 * A body read by an adapter the way a network delivers it: in reads of any size (docs/protocol.md §13). `read`
 * takes the next bytes, `end` the end of the body and returns every chunk the adapter emitted.
 */
export type WireReader = { read(bytes: Uint8Array): void; end(): StreamChunk[] }
/** Makes a fresh reader per replay (the chaos run replays the same body many times). */
export type WirePipeline = () => WireReader

/**
 * The harness's own reading of `dialect`, read by read (§9): the DeepSeek adapter decodes with TextDecoderStream
 * and frames with eventsource-parser; the pi-ai Anthropic route decodes with a streaming TextDecoder and cuts
 * lines with its own reader, which sees a CR that ends one read as a whole line break ({@link piAiReader}).
 */
export function harnessPipeline(dialect: SseDialect): WirePipeline {
  return dialect === 'openai-sse' ? deepSeekReader : piAiReader
}

function deepSeekReader(): WireReader {
  const decoder = new TextDecoder('utf-8')
  const parser = new SseParser()
  const translator = createTranslator('openai-sse')
  const out: StreamChunk[] = []
  const feed = (text: string) => {
    for (const event of parser.feed(text)) {
      if (translator.finished) break
      out.push(...translator.push(event.data, event.event))
    }
  }
  return {
    read: (bytes) => feed(decoder.decode(bytes, { stream: true })),
    end() {
      feed(decoder.decode())
      parser.end()
      if (!translator.finished) out.push(...translator.end('eof'))
      return out
    },
  }
}

/**
 * pi-ai 0.82.1's Anthropic reader (its `iterateSseMessages`, §9): after each read it takes every line that ends in
 * the buffer at the first CR or LF (a CR with its LF when both are there), so a CRLF cut between two reads is read
 * as a line end and then an empty line, which dispatches the event early. At the end of the body the rest is read
 * as a last line and a pending event is dispatched.
 */
export function piAiReader(): WireReader {
  const decoder = new TextDecoder('utf-8')
  const translator = createTranslator('anthropic-sse')
  const out: StreamChunk[] = []
  let buffer = ''
  let name: string | null = null
  let data: string[] = []
  let raw: string[] = []
  const dispatch = () => {
    if (name === null && data.length === 0) return
    if (!translator.finished) out.push(...translator.push(data.join('\n'), name ?? '', raw))
    name = null
    data = []
    raw = []
  }
  const line = (text: string) => {
    if (text === '') return dispatch()
    raw.push(text)
    if (text.startsWith(':')) return
    const colon = text.indexOf(':')
    const field = colon === -1 ? text : text.slice(0, colon)
    let value = colon === -1 ? '' : text.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
  }
  const drain = () => {
    let pos = 0
    for (;;) {
      const cr = buffer.indexOf('\r', pos)
      const lf = buffer.indexOf('\n', pos)
      const stop = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf)
      if (stop === -1) break
      line(buffer.slice(pos, stop))
      pos = stop + (buffer[stop] === '\r' && buffer[stop + 1] === '\n' ? 2 : 1)
    }
    buffer = buffer.slice(pos)
  }
  return {
    read(bytes) {
      buffer += decoder.decode(bytes, { stream: true })
      drain()
    },
    end() {
      buffer += decoder.decode()
      drain()
      if (buffer.length > 0) line(buffer)
      buffer = ''
      dispatch()
      if (!translator.finished) out.push(...translator.end('eof'))
      return out
    },
  }
}

/** The chunks `pipeline` emits when `body` arrives cut at byte offsets `cuts` (ascending, inside the body). */
export function chunksOfReads(
  pipeline: WirePipeline,
  body: Uint8Array,
  cuts: readonly number[],
): StreamChunk[] {
  const reader = pipeline()
  let from = 0
  for (const cut of cuts) {
    if (cut <= from || cut >= body.length) continue
    reader.read(body.subarray(from, cut))
    from = cut
  }
  if (from < body.length) reader.read(body.subarray(from))
  return reader.end()
}
