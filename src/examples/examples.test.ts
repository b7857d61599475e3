import { describe, expect, it } from 'vitest'
import { analyzeStream, type StreamResult } from '../core/analyzeStream'
import type { RuleId } from '../core/checks'
import { compareRecorded, type Session } from '../core/session'
import { loadSource } from '../formats/load'
import { DEFAULT_EXAMPLE, EXAMPLES, findExample } from './index'

function load(id: string): Session {
  const example = findExample(id)
  if (example === undefined) throw new Error(`no example ${id}`)
  const source = loadSource(example.source(), example.title)
  expect(source.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
  expect(source.sessions).toHaveLength(1)
  return source.sessions[0]!
}

/** The only stream of a bare-chunk example, assembled and checked. */
function analyze(id: string): StreamResult {
  const session = load(id)
  expect(session.streams).toHaveLength(1)
  return analyzeStream(session.streams[0]!.chunks)
}

const rules = (result: StreamResult): RuleId[] => result.findings.map((finding) => finding.rule)

describe('the examples registry', () => {
  it('opens on the seed example and has unique ids', () => {
    expect(EXAMPLES[0]!.id).toBe('seed')
    expect(DEFAULT_EXAMPLE.id).toBe('seed')
    expect(new Set(EXAMPLES.map((e) => e.id)).size).toBe(EXAMPLES.length)
  })

  it.each(EXAMPLES.map((e) => [e.id, e] as const))(
    '%s has a title and a one-line description',
    (_, example) => {
      expect(example.title.length).toBeGreaterThan(0)
      expect(example.description).not.toMatch(/\n/)
      expect(example.description.length).toBeLessThan(120)
    },
  )

  it.each(EXAMPLES.map((e) => [e.id, e] as const))('%s loads with no error diagnostics', (_, example) => {
    const text = example.source()
    expect(text.endsWith('\n')).toBe(true)
    const source = loadSource(text, example.title)
    expect(source.format).not.toBeNull()
    expect(source.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
    expect(source.sessions.flatMap((s) => s.streams).length).toBeGreaterThanOrEqual(1)
  })
})

describe('each example shows its lesson', () => {
  it('seed: the article’s text block and bash tool call, finish tool-calls, no findings', () => {
    const result = analyze('seed')
    expect(result.blocks).toEqual([
      { type: 'text', text: 'runoob 教程' },
      { type: 'tool-call', id: 'call-123', name: 'bash', arguments: '{"command":"echo runoob"}' },
    ])
    expect(result.finish).toEqual({ kind: 'tool-calls' })
    expect(result.usage).toEqual({ inputTokens: 100, outputTokens: 50 })
    expect(rules(result)).toEqual([])
  })

  it('delta-only: the block opens implicitly and assembles from its deltas', () => {
    const result = analyze('delta-only')
    expect(result.blocks).toHaveLength(1)
    expect(result.blocks![0]!.type).toBe('text')
    expect((result.blocks![0] as { text: string }).text).toMatch(/^The build failed .* try again\.$/)
    expect(rules(result)).toContain('delta-without-start')
    expect(result.finish).toEqual({ kind: 'stop' })
    const chunkTypes = load('delta-only').streams[0]!.chunks.map((c) => c.chunk.type)
    expect(chunkTypes).not.toContain('block-start')
    expect(chunkTypes).not.toContain('block-end')
  })

  it('straggler: the late delta is ignored and the frozen block wins', () => {
    const result = analyze('straggler')
    expect(result.ignored.map((i) => i.kind)).toEqual(['straggler-delta'])
    expect(rules(result)).toEqual(['delta-after-end'])
    expect(result.blocks).toEqual([{ type: 'text', text: 'All tests pass: 42 passed, 0 failed.' }])
  })

  it('duplicate-end: the second close is ignored, the first wins', () => {
    const result = analyze('duplicate-end')
    expect(result.ignored.map((i) => i.kind)).toEqual(['re-close'])
    expect(rules(result)).toEqual(['end-duplicate'])
    expect(result.blocks).toEqual([{ type: 'text', text: 'Deployed version 2.4.1 to staging.' }])
  })

  it('duplicate-start: the second start is ignored and the block stays text', () => {
    const result = analyze('duplicate-start')
    expect(result.ignored.map((i) => i.kind)).toEqual(['duplicate-start'])
    expect(rules(result)).toEqual(['start-duplicate'])
    expect(result.blocks).toEqual([
      { type: 'text', text: 'Here is the plan: first the schema, then the API.' },
    ])
  })

  it('max-tokens: the open tool call is dropped, the text kept', () => {
    const result = analyze('max-tokens')
    expect(result.finish).toEqual({ kind: 'max-tokens' })
    expect(rules(result)).toContain('tool-call-dropped')
    expect(result.blocks!.map((b) => b.type)).toEqual(['text'])
  })

  it('no-finish: reads as stop with a finish-missing warning', () => {
    const result = analyze('no-finish')
    expect(result.hasFinish).toBe(false)
    expect(result.finish).toEqual({ kind: 'stop' })
    expect(rules(result)).toEqual(['finish-missing'])
    expect(result.blocks).toHaveLength(1)
  })

  it('error-retry: one step with two attempts; the error attempt is uncited, the retry cited and matching', () => {
    const session = load('error-retry')
    expect(session.header?.delegationDepth).toBe(0)
    expect(session.events.map((e) => e.seq)).toEqual(session.events.map((_, k) => k))
    expect(session.turns).toHaveLength(1)
    expect(session.turns[0]!.steps).toHaveLength(1)
    const [first, second] = session.turns[0]!.steps[0]!.attempts
    expect(session.turns[0]!.steps[0]!.attempts).toHaveLength(2)
    const failed = analyzeStream(first!.chunks)
    expect(failed.finish).toMatchObject({ kind: 'error', failure: { code: 'SERVER', status: 503 } })
    expect(first!.recorded).toBeNull()
    expect(second!.kind).toBe('retry')
    const retry = session.events.find((e) => e.type === 'llm/retry')?.data as {
      retryId: string
      retry: number
    }
    expect(retry.retry).toBe(1)
    expect(second!.retryId).toBe(retry.retryId)
    expect(second!.recorded).not.toBeNull()
    expect(second!.recorded!.citation).toEqual({ missing: [], foreign: [], uncited: [] })
    expect(compareRecorded(second!)?.match).toBe(true)
    expect(analyzeStream(second!.chunks).finish).toEqual({ kind: 'stop' })
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'completed' })
  })

  it('cancelled: no finish; the interrupted message matches interruptedBlocks()', () => {
    const session = load('cancelled')
    expect(session.streams).toHaveLength(1)
    const attempt = session.streams[0]!
    const result = analyzeStream(attempt.chunks)
    expect(result.hasFinish).toBe(false)
    expect(rules(result)).toEqual(['finish-missing'])
    expect(attempt.recorded?.interrupted).toBe(true)
    expect(attempt.recorded?.content).toEqual(result.interruptedBlocks)
    expect(compareRecorded(attempt)?.match).toBe(true)
    expect(session.turns[0]!.end?.reason).toEqual({ kind: 'aborted', reason: { kind: 'user' } })
  })

  it('deepseek: reasoning and text overlap (info), close in opening order, usage has reasoningTokens', () => {
    const result = analyze('deepseek')
    expect(result.findings.map((f) => [f.rule, f.severity])).toEqual([['blocks-overlap', 'info']])
    expect(result.blocks!.map((b) => b.type)).toEqual(['reasoning', 'text'])
    expect(result.usage?.reasoningTokens).toBeGreaterThan(0)
    const ends = load('deepseek').streams[0]!.chunks.flatMap((c) =>
      c.chunk.type === 'block-end' ? [(c.chunk as { index: number }).index] : [],
    )
    expect(ends).toEqual([0, 1])
  })

  it('frozen-differs: the block-end’s arguments win over the deltas', () => {
    const result = analyze('frozen-differs')
    expect(rules(result)).toEqual(['end-content-mismatch'])
    const call = result.blocks!.find((b) => b.type === 'tool-call') as { arguments: string }
    expect(call.arguments).toBe('{"path":"hello.py","content":"print(\'Hello, class!\')"}')
  })

  it('misaligned-replay: replayState is discarded', () => {
    const result = analyze('misaligned-replay')
    expect(rules(result)).toEqual(['replay-misaligned'])
    expect(result.replayState).toBeNull()
    expect(result.blocks).toHaveLength(2)
  })

  it('unknown-type: assembly throws for the open video block', () => {
    const result = analyze('unknown-type')
    expect(result.blocks).toBeNull()
    expect(result.error).toBe('cannot assemble incomplete block of type "video"')
    expect(rules(result)).toContain('unknown-block-type')
    expect(result.interruptedBlocks?.map((b) => b.type)).toEqual(['text'])
  })
})

