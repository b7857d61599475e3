import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { ReplayEngine } from '../../core/ReplayEngine'
import type { Attempt } from '../../core/session'
import { loadSource } from '../../formats/load'
import { bs, finish, sourced, td, usage } from '../../test/chunks'
import { readCorpus } from '../../test/corpus'
import { describeMessageDiff } from '../blocks/buildDiff'
import {
  compareWithRecorded,
  describeFinish,
  describeUsage,
  droppedToolCalls,
  rawMessageJson,
  shownMessage,
  whyUnrecorded,
} from './buildFinalMessage'

function corpus(name: string) {
  const session = loadSource(readCorpus(name), name).sessions[0]!
  const at = (id: string): Attempt => session.streams.find((s) => s.id === id)!
  return { session, at, result: (id: string) => analyzeStream(at(id).chunks) }
}

describe('shownMessage', () => {
  it('shows interruptedBlocks() for a cancelled attempt the harness recorded as interrupted', () => {
    const { session, result } = corpus('acp-agent-cancel-session.jsonl')
    const attempt = session.streams.find((s) => s.recorded?.interrupted)!
    const shown = shownMessage(result(attempt.id), attempt.recorded)
    expect(shown.interrupted).toBe(true)
    expect(shown.blocks).toEqual(attempt.recorded!.content)
  })

  it('shows blocks() otherwise, with the assembly error when it throws', () => {
    const read = analyzeStream(sourced([bs(0, 'video')]))
    expect(shownMessage(read, null)).toEqual({
      blocks: null,
      error: 'cannot assemble incomplete block of type "video"',
      thrower: 'blocks()',
      interrupted: false,
    })
  })
})

describe('describeUsage and describeFinish', () => {
  it('prints every usage field and the billed input', () => {
    expect(describeUsage({ inputTokens: 120, outputTokens: 18 })).toBe('usage in 120 / out 18')
    expect(
      describeUsage({
        inputTokens: 10,
        outputTokens: 5,
        cacheReadTokens: 90,
        cacheWriteTokens: 0,
        reasoningTokens: 3,
      }),
    ).toBe('usage in 10 / out 5 · cache read 90 · cache write 0 · reasoning 3 · billed input 100')
    expect(describeUsage(null)).toBe('no usage')
  })

  it('prints the finish kind, a failure code and message, or the stop a missing finish reads as', () => {
    expect(describeFinish({ kind: 'tool-calls' }, true)).toBe('finish tool-calls')
    expect(
      describeFinish({ kind: 'error', failure: { code: 'AUTH', message: 'bad key', status: 401 } }, true),
    ).toBe('finish error AUTH: bad key (status 401)')
    expect(describeFinish({ kind: 'stop' }, false)).toBe('finish stop (no finish chunk: reads as stop)')
    expect(describeFinish({ kind: 'stop' }, false, true)).toBe('no finish yet: still streaming')
  })
})

describe('compareWithRecorded', () => {
  it('matches every cited attempt of a real log, the frozen-differs one included', () => {
    const { session, result } = corpus('acp-agent-persistent-pwsh-tool-turn-session.jsonl')
    for (const attempt of session.streams.filter((s) => s.recorded !== null)) {
      const verdict = compareWithRecorded(result(attempt.id), attempt.recorded!)
      expect({ id: attempt.id, match: verdict.kind === 'compared' && verdict.diff.match }).toEqual({
        id: attempt.id,
        match: true,
      })
    }
  })

  it('names the block and field that differ from the recorded message', () => {
    const { session, result } = corpus('acp-agent-text-turn-session.jsonl')
    const attempt = session.streams.find((s) => s.recorded !== null)!
    const recorded = {
      ...attempt.recorded!,
      content: attempt.recorded!.content.map((b) => (b.type === 'text' ? { ...b, text: 'edited' } : b)),
    }
    const verdict = compareWithRecorded(result(attempt.id), recorded)
    const summary =
      verdict.kind === 'compared' ? describeMessageDiff(verdict.diff, 'assembled', 'recorded') : ''
    expect(summary).toMatch(/^block \d: text differs$/)
  })
})

describe('whyUnrecorded', () => {
  it('explains a failed attempt and names its retry', () => {
    const { session, at, result } = corpus('acp-agent-empty-response-retry-session.jsonl')
    const failed = session.streams.find((s) => s.recorded === null)!
    expect(whyUnrecorded(failed, session, result(failed.id))).toBe(
      `uncited: the attempt failed (finish error EMPTY_RESPONSE) and the harness writes no message for a failed attempt; it was retried as ${session.streams[1]!.id}`,
    )
    expect(at(session.streams[1]!.id).recorded).not.toBeNull()
  })

  it('explains a cancelled attempt with nothing to keep, and says nothing for a bare chunk file', () => {
    const chunks = sourced([bs(0, 'text'), td(0, '  ')])
    const attempt: Attempt = {
      id: 't1.s1.a1',
      turn: 1,
      step: 1,
      attempt: 1,
      kind: 'first',
      chunks,
      recorded: null,
    }
    expect(whyUnrecorded(attempt, undefined, analyzeStream(chunks))).toMatch(
      /^uncited: cancelled before any text/,
    )
    expect(whyUnrecorded({ ...attempt, kind: 'stream' }, undefined, analyzeStream(chunks))).toBeNull()
  })
})

describe('droppedToolCalls', () => {
  it('names the tool calls a max-tokens finish dropped, open or closed', () => {
    const { session } = corpus('acp-agent-max-tokens-continue-session.jsonl')
    const attempt = session.streams.find((s) => s.recorded !== null)!
    const engine = new ReplayEngine(attempt.chunks)
    const frame = engine.seek(engine.total)
    expect(droppedToolCalls(frame, frame.partials)).toMatch(
      /^max-tokens dropped tool-call block \d: truncated arguments never execute$/,
    )
    expect(droppedToolCalls(engine.seek(1), engine.seek(1).partials)).toBeNull()
  })
})

describe('rawMessageJson', () => {
  it('prints the message with usage, finish and replay state', () => {
    const read = analyzeStream(sourced([td(0, 'hi'), usage(3, 1), finish('stop')]))
    expect(rawMessageJson(shownMessage(read, null), read)).toMatchInlineSnapshot(`
      "{
        "role": "assistant",
        "content": [
          {
            "type": "text",
            "text": "hi"
          }
        ],
        "usage": {
          "inputTokens": 3,
          "outputTokens": 1
        },
        "finish": {
          "kind": "stop"
        }
      }"
    `)
  })
})
