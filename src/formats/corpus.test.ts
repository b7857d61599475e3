import { describe, expect, it } from 'vitest'
import { assembleOpen, BlockAssembler } from '../core/BlockAssembler'
import { readAssembler } from '../core/analyzeStream'
import { jsonEqual } from '../core/jsonEqual'
import { ReplayEngine } from '../core/ReplayEngine'
import type { AnyChunk, BlockEndChunk, ContentBlock, ToolCallDeltaChunk } from '../core/protocol'
import { compareRecorded, type Attempt, type Session } from '../core/session'
import { corpusFiles, readCorpus } from '../test/corpus'
import { printSession } from '../test/printSession'
import { loadSource } from './load'
import { readSessionJsonl } from './sessionJsonl'
import type { LoadedSource } from './types'

/**
 * The real harness logs in fixtures/dsh (see its SOURCES.md). Every attempt the harness recorded must
 * re-assemble to the stored message, except in the hand-trimmed legacy file, which must be reported, not crash.
 */

const LEGACY = 'web-cordis-tool-round-legacy-session.jsonl'
const files = corpusFiles()
const cache = new Map<string, LoadedSource>()

function load(name: string): LoadedSource {
  let source = cache.get(name)
  if (!source) {
    source = loadSource(readCorpus(name), name)
    cache.set(name, source)
  }
  return source
}

function sessionOf(name: string): Session {
  const session = load(name).sessions[0]
  if (!session) throw new Error(`${name}: no session loaded`)
  return session
}

function attemptOf(name: string, id: string): Attempt {
  const attempt = sessionOf(name).streams.find((a) => a.id === id)
  if (!attempt) throw new Error(`${name}: no attempt ${id}`)
  return attempt
}

function assemble(attempt: Attempt): BlockAssembler {
  const assembler = new BlockAssembler()
  for (const sourced of attempt.chunks) assembler.push(sourced.chunk)
  return assembler
}

function lastChunk(attempt: Attempt): AnyChunk | undefined {
  return attempt.chunks.at(-1)?.chunk
}

/** Seqs of block-ends whose block differs from what the deltas before them assembled (what §5 calls end-content-mismatch). */
function blockEndsDifferingFromDeltas(attempt: Attempt): number[] {
  const assembler = new BlockAssembler()
  const differing: number[] = []
  for (const { seq, chunk } of attempt.chunks) {
    if (chunk.type === 'block-end') {
      const end = chunk as BlockEndChunk
      const partial = assembler.partial(end.index)
      const streamed = partial && !partial.block && (partial.text !== '' || partial.toolCallArguments !== '')
      if (streamed && !jsonEqual(assembleOpen(partial, end.index), end.block)) differing.push(seq)
    }
    assembler.push(chunk)
  }
  return differing
}

it('holds the 15 logs SOURCES.md lists', () => {
  expect(files).toHaveLength(15)
})

describe.each(files)('%s', (name) => {
  it('loads as one harness session with a header, without throwing', () => {
    const source = load(name)
    expect(source.format).toBe('dsh-session-jsonl')
    expect(source.sessions).toHaveLength(1)
    expect(source.sessions[0]!.header?.type).toBe('session')
  })
})

