import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { block, event, sessionEvents, type StorageRecord } from '../test/builders'
import { printSession } from '../test/printSession'
import { be, bs, finish, finishError, td } from '../test/chunks'
import { buildSession, buildStreamSession, compareRecorded, seqsNotCited } from './session'

const build = (...records: StorageRecord[]) => buildSession(null, sessionEvents(...records))

describe('buildSession: segmentation (docs/protocol.md §6)', () => {
  it('groups chunks by (turn, step) into attempts, with turn starts and ends', () => {
    const session = build(
      event.turnStart(0, 1),
      event.stepStart(1, 1, 1),
      event.chunk(2, 1, 1, td(0, 'a')),
      event.chunk(3, 1, 1, finish('tool-calls')),
      event.stepEnd(4, 1, 1),
      event.stepStart(5, 1, 2),
      event.chunk(6, 1, 2, td(0, 'b')),
      event.chunk(7, 1, 2, finish('stop')),
      event.turnEnd(8, 1),
    )
    expect(printSession(session)).toMatchInlineSnapshot(`
      "turn 1 end@8 completed
        step 1
          t1.s1.a1 first [2-3] finish tool-calls
        step 2
          t1.s2.a1 first [6-7] finish stop"
    `)
    expect(session.streams.map((a) => [a.id, a.turn, a.step, a.attempt])).toEqual([
      ['t1.s1.a1', 1, 1, 1],
      ['t1.s2.a1', 1, 2, 1],
    ])
    expect(session.turns[0]!.start).toEqual({ seq: 0 })
    expect(session.streams[0]!.chunks[0]).toEqual({ seq: 2, time: 1002, chunk: td(0, 'a') })
  })

  it('starts a new attempt after a finish when more chunks of the same (turn, step) follow', () => {
    const session = build(
      event.chunk(0, 1, 1, finishError('CONTEXT_WINDOW_EXCEEDED')),
      event.other(1, 'compaction/start', { turn: 1 }),
      event.chunk(2, 1, 1, td(0, 'again')),
      event.chunk(3, 1, 1, finish('stop')),
    )
    expect(printSession(session)).toMatchInlineSnapshot(`
      "turn 1 (no turn/start)
        step 1
          t1.s1.a1 first [0] finish error CONTEXT_WINDOW_EXCEEDED
          t1.s1.a2 after-finish [2-3] finish stop"
    `)
  })

  it('starts a new attempt at llm/retry-started even when the previous one has no finish', () => {
    const session = build(
      event.chunk(0, 1, 1, td(0, 'cut')),
      event.retryStarted(1, 1, 1, 'r-7'),
      event.chunk(2, 1, 1, td(0, 'whole')),
    )
    expect(session.streams.map((a) => [a.id, a.kind, a.retryId])).toEqual([
      ['t1.s1.a1', 'first', undefined],
      ['t1.s1.a2', 'retry', 'r-7'],
    ])
  })

  it('opens one attempt, not two, when a retry follows a finish', () => {
    const session = build(
      event.chunk(0, 1, 1, finishError('EMPTY_RESPONSE')),
      event.other(1, 'llm/retry', { turn: 1, step: 1 }),
      event.retryStarted(2, 1, 1),
      event.chunk(3, 1, 1, finish('stop')),
    )
    expect(session.streams.map((a) => `${a.id} ${a.kind}`)).toEqual(['t1.s1.a1 first', 't1.s1.a2 retry'])
  })

  it('keeps a retry-started for another (turn, step) from splitting this one', () => {
    const session = build(
      event.chunk(0, 1, 1, td(0, 'a')),
      event.retryStarted(1, 1, 2),
      event.chunk(2, 1, 1, td(0, 'b')),
    )
    expect(session.streams.map((a) => a.chunks.length)).toEqual([2])
  })

  it('makes attempts of orphan chunks whose turn and step have no start events', () => {
    const session = build(event.chunk(0, 2, 1, td(0, 'x')), event.chunk(1, 3, 1, finish('stop')))
    expect(printSession(session)).toMatchInlineSnapshot(`
      "turn 2 (no turn/start)
        step 1
          t2.s1.a1 first [0] no finish
      turn 3 (no turn/start)
        step 1
          t3.s1.a1 first [1] finish stop"
    `)
  })

  it('keeps chunks without turn/step numbers in a stream of their own', () => {
    const session = build({
      type: 'assistant/chunk',
      seq: 0,
      time: 0,
      data: { chunk: td(0, 'x') },
    })
    expect(session.turns).toEqual([])
    expect(session.streams.map((a) => [a.id, a.turn, a.step])).toEqual([['t?.s?.a1', null, null]])
  })

  it('shows a chunk event without a chunk object as an unknown chunk in its stream', () => {
    const session = build(event.chunk(0, 1, 1, 42))
    expect(session.streams[0]!.chunks[0]!.chunk).toEqual({ type: '(not a chunk)', value: 42 })
  })

  it('segments in seq order even when the events arrive out of order', () => {
    const session = build(
      event.chunk(2, 1, 1, td(0, 'b')),
      event.chunk(0, 1, 1, finish('stop')),
      event.chunk(1, 1, 1, td(0, 'a')),
    )
    expect(printSession(session)).toContain(
      't1.s1.a1 first [0] finish stop\n    t1.s1.a2 after-finish [1-2] no finish',
    )
    expect(session.events.map((e) => e.seq)).toEqual([2, 0, 1])
  })
})

