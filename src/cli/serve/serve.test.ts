import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { AnyChunk } from '../../core/protocol'
import type { Attempt } from '../../core/session'
import { loadBytes } from '../../formats/loadBytes'
import { readSseStream } from '../../formats/sse/readSse'
import type { WireDialect } from './encodeWire'
import { startReplayServer, type Faults } from './replayServer'
import { replayBody } from './runServe'
import { CORPUS_DIR } from '../../test/corpus'

const CORPUS = CORPUS_DIR
const FIXTURES = new URL('../../formats/fixtures/', import.meta.url)

async function attemptsOf(dir: URL, names: string[]): Promise<{ name: string; attempt: Attempt }[]> {
  const found: { name: string; attempt: Attempt }[] = []
  for (const name of names) {
    const source = await loadBytes(readFileSync(new URL(name, dir)), name)
    for (const session of source.sessions)
      for (const attempt of session.streams) if (attempt.chunks.length > 0) found.push({ name, attempt })
  }
  return found
}

/** Serves the attempt once with no pauses and reads the body back through our own SSE reader. */
async function roundTrip(attempt: Attempt, dialect: WireDialect, faults: Faults = {}) {
  const server = await startReplayServer({ body: replayBody(attempt, dialect), port: 0, speed: 0, faults })
  try {
    const response = await fetch(
      `${server.url}/v1/${dialect === 'openai' ? 'chat/completions' : 'messages'}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', stream: true, messages: [] }),
      },
    )
    // A cut connection rejects the read; what arrived before it is in the partial text.
    const text = await readAll(response)
    const read = readSseStream(text, dialect === 'openai' ? 'openai-sse' : 'anthropic-sse')
    return { status: response.status, chunks: read.attempt?.chunks.map((c) => c.chunk) ?? [] }
  } finally {
    await server.close()
  }
}

async function readAll(response: Response): Promise<string> {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // The connection dropped (--cut-at): keep what came.
  }
  return text
}

function withoutReplayState(chunk: AnyChunk): AnyChunk {
  if (chunk.type !== 'finish') return chunk
  const { replayState: _dropped, ...rest } = chunk as Record<string, unknown> & AnyChunk
  return rest as AnyChunk
}

const chunksOf = (attempt: Attempt): AnyChunk[] => attempt.chunks.map((c) => c.chunk)
/** Without the recorded wire body, so the chunks themselves are re-encoded. */
const bare = (attempt: Attempt): Attempt => ({ ...attempt, chunks: attempt.chunks, wire: undefined as never })

/** Whether every closed block holds what its deltas streamed (text as is, tool input as the same JSON value). */
function contentStreamed(chunks: readonly AnyChunk[]): boolean {
  const streamed = new Map<number, string>()
  for (const chunk of chunks as readonly Record<string, unknown>[]) {
    const index = chunk['index'] as number
    const part = chunk['type'] === 'tool-call-delta' ? chunk['argumentsDelta'] : chunk['text']
    if (String(chunk['type']).endsWith('-delta'))
      streamed.set(index, (streamed.get(index) ?? '') + String(part ?? ''))
    const block = chunk['block'] as { type?: string; arguments?: string; text?: string } | undefined
    if (chunk['type'] !== 'block-end' || block === undefined) continue
    if (block.type !== 'tool-call') {
      if ((streamed.get(index) ?? '') !== block.text) return false
      continue
    }
    const parse = (text: string) => JSON.stringify(JSON.parse(text === '' ? '{}' : text))
    try {
      if (parse(streamed.get(index) ?? '') !== parse(block.arguments ?? '')) return false
    } catch {
      return false
    }
  }
  return true
}

describe('chunkscope serve', () => {
  it('re-encodes the corpus streams the Messages wire can carry; our reader reads them back chunk for chunk', async () => {
    const attempts = await attemptsOf(
      CORPUS,
      readdirSync(CORPUS).filter((name) => name.endsWith('.jsonl')),
    )
    let compared = 0
    for (const { name, attempt } of attempts) {
      const recorded = chunksOf(attempt)
      const finish = recorded.find((chunk) => chunk.type === 'finish') as
        { reason: { kind: string; failure?: { code: string } } } | undefined
      // An error finish without a wire form of its own (a provider HTTP error, an empty response) cannot travel.
      if (finish?.reason.kind === 'error' || finish?.reason.kind === 'aborted') continue
      // Anthropic sends a block's content only as its deltas: a recording whose closed block says otherwise
      // (content that never streamed) has no Anthropic wire form.
      if (!contentStreamed(recorded)) continue
      const served = await roundTrip(attempt, 'anthropic')
      // replayState is adapter-private (§1), rebuilt by the adapter from the response: compared on neither side.
      const back = { chunks: served.chunks.map(withoutReplayState) }
      const expected = recorded.map((chunk) => {
        // The Messages API reports no reasoning-token count, so the Anthropic adapter never has one, and the
        // adapter keeps cache counts only when above 0 (§9).
        if (chunk.type === 'usage') {
          const { reasoningTokens: _none, ...usage } = (chunk as { usage: Record<string, number> }).usage
          if (usage['cacheReadTokens'] === 0) delete usage['cacheReadTokens']
          if (usage['cacheWriteTokens'] === 0) delete usage['cacheWriteTokens']
          return { ...chunk, usage }
        }
        // The Anthropic adapter's block-end re-serialises the parsed tool input (§9): compact JSON.
        const block = (chunk as { block?: { type: string; arguments: string } }).block
        if (chunk.type === 'block-end' && block?.type === 'tool-call')
          return {
            ...chunk,
            block: { ...block, arguments: JSON.stringify(JSON.parse(block.arguments || '{}')) },
          }
        return withoutReplayState(chunk)
      })
      if (finish === undefined) {
        // A recording that stops before its finish is served as a dropped connection: the same chunks, then
        // whatever the reader makes of a body cut short, ending in an error finish. (Which branch applies is a
        // property of each corpus recording, not of the code under test.)
        // oxlint-disable-next-line vitest/no-conditional-expect
        expect({ name, id: attempt.id, chunks: back.chunks.slice(0, expected.length) }).toEqual({
          name,
          id: attempt.id,
          chunks: expected,
        })
        // oxlint-disable-next-line vitest/no-conditional-expect
        expect(back.chunks.at(-1)).toMatchObject({ type: 'finish', reason: { kind: 'error' } })
        compared += 1
        continue
      }
      // The Messages API always reports usage: a recording without it is served with zeros.
      if (!recorded.some((chunk) => chunk.type === 'usage'))
        expected.splice(expected.length - 1, 0, { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } })
      expect({ name, id: attempt.id, chunks: back.chunks }).toEqual({
        name,
        id: attempt.id,
        chunks: expected,
      })
      compared += 1
    }
    expect(compared).toBeGreaterThan(10)
  })

  it('re-encodes recorded DeepSeek bodies (read as bare chunks) so our reader reads back the same chunks', async () => {
    const names = ['deepseek-reasoner-tool-calls.sse', 'deepseek-reasoner-truncated.sse']
    for (const { name, attempt } of await attemptsOf(FIXTURES, names)) {
      const back = await roundTrip(bare(attempt), 'openai')
      expect({ name, chunks: back.chunks }).toEqual({ name, chunks: chunksOf(attempt) })
      // As captured, the body is sent verbatim: the same chunks again.
      expect((await roundTrip(attempt, 'openai')).chunks).toEqual(chunksOf(attempt))
    }
  })

  it('scripted faults: --cut-at K drops the connection before chunk K, --http answers the status', async () => {
    const attempt = (await attemptsOf(FIXTURES, ['anthropic-thinking-tool-use.sse']))[0]!.attempt
    const recorded = chunksOf(attempt)
    const k = 5
    const cut = await roundTrip(attempt, 'anthropic', { cutAt: k })
    expect(cut.chunks.slice(0, k)).toEqual(recorded.slice(0, k))
    // Nothing of chunk K or later arrived: only what the reader adds at a cut (usage so far, an error finish).
    expect(cut.chunks.slice(k).every((chunk) => chunk.type === 'usage' || chunk.type === 'finish')).toBe(true)
    expect(cut.chunks.at(-1)).toMatchObject({ type: 'finish', reason: { kind: 'error' } })
    const stalled = await roundTrip(attempt, 'anthropic', { stallAt: { at: k, ms: 20 } })
    expect(stalled.chunks).toEqual(recorded)
    const limited = await roundTrip(attempt, 'openai', { httpStatus: 429 })
    expect(limited.status).toBe(429)
  })
})
