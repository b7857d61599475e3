import type { SourcedChunk, StreamChunk } from '../core/protocol'

/**
 * A long, realistic stream for benchmarks and load tests: reasoning, text and tool-call blocks of ~`perBlock`
 * deltas each, DeepSeek-style (a block opens, its deltas stream, it closes), then usage and finish.
 * Deterministic: the same n gives the same chunks. Times advance 1–20 ms per chunk from a fixed epoch.
 */
export function generateStream(n: number, perBlock = 400): SourcedChunk[] {
  const out: SourcedChunk[] = []
  let time = 1_780_000_000_000
  let seed = 42
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const push = (chunk: StreamChunk): void => {
    time += 1 + Math.floor(random() * 20)
    out.push({ seq: out.length, time, chunk })
  }
  const words = ['zebra ', 'quartz ', 'lantern ', '思考 ', 'delta\n', '{"k": ', 'tool ', '\t', 'ok. ']
  let index = 0
  while (out.length < n - 2) {
    const kind = index % 3 === 0 ? 'reasoning' : index % 3 === 1 ? 'text' : 'tool-call'
    const deltas = Math.min(perBlock, n - 4 - out.length)
    if (deltas < 1) break
    push({ type: 'block-start', index, blockType: kind })
    let body = ''
    for (let d = 0; d < deltas; d++) {
      const piece = words[Math.floor(random() * words.length)]!
      body += piece
      if (kind === 'tool-call') {
        push({ type: 'tool-call-delta', index, id: `call_${index}`, name: 'bash', argumentsDelta: piece })
      } else {
        push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index, text: piece })
      }
    }
    push({
      type: 'block-end',
      index,
      block:
        kind === 'tool-call'
          ? { type: 'tool-call', id: `call_${index}`, name: 'bash', arguments: body }
          : { type: kind, text: body },
    })
    index += 1
  }
  push({ type: 'usage', usage: { inputTokens: 1000, outputTokens: out.length } })
  push({ type: 'finish', reason: { kind: 'stop' } })
  return out
}
