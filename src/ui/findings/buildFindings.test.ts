import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { compareRecorded } from '../../core/session'
import { loadSource } from '../../formats/load'
import { readCorpus } from '../../test/corpus'
import { block, event, jsonl } from '../../test/builders'
import { bs, finish, tcd, td } from '../../test/chunks'
import { countBySeverity, findingList, recordedMismatch, visiblePositions } from './buildFindings'

function load(name: string) {
  return loadSource(readCorpus(name), name)
}

describe('recordedMismatch', () => {
  it('the trimmed legacy log: each cited attempt differs from its message, with the missing citations', () => {
    const attempt = load('web-cordis-tool-round-legacy-session.jsonl').sessions[0]!.streams[0]!
    const finding = recordedMismatch(attempt, compareRecorded(attempt))
    expect(finding).toEqual({
      rule: 'recorded-mismatch',
      severity: 'error',
      // It points at the cause, not the finish: the block-end at seq 99 (position 2), read by hand from the log:
      // block 0 opened at seq 5, the message cites 6–86 and 88–98, which the log lacks.
      seq: 99,
      pos: 2,
      message: expect.stringMatching(
        /^blocks\(\) differs from assistant\/message seq 103: block 0 \(reasoning\) text differs: \d+ chars assembled, \d+ recorded; it cites 92 seqs not in the log; blocks 0 \(reasoning: text\), 1 \(tool-call: id, name, arguments\) differ; first divergence at seq 99, block 0 text: seqs 6–86, 88–98 missing from the log$/,
      ),
    })
  })

  it('a matching attempt and an uncited one have none', () => {
    const [failed, retried] = load('acp-agent-empty-response-retry-session.jsonl').sessions[0]!.streams
    expect(recordedMismatch(failed!, compareRecorded(failed!))).toBeNull()
    expect(recordedMismatch(retried!, compareRecorded(retried!))).toBeNull()
  })

  it('an interrupted message is compared with interruptedBlocks(); a different block count is named', () => {
    const text = jsonl(
      event.header(),
      event.turnStart(0, 1),
      event.stepStart(1, 1, 1),
      event.chunk(2, 1, 1, bs(0, 'text')),
      event.chunk(3, 1, 1, td(0, 'partial')),
      event.message(4, 1, 1, [block.text('partial'), block.text('more')], [2, 3], { interrupted: true }),
    )
    const attempt = loadSource(text).sessions[0]!.streams[0]!
    expect(recordedMismatch(attempt, compareRecorded(attempt))?.message).toBe(
      'interruptedBlocks() differs from the interrupted assistant/message seq 4: 1 block assembled, 2 recorded; first divergence at seq 3, block 1',
    )
  })

  it('a tool call whose recorded arguments differ names the field', () => {
    const text = jsonl(
      event.header(),
      event.chunk(0, 1, 1, tcd(0, 'c1', 'echo', '{}')),
      event.chunk(1, 1, 1, finish('tool-calls')),
      event.message(2, 1, 1, [block.toolCall('c1', 'echo', '{"a":1}')], [0, 1]),
    )
    const attempt = loadSource(text).sessions[0]!.streams[0]!
    expect(recordedMismatch(attempt, compareRecorded(attempt))?.message).toBe(
      'blocks() differs from assistant/message seq 2: block 0 (tool-call) arguments differs: 2 chars assembled, 7 recorded; first divergence at seq 0, block 0 arguments',
    )
  })
})

describe('findingList', () => {
  const attempt = load('web-cordis-tool-round-legacy-session.jsonl').sessions[0]!.streams[0]!
  const engine = new ReplayEngine(attempt.chunks)
  const mismatch = recordedMismatch(attempt, compareRecorded(attempt))
  const list = findingList(engine.findings, mismatch)

  it('puts the session-level mismatch first, then the engine findings in stream order', () => {
    expect(Array.from({ length: list.length }, (_, p) => list.at(p).rule)).toEqual([
      'recorded-mismatch',
      ...engine.findings.map((f) => f.rule),
    ])
    expect(countBySeverity(list)).toEqual({
      error: 1 + engine.findings.filter((f) => f.severity === 'error').length,
      warning: engine.findings.filter((f) => f.severity === 'warning').length,
      info: engine.findings.filter((f) => f.severity === 'info').length,
    })
  })

  it('a finding is reached once the cursor passes it; the mismatch only at the end', () => {
    const first = engine.seek(0)
    const last = engine.seek(engine.total)
    expect(list.reached(0, first.findingCount, false)).toBe(false)
    expect(list.reached(0, last.findingCount, true)).toBe(true)
    expect(list.reached(1, first.findingCount, false)).toBe(false)
    expect(list.reached(list.length - 1, last.findingCount, true)).toBe(true)
  })

  it('visiblePositions filters by severity without copying when nothing is hidden', () => {
    expect(visiblePositions(list, new Set())).toBeNull()
    const errorsOnly = visiblePositions(list, new Set(['warning', 'info']))!
    expect([...errorsOnly].every((p) => list.at(p).severity === 'error')).toBe(true)
    expect(errorsOnly.length).toBe(countBySeverity(list).error)
  })
})