describe('the built-in lessons (docs/protocol.md §15)', () => {
  const texts = (value: unknown): Record<string, string>[] => [value as Record<string, string>]
  it.each(EXAMPLES.map((e) => [e.id, e] as const))(
    '%s: every text in English, Chinese and Japanese; narration on seqs of its own chunks; questions',
    (_, example) => {
      const source = loadSource(example.source())
      const lesson = source.lesson!
      expect(source.format).toBe('chunkscope-lesson')
      const all = [
        lesson.title,
        lesson.description,
        ...Object.values(lesson.narration),
        ...lesson.questions.flatMap((q) => [q.prompt, q.answer]),
      ].flatMap(texts)
      for (const text of all) expect(Object.keys(text).sort()).toEqual(['en', 'ja', 'zh'])
      const seqs = new Set(
        source.sessions.flatMap((s) => s.streams.flatMap((a) => a.chunks.map((c) => c.seq))),
      )
      for (const seq of Object.keys(lesson.narration)) expect(seqs).toContain(Number(seq))
      for (const after of lesson.questions.flatMap((q) => (q.after === null ? [] : [q.after])))
        expect(seqs).toContain(after)
      expect(lesson.questions.length).toBeGreaterThan(0)
    },
  )

  it('the Japanese article’s lesson is its example as printed, with its three self-tests', () => {
    const result = analyze('seed-ja')
    expect(result.blocks).toEqual([
      { type: 'text', text: 'サンプル 教程' },
      { type: 'tool-call', id: 'call-123', name: 'bash', arguments: '{"command":"echo サンプル"}' },
    ])
    expect(result.finish).toEqual({ kind: 'stop' })
    const lesson = loadSource(findExample('seed-ja')!.source()).lesson!
    expect(lesson.questions.map((q) => (q.prompt as Record<string, string>)['ja'])).toEqual([
      '自己テスト1：テキストブロックには最低限どのチャンクが必要でしょうか？',
      '自己テスト2：usage と finish の順序はどちらが先ですか？',
      '自己テスト3：リクエスト失敗時、なぜ通常の Error ではなく code 付きの LlmError を使用するのですか？',
    ])
  })
})
