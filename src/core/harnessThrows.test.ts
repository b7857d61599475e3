import { describe, expect, it } from 'vitest'
import { BlockAssembler } from './BlockAssembler'
import { analyzeStream, readAssembler } from './analyzeStream'
import type { AnyChunk } from './protocol'
import { ReplayEngine } from './ReplayEngine'
import { reportStream } from './streamReport'
import type { Attempt } from './session'
import { assemble, bs, finish, sourced, td, tcd, text, usage } from '../test/chunks'

/*
 * Every throw of the harness's BlockAssembler (docs/protocol.md §3). The messages and results below were checked
 * against the harness's own assembler.ts, run unmodified under Node on these exact chunks.
 */

const odd = (chunk: Record<string, unknown>): AnyChunk => chunk as AnyChunk

describe('where the harness push throws', () => {
  it('an unknown chunk type: assertNever with the chunk as JSON', () => {
    const a = new BlockAssembler()
    a.push(td(0, 'a'))
    expect(a.push(odd({ type: 'video-delta', index: 0 }))).toEqual({
      kind: 'unknown-chunk',
      chunkType: 'video-delta',
      error: 'unreachable variant in BlockAssembler.push: {"type":"video-delta","index":0}',
    })
    expect(a.failure).toEqual({
      message: 'unreachable variant in BlockAssembler.push: {"type":"video-delta","index":0}',
      pos: 1,
    })
  })

  it('a block-end with block null or no block: reading chunk.block.type', () => {
    const nulled = assemble([bs(0, 'text'), odd({ type: 'block-end', index: 0, block: null })])
    expect(nulled.failure?.message).toBe("Cannot read properties of null (reading 'type')")
    const missing = assemble([odd({ type: 'block-end', index: 3 })])
    expect(missing.failure?.message).toBe("Cannot read properties of undefined (reading 'type')")
    // The throw comes before `ensure`: index 3 was never seen.
    expect(missing.indexes).toEqual([])
  })

  it('text that cannot become a string: the block exists (ensure ran), its text does not grow', () => {
    const a = new BlockAssembler()
    a.push(td(0, 'a'))
    expect(a.push(odd({ type: 'text-delta', index: 1, text: { toString: 1 } }))).toEqual({
      kind: 'push-error',
      error: 'Cannot convert object to primitive value',
      index: 1,
      implicit: true,
    })
    expect(a.indexes).toEqual([0, 1])
    expect(a.interruptedBlocks()).toEqual([text('a')])
    const args = assemble([
      odd({ type: 'tool-call-delta', index: 0, id: 'c', name: 'n', argumentsDelta: [{ toString: 'x' }] }),
    ])
    expect(args.failure?.message).toBe('Cannot convert object to primitive value')
  })

  it('the harness reads no chunk after the throw: later pushes change nothing', () => {
    const a = assemble([td(0, 'a'), odd({ type: 'ping' })])
    expect(a.push(td(0, 'b'))).toEqual({ kind: 'after-error' })
    expect(a.push(finish('stop'))).toEqual({ kind: 'after-error' })
    expect(a.interruptedBlocks()).toEqual([text('a')])
    expect(a.hasFinish).toBe(false)
  })

  it('the result is the error at that chunk: blocks null, no replayState, no end-of-stream findings', () => {
    const result = analyzeStream(
      sourced([
        td(0, 'a'),
        odd({ type: 'block-end', index: 0, block: null }),
        td(0, 'b'),
        usage(1, 1),
        finish('stop'),
      ]),
    )
    expect(result).toMatchObject({
      blocks: null,
      error: "Cannot read properties of null (reading 'type')",
      errorPos: 1,
      replayState: null,
      interruptedBlocks: [text('a')],
      interruptedBlocksError: null,
    })
    expect(result.findings.map((f) => `${f.rule}@${f.seq}`)).toEqual([
      'delta-without-start@0',
      'unknown-chunk@1',
    ])
    expect(result.findings[1]?.message).toContain("Cannot read properties of null (reading 'type')")
  })
})

