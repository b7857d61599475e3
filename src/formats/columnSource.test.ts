import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunksOf, eventCountOf, eventsBesideChunks } from '../core/chunkList'
import { heldSessionOf, RowMap, wholeEvents } from '../core/chunkStore'
import { ColumnRows } from '../core/columns'
import { encodeEvents } from '../core/columnWriter'
import type { SessionEvent } from '../core/session'
import { expectListReads } from '../test/chunkListChecks'
import { corpusFiles, readCorpus } from '../test/corpus'
import { generateStream } from '../test/generate'
import { jsonl } from '../test/builders'
import { generateSessionLog } from '../test/generateSession'
import { mutate, random } from '../test/hostile'
import { loadColumns, RowList } from './columnSource'
import { loadSource } from './load'
import type { LoadedSource } from './types'

/**
 * The column readers against the object readers they stand in for: on every corpus log, seeded mutations of them,
 * generated logs and chunk files, the source loadColumns gives equals loadSource's — diagnostics word for word, the
 * session's structure, every event and chunk — and its held lists read every field of every chunk as the arrays do.
 */
function expectSame(text: string): LoadedSource {
  const columnar = loadColumns(text, 'input')
  const objects = loadSource(text, 'input')
  expect(columnar.diagnostics).toStrictEqual(objects.diagnostics)
  columnar.sessions.forEach((session, s) => {
    const plain = objects.sessions[s]!
    expect(eventCountOf(session)).toBe(plain.events.length)
    // The events beside the chunk rows are those the worker's encoder would have sent whole.
    const whole: SessionEvent[] = []
    if (plain.events.length > 0) wholeEvents(new ColumnRows(encodeEvents(plain.events)), whole)
    // (A log read by loadSource after all holds no columns: all its events are beside.)
    const beside = heldSessionOf(session) === undefined ? plain.events : whole
    expect(eventsBesideChunks(session)).toStrictEqual(beside)
    session.streams.forEach((attempt, a) => expectListReads(chunksOf(attempt), plain.streams[a]!.chunks))
  })
  // The arrays, built on first read, with everything else: the same source.
  expect(columnar).toStrictEqual(objects)
  return columnar
}

const held = (source: LoadedSource) => source.sessions.some((session) => heldSessionOf(session) !== undefined)

describe('loadColumns ≡ loadSource', () => {
  it('on every corpus log, each read as columns', () => {
    const logs = corpusFiles().filter((name) => name.endsWith('.jsonl'))
    expect(logs.length).toBeGreaterThan(5)
    for (const name of logs)
      expect({ name, held: held(expectSame(readCorpus(name))) }).toEqual({ name, held: true })
  })

  it('on seeded mutations of the corpus logs (damage, gaps, torn tails, stray records)', () => {
    const logs = corpusFiles()
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => new TextEncoder().encode(readCorpus(name)))
    const next = random(20_261_201)
    let columnar = 0
    for (const bytes of logs)
      for (let k = 0; k < 12; k++) {
        const text = new TextDecoder().decode(mutate(bytes, next, logs).bytes)
        if (held(expectSame(text))) columnar += 1
      }
    // Most mutations keep a log the columns read (the rest are out of seq order or no longer a session log).
    expect(columnar).toBeGreaterThan(logs.length * 6)
  })

  it('on rows of shapes the columns do not hold as numbers (they travel whole, still equal)', () => {
    const header = { type: 'session', version: 0, id: 's', createdAt: 1 }
    const row = (seq0: number, data: Record<string, unknown>, type = 'text-chunks') => ({
      type,
      seq0,
      time0: 10 + seq0,
      data: { turn: 1, step: 1, index: 0, dt: [1, -2], texts: ['a', 'b', 'c'], ...data },
    })
    const text = jsonl(
      header,
      { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } },
      row(1, {}),
      row(4, { turn: 'one' }),
      row(7, { index: null }),
      row(10, { step: 2.5 }),
      row(13, { args: ['{"', 'x', '"}'], id: 'call_1', name: 'bash', texts: undefined }, 'tool-call-chunks'),
      row(16, { args: ['1', '2', '3'], id: 'call_2', texts: undefined }, 'tool-call-chunks'),
      {
        type: 'assistant/chunk',
        seq: 19,
        time: 40,
        data: { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } },
      },
      {
        type: 'assistant/chunk',
        seq: 20,
        time: null,
        data: { step: 1, turn: 1, chunk: { type: 'text-delta', index: 0, text: 'x' } },
      },
      {
        type: 'assistant/chunk',
        seq: 21,
        time: 42.5,
        data: { turn: 1, step: 1, chunk: { index: 0, type: 'text-delta', text: 'y' } },
        surfaceOp: 'x',
      },
      {
        type: 'assistant/message',
        seq: 22,
        time: 43,
        data: { turn: 1, step: 1, message: { content: [] } },
        sourceEventSeqs: [1, 2, 3],
      },
    )
    expect(held(expectSame(text))).toBe(true)
  })

  it('on generated session logs', () => {
    for (const targetChars of [3_000, 200_000]) {
      const { text } = generateSessionLog({ targetChars, deltas: 40 })
      expect(held(expectSame(text))).toBe(true)
    }
  })

  it('on chunk NDJSON, over several batches, and damaged', () => {
    const lines = generateStream(120_000).map((c) => JSON.stringify(c.chunk))
    expect(held(expectSame(lines.join('\n') + '\n'))).toBe(true)
    const damaged = lines.slice(0, 3000)
    damaged[7] = '{"type":'
    damaged[9] = '[1]'
    damaged[11] = '{"type":"text-delta","index":0}'
    expect(held(expectSame(damaged.join('\n') + '\n\n'))).toBe(true)
    expect(expectSame('{"nope":1}\n').sessions).toHaveLength(0)
  }, 60_000)
})

describe('RowList', () => {
  it('holds the rows pushed, in order, written out as views or an array, and maps positions as RowMap of the rows does', () => {
    // Pushes of single rows and of runs, climbing with gaps or not (a stream's chunk events and packed rows), with
    // views asked for in between (the loading worker's early batches).
    const op = fc.tuple(fc.nat({ max: 2 }), fc.nat({ max: 5 }), fc.boolean())
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const list = new RowList()
        const expected: number[] = []
        /** What each view asked for held, beside the rows pushed until then. */
        const views: [number[], number[]][] = []
        let next = 0
        for (const [gap, count, view] of ops) {
          next += gap
          if (count === 1) list.push(next)
          else list.pushRun(next, count)
          for (let k = 0; k < count; k++) expected.push(next++)
          if (view) views.push([[...list.view()], expected.slice()])
        }
        for (const [seen, pushed] of views) expect(seen).toStrictEqual(pushed)
        const rows = list.array()
        expect([...rows]).toStrictEqual(expected)
        const fromRuns = new RowMap(rows, list.runList())
        const scanned = new RowMap(rows)
        for (let pos = rows.length - 1; pos >= 0; pos--) {
          expect(fromRuns.row(pos)).toBe(expected[pos])
          expect(scanned.row(pos)).toBe(expected[pos])
        }
      }),
    )
  })
})
