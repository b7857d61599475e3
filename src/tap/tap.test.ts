import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { StreamChunk } from '../core/protocol'
import { loadBytes } from '../formats/loadBytes'
import { tap } from './tap'
import { CORPUS_DIR } from '../test/corpus'

const corpus = CORPUS_DIR

/** Every assistant/chunk of the corpus's first streamed attempt with a stop finish: chunks nobody here wrote. */
async function corpusStreams(): Promise<StreamChunk[][]> {
  const streams: StreamChunk[][] = []
  for (const name of readdirSync(corpus).filter((file) => file.endsWith('-session.jsonl'))) {
    const source = await loadBytes(readFileSync(new URL(name, corpus)), name)
    for (const session of source.sessions)
      for (const attempt of session.streams) streams.push(attempt.chunks.map((c) => c.chunk as StreamChunk))
  }
  return streams.filter((chunks) => chunks.length > 0)
}

async function* generate<C>(items: readonly C[], fail?: unknown): AsyncGenerator<C> {
  for (const item of items) yield item
  if (fail !== undefined) throw fail
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chunkscope-tap-'))
  dirs.push(dir)
  return dir
}

async function drain<C>(stream: AsyncIterable<C>): Promise<C[]> {
  const seen: C[] = []
  for await (const item of stream) seen.push(item)
  return seen
}

describe('tap', () => {
  it('passes every corpus stream through unchanged and logs it so it opens with the same chunks', async () => {
    const streams = await corpusStreams()
    expect(streams.length).toBeGreaterThan(10)
    const out = scratch()
    for (const chunks of streams) {
      const logs: string[] = []
      const seen = await drain(tap(generate(chunks), { out, onLog: (path) => logs.push(path) }))
      // The very same objects, in order: tap never copies or alters a chunk.
      expect(seen).toHaveLength(chunks.length)
      seen.forEach((chunk, i) => expect(chunk).toBe(chunks[i]))
      expect(logs).toHaveLength(1)
      const opened = await loadBytes(readFileSync(logs[0]!), 'tap.jsonl')
      expect(opened.format).toBe('dsh-session-jsonl')
      const replayed = opened.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
      // Up to the first finish: what the harness reads of a stream (a recorded stream ends there anyway).
      const end = chunks.findIndex((chunk) => chunk.type === 'finish')
      expect(replayed).toEqual(end === -1 ? chunks : chunks.slice(0, end + 1))
    }
    expect(readdirSync(out)).toHaveLength(streams.length)
  })

  it("logs an adapter's throw as the harness does (finish error with the LlmError code) and rethrows it", async () => {
    class HarnessError extends Error {
      constructor(
        message: string,
        readonly code: string,
      ) {
        super(message)
      }
    }
    class LlmError extends HarnessError {}
    const out = scratch()
    const cases: [unknown, { kind: string; code: string; message: string }][] = [
      [new LlmError('slow down', 'RATE_LIMIT'), { kind: 'error', code: 'RATE_LIMIT', message: 'slow down' }],
      [new LlmError('stop', 'ABORTED'), { kind: 'aborted', code: 'ABORTED', message: 'stop' }],
      // A third-party error's code is not the harness's taxonomy.
      [
        Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
        { kind: 'error', code: 'UNKNOWN', message: 'socket hang up' },
      ],
      ['plain string', { kind: 'error', code: 'UNKNOWN', message: 'plain string' }],
    ]
    for (const [thrown, expected] of cases) {
      const logs: string[] = []
      const start: StreamChunk = { type: 'block-start', index: 0, blockType: 'text' }
      const stream = tap(generate([start], thrown), { out, onLog: (path) => logs.push(path) })
      await expect(drain(stream)).rejects.toBe(thrown)
      const opened = await loadBytes(readFileSync(logs[0]!), 'tap.jsonl')
      const chunks = opened.sessions[0]!.streams[0]!.chunks.map((c) => c.chunk)
      expect(chunks[0]).toEqual(start)
      expect(chunks[1]).toEqual({
        type: 'finish',
        reason: { kind: expected.kind, failure: { message: expected.message, code: expected.code } },
      })
    }
  })
})