describe.each(files.filter((name) => name !== LEGACY))('%s (a current, untrimmed log)', (name) => {
  it('reads without damage: no error or warning, the committed prefix is the whole log', () => {
    expect(load(name).diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
    expect(readSessionJsonl(readCorpus(name)).committed.damage).toBe('none')
  })

  it('links every message that has sourceEventSeqs to an attempt whose chunks it cites exactly', () => {
    for (const message of sessionOf(name).messages.filter((m) => m.provenance === 'cited')) {
      expect(message.attemptId).not.toBeNull()
      expect(message.citation).toEqual({ missing: [], foreign: [], uncited: [] })
    }
  })

  it('seeks every attempt to each position, in a shuffled order, to what a fresh replay of that prefix reads', () => {
    for (const attempt of sessionOf(name).streams) {
      const fresh = new BlockAssembler()
      // Each block as the fresh assembler holds it: index, text, arguments, frozen or not.
      const blocksOf = () =>
        fresh.indexes.map((index) => {
          const { text, toolCallArguments, block } = fresh.partial(index)!
          return [index, text, toolCallArguments, block !== undefined]
        })
      const expected = [readAssembler(fresh)]
      const expectedBlocks = [blocksOf()]
      for (const { chunk } of attempt.chunks) {
        fresh.push(chunk)
        expected.push(readAssembler(fresh))
        expectedBlocks.push(blocksOf())
      }
      // Checkpoints every 4 chunks: most seeks restore one, then push on from it.
      const engine = new ReplayEngine(attempt.chunks, { checkpointEvery: 4 })
      let seed = attempt.chunks.length
      const order = expected.map((_, k) => k)
      for (let at = order.length - 1; at > 0; at--) {
        seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
        const other = seed % (at + 1)
        ;[order[at], order[other]] = [order[other]!, order[at]!]
      }
      // Each target, then the step after it on the live state.
      for (const k of order.flatMap((k) => (k < order.length - 1 ? [k, k + 1] : [k]))) {
        const { k: _k, total, partials, last, findingCount, ignoredCount, ...read } = engine.seek(k)
        void [_k, total, last, findingCount, ignoredCount]
        expect(read, `${attempt.id} at ${k}`).toEqual(expected[k])
        expect(
          partials.map(({ life, text, toolCallArguments, state }) => [
            life.index,
            text,
            toolCallArguments,
            state === 'frozen',
          ]),
        ).toEqual(expectedBlocks[k])
      }
    }
  })

  it('re-assembles every recorded attempt to exactly its stored content', () => {
    const recorded = sessionOf(name).streams.filter((a) => a.recorded !== null)
    for (const attempt of recorded) {
      expect({ id: attempt.id, ...compareRecorded(attempt) }).toMatchObject({ id: attempt.id, match: true })
    }
  })
})

describe('the corpus outline', () => {
  it('segments every log into these attempts (kind, chunk seqs, finish, linked message)', () => {
    const outline = files.map((name) => `${name}\n${printSession(sessionOf(name))}`).join('\n')
    expect(outline).toMatchInlineSnapshot(`
      "acp-agent-cancel-session.jsonl
      turn 1 end@13 aborted
        step 1
          t1.s1.a1 first [9-10] no finish → message 11 interrupted
      acp-agent-empty-response-retry-session.jsonl
      turn 1 end@20 completed
        step 1
          t1.s1.a1 first [9-10] finish error EMPTY_RESPONSE
          t1.s1.a2 retry(dbe1e1b0-a914-48a4-ad9f-407b213a37ae) [13-17] finish stop → message 18
      acp-agent-error-finish-session.jsonl
      turn 1 end@11 error
        step 1
          t1.s1.a1 first [9] finish error AUTH
      acp-agent-escalation-approved-session.jsonl
      turn 1 end@188 completed
        step 1
          t1.s1.a1 first [9-131] finish tool-calls → message 132
        step 2
          t1.s2.a1 first [139-185] finish stop → message 186
      acp-agent-max-tokens-continue-session.jsonl
      turn 1 end@18 max-tokens
        step 1
          t1.s1.a1 first [9-15] finish max-tokens → message 16
      turn 2 end@31 completed
        step 1
          t2.s1.a1 first [24-28] finish stop → message 29
      acp-agent-packed-chunks-session.jsonl
      turn 1 end@123 completed
        step 1
          t1.s1.a1 first [9-56] finish tool-calls → message 57
        step 2
          t1.s2.a1 first [64-120] finish stop → message 121
      acp-agent-parallel-tool-calls-session.jsonl
      turn 1 end@31 completed
        step 1
          t1.s1.a1 first [9-16] finish tool-calls → message 17
        step 2
          t1.s2.a1 first [24-28] finish stop → message 29
      acp-agent-persistent-pwsh-tool-turn-session.jsonl
      turn 1 end@97 completed
        step 1
          t1.s1.a1 first [8-56] finish tool-calls → message 57
        step 2
          t1.s2.a1 first [62-94] finish stop → message 95
      acp-agent-subagent-max-tokens-partial-child-session.jsonl
      turn 1 end@29 max-tokens
        step 1
          t1.s1.a1 first [11-16] finish tool-calls → message 17
        step 2
          t1.s2.a1 first [23-26] finish max-tokens → message 27
      acp-agent-text-turn-session.jsonl
      turn 1 end@39 completed
        step 1
          t1.s1.a1 first [9-36] finish stop → message 37
      headless-agent-compaction-recovery-session.jsonl
      turn 1 end@30 completed
        step 1
          t1.s1.a1 first [8-12] finish tool-calls → message 13
        step 2
          t1.s2.a1 first [18] finish error CONTEXT_WINDOW_EXCEEDED
          t1.s2.a2 after-finish [23-27] finish stop → message 28
      headless-agent-tool-outcome-unknown-session.jsonl
      turn 1 end@7 interrupted
        step 1
      turn 2 end@23 completed
        step 1
          t2.s1.a1 first [17-20] finish stop → message 21
      web-approval-composer-session.jsonl
      turn 1 end@1813 completed
        step 1
          t1.s1.a1 first [10-846] finish tool-calls → message 847
        step 2
          t1.s2.a1 first [852-1731] finish tool-calls → message 1732
        step 3
          t1.s3.a1 first [1739-1770] finish tool-calls → message 1771
        step 4
          t1.s4.a1 first [1776-1810] finish stop → message 1811
      web-cordis-tool-round-legacy-session.jsonl
      turn 1 end@249 completed
        step 1
          t1.s1.a1 first [5,87,99-102] finish tool-calls → message 103
        step 2
          t1.s2.a1 first [108,131,156-159] finish tool-calls → message 160
        step 3
          t1.s3.a1 first [165,189,203-206] finish tool-calls → message 207
        step 4
          t1.s4.a1 first [212,235,243-246] finish stop → message 247
      turn 2 (no turn/start)
        step 1
          t2.s1.a1 first [251-254] finish stop
      turn 3 (no turn/start)
        step 1
          t3.s1.a1 first [255-258] finish tool-calls
        step 2
          t3.s2.a1 first [259-262] finish stop
      web-goal-multi-turn-actions-session.jsonl
      turn 1 end@1053 completed
        step 1
          t1.s1.a1 first [14-264] finish tool-calls → message 265
        step 2
          t1.s2.a1 first [272-335] finish tool-calls → message 336
        step 3
          t1.s3.a1 first [341-507] finish tool-calls → message 508
        step 4
          t1.s4.a1 first [513-632] finish tool-calls → message 633
        step 5
          t1.s5.a1 first [638-729] finish tool-calls → message 730
        step 6
          t1.s6.a1 first [735-1050] finish stop → message 1051
      turn 2 end@2097 completed
        step 1
          t2.s1.a1 first [1059-1188] finish tool-calls → message 1189
        step 2
          t2.s2.a1 first [1194-1322] finish tool-calls → message 1323
        step 3
          t2.s3.a1 first [1328-1386] finish tool-calls → message 1387
        step 4
          t2.s4.a1 first [1392-1622] finish tool-calls → message 1623
        step 5
          t2.s5.a1 first [1628-1740] finish tool-calls → message 1741
        step 6
          t2.s6.a1 first [1750-2094] finish stop → message 2095"
    `)
  })
})

describe('acp-agent-empty-response-retry: a failed attempt, then a retry in the same turn and step', () => {
  const name = 'acp-agent-empty-response-retry-session.jsonl'

  it('has two attempts in turn 1 step 1; the first ends finish error EMPTY_RESPONSE and nothing cites it', () => {
    const step = sessionOf(name).turns[0]!.steps[0]!
    expect(step.attempts.map((a) => a.id)).toEqual(['t1.s1.a1', 't1.s1.a2'])
    const [failed, retried] = step.attempts
    expect(failed!.chunks.map((c) => c.chunk.type)).toEqual(['usage', 'finish'])
    expect(lastChunk(failed!)).toMatchObject({
      reason: { kind: 'error', failure: { code: 'EMPTY_RESPONSE' } },
    })
    expect(failed!.recorded).toBeNull()
    const cited = sessionOf(name).messages.flatMap((m) => m.sourceEventSeqs)
    expect(cited).not.toContain(9)
    expect(cited).not.toContain(10)
    expect(retried).toMatchObject({ kind: 'retry', retryId: 'dbe1e1b0-a914-48a4-ad9f-407b213a37ae' })
    expect(retried!.recorded).toMatchObject({ seq: 18, sourceEventSeqs: [13, 14, 15, 16, 17] })
    expect(compareRecorded(retried!)).toMatchObject({
      match: true,
      assembled: [{ type: 'text', text: 'Recovered.' }],
    })
  })
})

describe('acp-agent-cancel: cancelled mid-stream', () => {
  const name = 'acp-agent-cancel-session.jsonl'

  it('has one attempt with no finish, linked to an interrupted message that matches interruptedBlocks()', () => {
    const attempt = attemptOf(name, 't1.s1.a1')
    expect(attempt.chunks.map((c) => c.chunk.type)).toEqual(['block-start', 'text-delta'])
    expect(attempt.recorded).toMatchObject({ seq: 11, interrupted: true, sourceEventSeqs: [9, 10] })
    const comparison = compareRecorded(attempt)
    expect(comparison).toMatchObject({ match: true, assembled: [{ type: 'text', text: 'partial' }] })
    expect(comparison?.assembled).toEqual(assemble(attempt).interruptedBlocks())
    expect(sessionOf(name).turns[0]!.end?.reason).toEqual({ kind: 'aborted', reason: { kind: 'user' } })
  })
})

describe('acp-agent-max-tokens-continue: finish max-tokens with an open tool call', () => {
  const name = 'acp-agent-max-tokens-continue-session.jsonl'

  it('drops the streamed tool call from blocks() and still matches the stored message', () => {
    const attempt = attemptOf(name, 't1.s1.a1')
    expect(lastChunk(attempt)).toMatchObject({ type: 'finish', reason: { kind: 'max-tokens' } })
    const toolDeltas = attempt.chunks.filter((c) => c.chunk.type === 'tool-call-delta')
    expect(toolDeltas.map((c) => (c.chunk as ToolCallDeltaChunk).id)).toEqual(['call-cut'])
    const blocks = assemble(attempt).blocks()
    expect(blocks.map((b) => b.type)).toEqual(['text'])
    expect(compareRecorded(attempt)).toMatchObject({
      match: true,
      expected: [{ type: 'text', text: 'Starting the write now.' }],
    })
    expect(sessionOf(name).turns[0]!.end?.reason).toEqual({ kind: 'max-tokens' })
  })

  it('prunes the replay envelope from 2 block entries to 1, as the stored message has it', () => {
    const attempt = attemptOf(name, 't1.s1.a1')
    const assembler = assemble(attempt)
    expect(assembler.rawReplayState?.blocks).toHaveLength(2)
    const stored = (attempt.recorded!.message as { source: { replayState: unknown } }).source.replayState
    expect(assembler.replayState?.blocks).toEqual([{ type: 'text' }])
    expect(jsonEqual(assembler.replayState, stored)).toBe(true)
  })
})

describe('acp-agent-persistent-pwsh-tool-turn: a block-end that differs from its deltas', () => {
  const name = 'acp-agent-persistent-pwsh-tool-turn-session.jsonl'

  it('stores the block-end arguments, not the concatenated argumentsDelta', () => {
    const attempt = attemptOf(name, 't1.s1.a1')
    const streamed = attempt.chunks
      .map((c) => c.chunk)
      .filter((c): c is ToolCallDeltaChunk => c.type === 'tool-call-delta' && c['index'] === 1)
      .map((c) => c.argumentsDelta)
      .join('')
    const end = attempt.chunks.find((c) => c.seq === 54)!.chunk as BlockEndChunk
    expect(streamed).toBe(`{"command": "[Console]::Out.Write('PWSH_OK')"}`)
    expect(end.block).toMatchObject({
      type: 'tool-call',
      arguments: `{"command":"[Console]::Out.Write('PWSH_OK')"}`,
    })
    const storedCall = attempt.recorded!.content.find((b: ContentBlock) => b.type === 'tool-call')
    expect(storedCall).toEqual(end.block)
    expect(blockEndsDifferingFromDeltas(attempt)).toEqual([54])
    expect(compareRecorded(attempt)?.match).toBe(true)
  })
})

describe('headless-agent-compaction-recovery: a retry in the same step without llm/retry', () => {
  const name = 'headless-agent-compaction-recovery-session.jsonl'

  it('splits turn 1 step 2 into a failed attempt and one after compaction', () => {
    const session = sessionOf(name)
    const step = session.turns[0]!.steps[1]!
    expect(step.step).toBe(2)
    const [failed, recovered] = step.attempts
    expect(step.attempts).toHaveLength(2)
    expect(failed!.chunks.map((c) => c.seq)).toEqual([18])
    expect(lastChunk(failed!)).toMatchObject({
      reason: { kind: 'error', failure: { code: 'CONTEXT_WINDOW_EXCEEDED' } },
    })
    expect(failed!.recorded).toBeNull()
    expect(recovered).toMatchObject({ id: 't1.s2.a2', kind: 'after-finish' })
    expect(recovered!.recorded?.seq).toBe(28)
    expect(compareRecorded(recovered!)?.match).toBe(true)
    const types = session.events.map((e) => e.type)
    expect(types).not.toContain('llm/retry')
    expect(types).not.toContain('llm/retry-started')
    expect(types.slice(types.indexOf('compaction/start'), types.indexOf('compaction/end') + 1)).toEqual([
      'compaction/start',
      'compaction/summary',
      'user/message',
      'compaction/end',
    ])
    expect(session.events.find((e) => e.seq === 21)?.surfaceOp).toEqual({ op: 'replace', start: 4, end: 4 })
  })
})

describe('acp-agent-error-finish: a lone finish error', () => {
  const name = 'acp-agent-error-finish-session.jsonl'

  it('has one attempt of one finish error AUTH chunk and no assistant/message', () => {
    const session = sessionOf(name)
    expect(session.streams).toHaveLength(1)
    const attempt = session.streams[0]!
    expect(attempt.chunks).toHaveLength(1)
    expect(lastChunk(attempt)).toMatchObject({ reason: { kind: 'error', failure: { code: 'AUTH' } } })
    expect(attempt.recorded).toBeNull()
    expect(session.messages).toEqual([])
    expect(session.turns[0]!.end?.reason).toMatchObject({ kind: 'error', error: { code: 'AUTH' } })
  })
})

describe('acp-agent-subagent-max-tokens-partial-child: a subagent child', () => {
  const name = 'acp-agent-subagent-max-tokens-partial-child-session.jsonl'

  it('reads the child header and a max-tokens attempt whose only block is dropped', () => {
    expect(sessionOf(name).header).toMatchObject({
      id: '22222222-2222-4222-8222-222222222222',
      parentSession: '11111111-1111-4111-8111-111111111111',
      origin: 'subagent',
      delegationDepth: 1,
    })
    const attempt = attemptOf(name, 't1.s2.a1')
    expect(compareRecorded(attempt)).toMatchObject({ match: true, assembled: [], expected: [] })
  })
})

describe('headless-agent-tool-outcome-unknown: crash repair', () => {
  const name = 'headless-agent-tool-outcome-unknown-session.jsonl'

  it('keeps the message without sourceEventSeqs visible but unlinked, and says so', () => {
    const session = sessionOf(name)
    expect(session.messages.map((m) => [m.seq, m.provenance, m.attemptId])).toEqual([
      [3, 'unknown', null],
      [21, 'cited', 't2.s1.a1'],
    ])
    expect(session.turns[0]!.steps[0]!.attempts).toEqual([])
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'interrupted' })
    expect(load(name).diagnostics).toMatchObject([{ line: 5, severity: 'info' }])
  })
})

