import { readFileSync } from 'node:fs'
import { loadSource } from '../formats/load'
import { wireEvent } from '../formats/wire'
import { explainEvent, firstFinishReasonEvent } from '../ui/adapter/explainEvent'

/** Each raw event of a fixture (a path under src/formats/fixtures/) with what it became, or why it became nothing. */
export function wirePairs(path: string) {
  const text = readFileSync(new URL(`../formats/fixtures/${path}`, import.meta.url), 'utf8')
  const attempt = loadSource(text).sessions[0]!.streams[0]!
  const trace = attempt.wire!
  return Array.from({ length: trace.count }, (_, i) => {
    const event = wireEvent(trace, i)!
    return {
      raw: event.raw,
      chunks: event.chunkPositions.map((k) => attempt.chunks[k]!.chunk.type),
      note: explainEvent(trace, i, attempt.chunks, firstFinishReasonEvent(trace)),
    }
  })
}