describe('buildSession: recorded messages', () => {
  it('links an attempt to the message citing its chunks', () => {
    const session = build(
      event.chunk(0, 1, 1, finishError('EMPTY_RESPONSE')),
      event.retryStarted(1, 1, 1),
      event.chunk(2, 1, 1, td(0, 'ok')),
      event.chunk(3, 1, 1, finish('stop')),
      event.message(4, 1, 1, [block.text('ok')], [2, 3]),
    )
    const [failed, retried] = session.streams
    expect(failed!.recorded).toBeNull()
    expect(retried!.recorded).toMatchObject({
      seq: 4,
      line: 6,
      turn: 1,
      step: 1,
      interrupted: false,
      content: [block.text('ok')],
      shape: 'current',
      provenance: 'cited',
      attemptId: 't1.s1.a2',
      sourceEventSeqs: [2, 3],
      citation: { missing: [], foreign: [], uncited: [] },
    })
    expect(session.messages).toEqual([retried!.recorded])
  })

  it('records cited seqs that are missing, that belong elsewhere, and chunks left uncited', () => {
    const session = build(
      event.turnStart(0, 1),
      event.chunk(1, 1, 1, td(0, 'a')),
      event.chunk(2, 1, 1, td(0, 'b')),
      event.chunk(3, 1, 1, finish('stop')),
      event.message(4, 1, 1, [block.text('ab')], [0, 1, 2, 9]),
    )
    expect(session.messages[0]!.citation).toEqual({ missing: [9], foreign: [0], uncited: [3] })
    expect(session.streams[0]!.recorded?.seq).toBe(4)
  })

  it('keeps a message without sourceEventSeqs as unknown provenance, unlinked but visible', () => {
    const session = build(
      event.stepStart(0, 1, 1),
      event.message(1, 1, 1, [block.toolCall('c', 'write', '{}')]),
    )
    expect(session.messages).toMatchObject([
      { seq: 1, provenance: 'unknown', attemptId: null, sourceEventSeqs: [] },
    ])
    expect(session.streams).toEqual([])
    expect(session.events.map((e) => e.type)).toEqual(['step/start', 'assistant/message'])
  })

  it('reads the legacy shape: content at data.content', () => {
    const session = build(
      event.chunk(0, 1, 1, td(0, 'old')),
      event.legacyMessage(1, 1, 1, [block.text('old')], [0]),
    )
    const recorded = session.streams[0]!.recorded!
    expect(recorded).toMatchObject({ shape: 'legacy', content: [block.text('old')] })
    expect(recorded.message).toMatchObject({ provenance: { provider: 'p', model: 'm' } })
  })

  it('links a second message citing an already linked attempt to nothing', () => {
    const session = build(
      event.chunk(0, 1, 1, finish('stop')),
      event.message(1, 1, 1, [], [0]),
      event.message(2, 1, 1, [], [0]),
    )
    expect(session.messages.map((m) => m.attemptId)).toEqual(['t1.s1.a1', null])
  })
})

