import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AnyChunk, SourcedChunk } from '../../core/protocol'
import type { SessionEvent } from '../../core/session'
import { loadSource } from '../../formats/load'
import { anyChunk, oddChunk } from '../../test/arbitraries'
import { readCorpus } from '../../test/corpus'
import { decodeChunks, decodeEvents, encodeChunks, encodeEvents } from './columns'

/** What the page decodes after the columns went through structured clone. */
const viaPage = <T>(columns: T): T => structuredClone(columns)

const chunk = fc.oneof(anyChunk, oddChunk, fc.constant<AnyChunk>({ index: 0, type: 'text-delta', text: 'x' }))
// Every way a column narrows: none, small and epoch-sized integers, −0, fractions, the safe-integer extremes.
const time = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.integer({ min: 1_700_000_000_000, max: 1_700_000_100_000 }),
  fc.constantFrom(-0, 0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 31),
  fc.double({ noNaN: true }),
)
/** Seqs, lines, turns and steps: anything numeric must come back exactly, whatever array the batch picks. */
const num = fc.oneof(fc.nat(), fc.integer(), fc.nat({ max: 300 }), fc.constantFrom(-0, 0.5, 2 ** 40, 70_000))
const sourced = fc.record({ seq: num, time, chunk })
const event = fc.oneof(
  // The readers' shapes: a plain chunk event and a packed row's member (sessionJsonl.ts).
  fc.tuple(num, time, num, num, chunk, num).map(([seq, time, turn, step, chunk, line]) => ({
    type: 'assistant/chunk',
    seq,
    time,
    data: { turn, step, chunk },
    line,
  })),
  fc
    .tuple(num, time, num, chunk, fc.constantFrom('text-chunks', 'tool-call-chunks'))
    .map(([seq, time, turn, chunk, packed]) => ({
      type: 'assistant/chunk',
      seq,
      time,
      data: { turn, step: 1, chunk },
      line: 2,
      packed,
    })),
  // Anything else travels whole: other types, odd data, extra or reordered keys.
  fc.record({
    type: fc.constantFrom('turn/start', 'assistant/message'),
    seq: fc.nat(),
    time,
    data: fc.jsonValue(),
    line: fc.nat(),
  }),
  fc.tuple(fc.nat(), fc.jsonValue()).map(([seq, data]) => ({
    type: 'assistant/chunk',
    seq,
    time: null,
    data,
    line: 1,
    sourceEventSeqs: [seq],
  })),
  fc.nat().map((seq) => ({
    seq,
    type: 'assistant/chunk',
    time: 1,
    data: { turn: 1, step: 1, chunk: {} },
    line: 1,
  })),
  fc.nat().map((seq) => ({
    type: 'assistant/chunk',
    seq,
    time: 1,
    data: { step: 1, turn: '1', chunk: {} },
    line: 1,
  })),
) as fc.Arbitrary<SessionEvent>

describe('worker → page columns', () => {
  it('give back equal events, key order included, whatever their shape', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const decoded = decodeEvents(viaPage(encodeEvents(events)))
        expect(decoded).toEqual(events)
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(events))
      }),
    )
  })

  it('give back equal chunks, key order included, whatever their shape', () => {
    fc.assert(
      fc.property(fc.array(sourced, { maxLength: 40 }), (chunks: SourcedChunk[]) => {
        const decoded = decodeChunks(viaPage(encodeChunks(chunks)))
        expect(decoded).toEqual(chunks)
        expect(JSON.stringify(decoded)).toBe(JSON.stringify(chunks))
      }),
    )
  })

  it('give back exact seqs, lines and times from climbing clocks across many blocks of rows', () => {
    // Small steps from epoch-sized starts (offsets per block), now and then a jump, a null time or a NaN seq.
    const step = fc.oneof(fc.nat({ max: 20 }), fc.nat({ max: 20 }), fc.constant(70_000), fc.constant(-5))
    const climbing = fc
      .tuple(
        fc.array(fc.tuple(step, step, fc.boolean(), chunk), { minLength: 300, maxLength: 900 }),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([steps, withNaN, bigIndexes]) => {
        let seq = 2_000_000
        let time = 1_780_000_000_000
        let line = 40_000
        return steps.map(([ds, dt, timed, chunk], i): SessionEvent => {
          seq += ds
          time += dt
          line += ds % 3
          const value = withNaN && i === 300 ? NaN : seq
          return {
            type: 'assistant/chunk',
            seq: value,
            time: timed ? time : null,
            // Block indexes past one byte that climb slowly, as a long stream's do (offsets per block of rows).
            data: {
              turn: 1,
              step: 2,
              chunk: bigIndexes ? { type: 'text-delta', index: 300 + (i >> 4), text: 'x' } : chunk,
            },
            line,
          }
        })
      })
    fc.assert(
      fc.property(climbing, (events) => {
        const decoded = decodeEvents(viaPage(encodeEvents(events)))
        expect(decoded).toEqual(events)
        const chunks = events.map(({ seq, time, data }) => ({
          seq,
          time,
          chunk: (data as { chunk: AnyChunk }).chunk,
        }))
        expect(decodeChunks(viaPage(encodeChunks(chunks)))).toEqual(chunks)
      }),
      { numRuns: 60 },
    )
  })

  it('carry a corpus log’s chunk events as numbers and one string per distinct short text', () => {
    const events = loadSource(readCorpus('web-goal-multi-turn-actions-session.jsonl')).sessions[0]!.events
    const columns = encodeEvents(events)
    const chunkEvents = events.filter((e) => e.type === 'assistant/chunk').length
    expect(columns.rows.filter((row) => row === 0)).toHaveLength(events.length - chunkEvents)
    expect(columns.strings.length).toBeLessThan(chunkEvents)
    expect(decodeEvents(viaPage(columns))).toEqual(events)
  })
})