describe('packed rows in the corpus (§7)', () => {
  /** The member counts of each packed row, by line. */
  const rows = (name: string) => {
    const counts = new Map<number, string>()
    const sizes = new Map<number, number>()
    for (const e of sessionOf(name).events) {
      if (e.packed === undefined) continue
      counts.set(e.line, e.packed)
      sizes.set(e.line, (sizes.get(e.line) ?? 0) + 1)
    }
    return [...counts].map(([line, type]) => `${line} ${type} ×${sizes.get(line)}`)
  }

  it('decodes all three row kinds in acp-agent-packed-chunks', () => {
    expect(rows('acp-agent-packed-chunks-session.jsonl')).toEqual([
      '12 reasoning-chunks ×17',
      '14 tool-call-chunks ×25',
      '27 reasoning-chunks ×21',
      '29 text-chunks ×30',
    ])
  })

  it('decodes the negative dt gaps of acp-agent-escalation-approved (times go back inside 2 rows)', () => {
    const events = sessionOf('acp-agent-escalation-approved-session.jsonl').events
    const goesBack = new Set<number>()
    for (let i = 1; i < events.length; i++) {
      const [prev, next] = [events[i - 1]!, events[i]!]
      if (next.packed && prev.line === next.line && next.time! < prev.time!) goesBack.add(next.line)
    }
    expect([...goesBack]).toEqual([12, 27])
    expect(events.find((e) => e.seq === 11)!.time).toBe(1784821261748 - 960585284)
  })

  it('decodes the 801- and 836-member tool-call rows of web-approval-composer', () => {
    expect(rows('web-approval-composer-session.jsonl').filter((r) => r.includes('tool-call'))).toEqual([
      '15 tool-call-chunks ×801',
      '28 tool-call-chunks ×836',
      '43 tool-call-chunks ×12',
    ])
  })

  it('reads 2017 chunk events and 12 matching messages in web-goal-multi-turn-actions, 2 block-ends differing', () => {
    const session = sessionOf('web-goal-multi-turn-actions-session.jsonl')
    expect(session.events.filter((e) => e.type === 'assistant/chunk')).toHaveLength(2017)
    expect(session.messages).toHaveLength(12)
    expect(session.streams.flatMap(blockEndsDifferingFromDeltas)).toEqual([504, 2092])
  })
})