describe('compareRecorded', () => {
  const recordedAttempt = (chunks: unknown[], content: unknown[], interrupted = false) => {
    const records = chunks.map((c, seq) => event.chunk(seq, 1, 1, c))
    const cited = records.map((_, seq) => seq)
    const message = event.message(chunks.length, 1, 1, content as never, cited, { interrupted })
    return build(...records, message).streams[0]!
  }

  it('matches when blocks() equals the recorded content', () => {
    const attempt = recordedAttempt(
      [bs(0, 'text'), td(0, 'hi'), be(0, block.text('hi')), finish('stop')],
      [{ text: 'hi', type: 'text' }],
    )
    expect(compareRecorded(attempt)).toEqual({
      match: true,
      assembled: [block.text('hi')],
      expected: [{ text: 'hi', type: 'text' }],
    })
  })

  it('reports a mismatch with both sides', () => {
    const attempt = recordedAttempt([td(0, 'hi')], [block.text('bye')])
    expect(compareRecorded(attempt)).toMatchObject({ match: false, assembled: [block.text('hi')] })
  })

  it('uses interruptedBlocks() for an interrupted message', () => {
    const chunks = [bs(0, 'text'), td(0, 'half'), bs(1, 'tool-call')]
    expect(compareRecorded(recordedAttempt(chunks, [block.text('half')], true))?.match).toBe(true)
    // blocks() would keep the open tool call, so the same content does not match a non-interrupted message.
    expect(compareRecorded(recordedAttempt(chunks, [block.text('half')], false))?.match).toBe(false)
  })

  it('reports a mismatch, not a crash, when assembly throws for an open block of unknown type', () => {
    const attempt = recordedAttempt([bs(0, 'video')], [])
    expect(compareRecorded(attempt)).toEqual({
      match: false,
      assembled: null,
      expected: [],
      error: 'cannot assemble incomplete block of type "video"',
    })
  })

  it('is null for an attempt with no linked message', () => {
    expect(compareRecorded(build(event.chunk(0, 1, 1, finish('stop'))).streams[0]!)).toBeNull()
  })
})

describe('buildStreamSession', () => {
  it('makes one stream with no header and no turns', () => {
    const chunks = [{ seq: 0, time: null, chunk: td(0, 'x') }]
    expect(buildStreamSession(chunks)).toEqual({
      header: null,
      events: [],
      turns: [],
      messages: [],
      streams: [
        { id: 'stream', turn: null, step: null, attempt: null, kind: 'stream', chunks, recorded: null },
      ],
    })
  })
})

describe('seqsNotCited', () => {
  it('gives what a set of the cited seqs gives, in order, whether the lists climb (one merge) or not', () => {
    const seq = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(-0, 0.5, 2 ** 53))
    fc.assert(
      fc.property(
        fc.array(seq, { maxLength: 50 }),
        fc.array(seq, { maxLength: 50 }),
        fc.boolean(),
        (seqs, cited, sorted) => {
          const [mine, theirs] = sorted
            ? [[...seqs].sort((a, b) => a - b), [...cited].sort((a, b) => a - b)]
            : [seqs, cited]
          const set = new Set(theirs)
          expect(seqsNotCited(mine, theirs)).toStrictEqual(mine.filter((s) => !set.has(s)))
        },
      ),
    )
  })
})