describe('where the harness read side throws', () => {
  it('interruptedBlocks() over a closed text block whose text is not a string', () => {
    const read = (block: Record<string, unknown>) =>
      readAssembler(assemble([odd({ type: 'block-end', index: 0, block })]))
    expect(read({ type: 'text', text: 5 })).toMatchObject({
      blocks: [{ type: 'text', text: 5 }],
      interruptedBlocks: null,
      interruptedBlocksError: 'block.text.trim is not a function',
    })
    expect(read({ type: 'reasoning' }).interruptedBlocksError).toBe(
      "Cannot read properties of undefined (reading 'trim')",
    )
    expect(read({ type: 'text', text: null }).interruptedBlocksError).toBe(
      "Cannot read properties of null (reading 'trim')",
    )
    expect(read({ type: 'tool-call', id: 'c', name: 'n', arguments: '{}' }).interruptedBlocks).toEqual([])
  })

  it('blocks() over an open block of an unknown type', () => {
    const read = readAssembler(assemble([bs(0, 'video')]))
    expect(read).toMatchObject({
      blocks: null,
      error: 'cannot assemble incomplete block of type "video"',
      errorPos: null,
    })
    expect(read.interruptedBlocks).toEqual([])
  })

  it('a replayState whose blocks is null, or not an array when max-tokens prunes it', () => {
    const envelope = (blocks: unknown) => ({ response: 1, blocks }) as never
    const nulled = readAssembler(assemble([td(0, 'a'), finish('stop', envelope(null))]))
    expect(nulled.error).toBe("Cannot read properties of null (reading 'length')")
    const pruned = readAssembler(
      assemble([td(0, 'a'), tcd(1, 'c', undefined, '{'), finish('max-tokens', envelope('ab'))]),
    )
    expect(pruned.error).toBe('envelope.blocks.filter is not a function')
    // Nothing to prune: the string passes through untouched.
    const kept = readAssembler(assemble([td(0, 'a'), finish('max-tokens', envelope('a'))]))
    expect(kept).toMatchObject({ blocks: [text('a')], replayState: { response: 1, blocks: 'a' } })
  })

  it('an index or block type that cannot become a string, where a template needs it', () => {
    const tool = readAssembler(
      assemble([odd({ type: 'tool-call-delta', index: { toString: 1 }, argumentsDelta: '{}' })]),
    )
    expect(tool.error).toBe('Cannot convert object to primitive value')
    const typed = readAssembler(
      assemble([odd({ type: 'block-start', index: 0, blockType: { toString: 1 } })]),
    )
    expect(typed.error).toBe('Cannot convert object to primitive value')
  })
})

describe('odd values the harness takes without throwing', () => {
  it('a block-end whose block is 0 leaves the block open; a later block-end still closes it', () => {
    const a = new BlockAssembler()
    a.push(td(0, 'a'))
    expect(a.push(odd({ type: 'block-end', index: 0, block: 0 }))).toEqual({
      kind: 'close-without-block',
      index: 0,
      implicit: false,
    })
    a.push(td(0, 'b'))
    expect(a.blocks()).toEqual([text('ab')])
    a.push(odd({ type: 'block-end', index: 0, block: { type: 'text', text: 'c' } }))
    expect(a.blocks()).toEqual([text('c')])
  })

  it('a block-end whose block is 5 freezes the block as 5', () => {
    const a = assemble([odd({ type: 'block-end', index: 0, block: 5 }), td(0, 'x')])
    expect(a.blocks()).toEqual([5])
    expect(a.interruptedBlocks()).toEqual([])
  })

  it('numbers and nulls in deltas are concatenated as JavaScript does', () => {
    expect(
      assemble([
        odd({ type: 'text-delta', index: 0, text: 5 }),
        odd({ type: 'text-delta', index: 0, text: null }),
      ]).blocks(),
    ).toEqual([text('5null')])
    expect(
      assemble([odd({ type: 'tool-call-delta', index: 2, id: null, name: 0, argumentsDelta: 7 })]).blocks(),
    ).toEqual([{ type: 'tool-call', id: 'call-2', name: '', arguments: '7' }])
  })
})

describe('errored streams in the engine and the report', () => {
  const chunks = sourced([
    bs(0, 'text'),
    td(0, 'kept'),
    odd({ type: 'mystery', index: 0 }),
    td(0, 'never read'),
    finish('stop'),
  ])

  it('frames after the throw keep the state at the throw and the harness error', () => {
    const engine = new ReplayEngine(chunks, { checkpointEvery: 1 })
    expect(engine.seek(2).error).toBeNull()
    for (const k of [5, 3, 4]) {
      const frame = engine.seek(k)
      expect(frame).toMatchObject({ blocks: null, errorPos: 2, interruptedBlocks: [text('kept')] })
      expect(frame.error).toBe('unreachable variant in BlockAssembler.push: {"type":"mystery","index":0}')
      expect(frame.partials.map((p) => p.text)).toEqual(['kept'])
    }
    expect(engine.seek(4).last?.effect).toEqual({ kind: 'after-error' })
    expect(engine.effectAt(4).kind).toBe('after-error')
  })

  it('inspect --json names the seq of the throw', () => {
    const attempt = {
      id: 'stream',
      kind: 'stream',
      turn: null,
      step: null,
      attempt: null,
      chunks,
      recorded: null,
    }
    const report = reportStream('stream', attempt as unknown as Attempt)
    expect(report).toMatchObject({
      blocks: null,
      error: 'unreachable variant in BlockAssembler.push: {"type":"mystery","index":0}',
      errorSeq: 2,
      interruptedBlocks: [text('kept')],
      interruptedBlocksError: null,
    })
    expect(report.findings.map((f) => f.rule)).toEqual(['unknown-chunk'])
  })

  it('a replay window that starts after the throw carries it: the window reads nothing', () => {
    const state = JSON.parse(JSON.stringify(assemble(chunks.slice(0, 3).map((s) => s.chunk)).exportState()))
    const windowed = new ReplayEngine(chunks.slice(3), { initialState: state })
    expect(windowed.seek(2)).toMatchObject({ blocks: null, errorPos: -1, interruptedBlocks: [text('kept')] })
    expect(windowed.effectAt(0).kind).toBe('after-error')
  })
})