describe(`${LEGACY}: hand-trimmed, legacy message shape`, () => {
  it('reports each seq gap with its line, and the damage as corrupt committed data', () => {
    const read = readSessionJsonl(readCorpus(LEGACY))
    const gaps = read.diagnostics.filter((d) => d.message.includes(': seq gap:'))
    expect(gaps.map((d) => d.line)).toEqual([8, 9, 19, 20, 30, 31, 41, 42])
    expect(gaps[0]!.message).toBe('line 8: seq gap: expected 6, got 87')
    expect(read.committed).toEqual({ damage: 'corrupt', events: 6, line: 8 })
    expect(
      read.diagnostics.some((d) => d.severity === 'error' && d.message.includes('corrupt committed data')),
    ).toBe(true)
  })

  it('reads the legacy messages, reports their missing cited seqs and that assembly does not match them', () => {
    const session = sessionOf(LEGACY)
    expect(session.messages.map((m) => [m.seq, m.shape, m.attemptId, m.citation.missing.length])).toEqual([
      [103, 'legacy', 't1.s1.a1', 92],
      [160, 'legacy', 't1.s2.a1', 46],
      [207, 'legacy', 't1.s3.a1', 36],
      [247, 'legacy', 't1.s4.a1', 29],
    ])
    const comparisons = session.streams.flatMap((a) => compareRecorded(a) ?? [])
    expect(comparisons.map((c) => c.match)).toEqual([false, false, false, false])
    const warnings = load(LEGACY).diagnostics.filter((d) => d.message.includes('not in the log'))
    expect(warnings.map((d) => d.line)).toEqual([13, 24, 35, 46])
  })

  it('makes attempts of the orphan chunks of turns 2 and 3, which have no turn or step events', () => {
    const session = sessionOf(LEGACY)
    expect(session.turns.map((t) => [t.turn, t.start !== undefined, t.steps.length])).toEqual([
      [1, true, 4],
      [2, false, 1],
      [3, false, 2],
    ])
    expect(session.streams.filter((a) => a.turn !== 1).map((a) => [a.id, a.recorded])).toEqual([
      ['t2.s1.a1', null],
      ['t3.s1.a1', null],
      ['t3.s2.a1', null],
    ])
  })
})
