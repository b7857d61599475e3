import { describe, expect, it } from 'vitest'
import { chunksOf } from '../../core/chunkList'
import type { Columns } from '../../core/columns'
import { ReplayEngine } from '../../core/ReplayEngine'
import { loadSource } from '../../formats/load'
import type { LoadedSource } from '../../formats/types'
import { readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { streamAsSessionLog, toSessionJsonl } from '../../formats/export/sessionJsonl'
import { loadColumns } from '../../formats/columnSource'
import { fitToBudget } from '../workers/budget'
import { runLoad } from '../workers/loadJob'
import { SourceAssembler, splitSource } from '../workers/transfer'
import type { LoadRequest, LoadResponse } from '../workers/loadMessages'
import { decodeTextInput, withDiagnostics } from '../../formats/loadBytes'
import { takeEarlyBuilder } from './earlyReplay'
import { LoadReceiver } from './loadReceiver'

/**
 * The worker's messages for `text` (or a file of these bytes: read, decoded and parsed in pieces,
 * workers/readFile.ts), each through structured clone as postMessage copies it.
 */
async function workerMessages(text: string | Uint8Array<ArrayBuffer>): Promise<LoadResponse[]> {
  const messages: LoadResponse[] = []
  const request: LoadRequest =
    typeof text === 'string'
      ? { type: 'load-text', text, name: 'input' }
      : { type: 'load-file', file: new Blob([text]), name: 'input' }
  await runLoad(request, (message) => messages.push(structuredClone(message)))
  return messages
}

const encode = (text: string) => new TextEncoder().encode(text)

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * The page's side: every message received in order; before the shell, the early replay is given the time to replay
 * what came (so the pass handed over has really begun).
 */
async function receive(messages: readonly LoadResponse[], replayed = 1) {
  const receiver = new LoadReceiver(() => {})
  for (const message of messages) {
    if (message.type === 'shell')
      while (receiver.earlyReplay !== null && receiver.earlyReplay.processed < replayed) await nextTask()
    const received = receiver.receive(message)
    if (received.kind === 'done') return received.source
    if (received.kind === 'failed') throw new Error(received.message)
  }
  throw new Error('no done message')
}

/** The first stream's engine as the store builds it: from the early pass when one was handed over. */
function firstEngine(source: LoadedSource) {
  const attempt = source.sessions[0]!.streams.find((stream) => chunksOf(stream).length > 0)!
  const early = takeEarlyBuilder(attempt)
  return { early: early?.processed ?? null, engine: new ReplayEngine(early ?? chunksOf(attempt)), attempt }
}

const bare = (chunks: number) =>
  generateStream(chunks)
    .map((c) => JSON.stringify(c.chunk))
    .join('\n') + '\n'

describe('a load whose batches come while the worker reads', () => {
  // One long stream in packed rows and plain chunk events, as the bench's 100 MB log (several batches of rows).
  const log = toSessionJsonl(streamAsSessionLog(generateStream(120_000)))

  it('gives the source loadSource reads, and a first pass begun early that replays like a fresh one', async () => {
    for (const text of [log, bare(120_000)])
      for (const input of [text, encode(text)]) {
        const messages = await workerMessages(input)
        const shell = messages.findIndex((message) => message.type === 'shell')
        expect(messages.slice(0, shell).filter((message) => message.type === 'part').length).toBeGreaterThan(
          1,
        )
        const source = await receive(messages)
        expect(source).toEqual(fitToBudget(loadSource(text, 'input')))
        const { early, engine, attempt } = firstEngine(source)
        expect(early).toBeGreaterThan(0)
        const fresh = new ReplayEngine(attempt.chunks)
        expect(engine.total).toBe(fresh.total)
        expect(engine.effectCodes).toEqual(fresh.effectCodes)
        expect(engine.findings).toEqual(fresh.findings)
        expect(engine.result).toEqual(fresh.result)
        for (const k of [0, 1, early! - 1, early!, early! + 1, fresh.total - 1, fresh.total])
          expect(engine.seek(k)).toEqual(fresh.seek(k))
      }
  }, 120_000)

  it('posts the last batch before the shell too, and a pass that replayed every chunk early is the fresh one', async () => {
    for (const text of [log, bare(120_000)]) {
      const expected = fitToBudget(loadSource(text, 'input'))
      const total = chunksOf(expected.sessions[0]!.streams.find((s) => chunksOf(s).length > 0)!).length
      const messages = await workerMessages(encode(text))
      const shell = messages.findIndex((message) => message.type === 'shell')
      expect(messages.slice(shell).filter((message) => message.type === 'part')).toEqual([])
      const source = await receive(messages, total)
      expect(source).toEqual(expected)
      const { early, engine, attempt } = firstEngine(source)
      expect(early).toBe(total)
      const fresh = new ReplayEngine(attempt.chunks)
      expect(engine.effectCodes).toEqual(fresh.effectCodes)
      expect(engine.findings).toEqual(fresh.findings)
      expect(engine.result).toEqual(fresh.result)
      for (const k of [0, 1, total >> 1, total - 1, total]) expect(engine.seek(k)).toEqual(fresh.seek(k))
    }
  }, 120_000)

  it('drops what came early from a file read in pieces that turns out not UTF-8 or out of seq order', async () => {
    // Longer than the first piece the worker reads after the head, so that batches are posted before the end.
    const long = toSessionJsonl(streamAsSessionLog(generateStream(400_000)))
    const bad = encode(long)
    bad[bad.length - 100] = 0xff
    const late = JSON.stringify({ type: 'turn/start', seq: 0, time: 1, data: { turn: 99 } })
    for (const bytes of [bad, encode(`${long}${late}\n`)]) {
      const messages = await workerMessages(bytes)
      const shell = messages.findIndex((message) => message.type === 'shell')
      expect(messages.slice(0, shell).filter((message) => message.type === 'part').length).toBeGreaterThan(1)
      expect(messages[shell]).toMatchObject({ early: 0 })
      const decoded = decodeTextInput(bytes)
      const source = await receive(messages)
      expect(source).toEqual(
        fitToBudget(withDiagnostics(loadSource(decoded.text, 'input'), decoded.diagnostics)),
      )
      expect(firstEngine(source).early).toBeNull()
    }
  }, 120_000)

  it('drops what came early when the reader falls back to objects (a log out of seq order)', async () => {
    const late = JSON.stringify({ type: 'turn/start', seq: 0, time: 1, data: { turn: 99 } })
    const text = `${log}${late}\n`
    const messages = await workerMessages(text)
    const shell = messages.find((message) => message.type === 'shell')
    expect(shell).toMatchObject({ early: 0 })
    const source = await receive(messages)
    expect(source).toEqual(fitToBudget(loadSource(text, 'input')))
    expect(firstEngine(source).early).toBeNull()
  }, 120_000)

  it('keeps what came early for a session log cut to the limits (as its events), not for a cut chunk file', () => {
    const limits = {
      inputBytes: Infinity,
      chunksPerStream: 60_000,
      blocksPerStream: 20_000,
      charsPerStream: 1e9,
    }
    for (const [text, keeps] of [
      [log, true],
      [bare(120_000), false],
    ] as const) {
      const sent = new Set<Columns>()
      const read = fitToBudget(
        loadColumns(text, 'input', undefined, (batch) => sent.add(batch.columns)),
        limits,
      )
      expect(sent.size).toBeGreaterThan(1)
      const cut = fitToBudget(loadSource(text, 'input'), limits)
      expect(read).toEqual(cut)
      expect(chunksOf(read.sessions[0]!.streams[0]!).length).toBe(60_000)
      const { shell, plan, parts, early } = splitSource(read, undefined, sent)
      expect(early).toBe(keeps ? sent.size : 0)
      expect(plan.sessions[0]?.streams[0]?.length).toBe(keeps ? 60_000 : undefined)
      // The page drops what came early when `early` is less: the parts alone make the source.
      const assembler = new SourceAssembler()
      if (keeps) for (const columns of sent) assembler.add({ type: 'events', session: 0, events: columns })
      for (const next of parts) assembler.add(structuredClone(next()))
      expect(assembler.finish(structuredClone(shell), structuredClone(plan))).toEqual(cut)
    }
  }, 120_000)

  it('hands over no early pass over chunks the finished stream does not hold', async () => {
    const messages = await workerMessages(log)
    const shell = messages.find((message) => message.type === 'shell')!
    if (shell.type !== 'shell') throw new Error('no shell')
    // A plan whose stream takes another row early on (as if the source's segmenting had gone another way).
    const rows = shell.plan.sessions[0]!.streams[0]!
    rows[3] = rows[3]! + 1
    const { attempt, early } = firstEngine(await receive(messages))
    expect(early).toBeNull()
    expect(chunksOf(attempt).length).toBe(rows.length)
  }, 120_000)

  it('reads a corpus log with no batch before the shell', async () => {
    const text = readCorpus('web-goal-multi-turn-actions-session.jsonl')
    const messages = await workerMessages(text)
    expect(messages.find((message) => message.type === 'shell')).toMatchObject({ early: 0 })
    expect(await receive(messages)).toEqual(loadSource(text, 'input'))
  })
})
