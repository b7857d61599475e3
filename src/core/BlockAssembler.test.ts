import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from './BlockAssembler'
import type { StreamChunk } from './protocol'
import { anyStream, knownStream } from '../test/arbitraries'
import { assemble, be, bs, finish, rd, reasoning, tcd, td, text, toolCall, usage } from '../test/chunks'

// docs/protocol.md §3 — the harness's own acceptance cases, numbered as there.
describe('BlockAssembler acceptance list (docs/protocol.md §3)', () => {
  it('1: reasoning, text and a tool call with usage and finish', () => {
    const a = assemble([
      bs(0, 'reasoning'),
      rd(0, 'thinking…'),
      be(0, reasoning('thinking…')),
      bs(1, 'text'),
      td(1, 'Hello'),
      td(1, ' world'),
      bs(2, 'tool-call'),
      tcd(2, 'call-1', 'echo', '{"text":'),
      tcd(2, 'call-1', undefined, '"hi"}'),
      usage(10, 5),
      finish('tool-calls'),
    ])
    expect(a.blocks()).toEqual([
      reasoning('thinking…'),
      text('Hello world'),
      toolCall('call-1', 'echo', '{"text":"hi"}'),
    ])
    expect(a.usage).toEqual({ inputTokens: 10, outputTokens: 5 })
    expect(a.finish).toEqual({ kind: 'tool-calls' })
  })

  it('2: a started, delta and ended text block', () => {
    expect(assemble([bs(0, 'text'), td(0, 'hi'), be(0, text('hi'))]).blocks()).toEqual([text('hi')])
  })

  it('3: a lone delta opens its block implicitly; no finish reads as stop', () => {
    const a = assemble([td(0, 'implicit')])
    expect(a.blocks()).toEqual([text('implicit')])
    expect(a.finish).toEqual({ kind: 'stop' })
    expect(a.usage).toBeUndefined()
  })

  it('4: an open block of unknown type makes assembly throw', () => {
    expect(() => assemble([bs(0, 'video')]).blocks()).toThrow(
      'cannot assemble incomplete block of type "video"',
    )
  })

  it('5: a second block-start is ignored', () => {
    const a = assemble([bs(0, 'text'), td(0, 'one'), bs(0, 'text'), td(0, ' two'), be(0, text('one two'))])
    expect(a.blocks()).toEqual([text('one two')])
  })

  it('6: a delta after block-end is a straggler and is ignored', () => {
    const a = assemble([
      bs(0, 'tool-call'),
      tcd(0, 'c1', 'echo', '{}'),
      be(0, toolCall('c1', 'echo', '{}')),
      tcd(0, 'c1', 'evil', 'oops'),
    ])
    expect(a.blocks()).toEqual([toolCall('c1', 'echo', '{}')])
  })

  it('7: a tool call with no id and no name gets call-<index> and an empty name', () => {
    const a = assemble([
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' } as unknown as StreamChunk,
    ])
    expect(a.blocks()).toEqual([toolCall('call-0', '', '{}')])
  })

  it('8: max-tokens drops every tool call and prunes the replay envelope in step', () => {
    const a = assemble([
      be(0, text('lead')),
      be(1, toolCall('c1', 'echo', '{"text":')),
      be(2, reasoning('tail')),
      finish('max-tokens', { response: 'r', blocks: ['m0', 'm1', 'm2'] }),
    ])
    expect(a.blocks()).toEqual([text('lead'), reasoning('tail')])
    expect(a.replayState).toEqual({ response: 'r', blocks: ['m0', 'm2'] })
  })

  it('9: a misaligned envelope is discarded whole', () => {
    const a = assemble([
      be(0, text('one')),
      be(1, text('two')),
      finish('stop', { response: 'r', blocks: ['m0'] }),
    ])
    expect(a.blocks()).toHaveLength(2)
    expect(a.replayState).toBeUndefined()
  })

  it('10: an aligned envelope with nothing dropped is returned as the same object', () => {
    const envelope = { response: 'r', blocks: ['m0', 'm1'] }
    const a = assemble([
      be(0, text('t')),
      be(1, toolCall('c1', 'echo', '{}')),
      finish('tool-calls', envelope),
    ])
    expect(a.replayState).toBe(envelope)
  })

  it('11: an envelope without blocks is returned unchanged even when blocks were dropped', () => {
    const envelope = { response: 'r' }
    const a = assemble([
      be(0, text('partial')),
      be(1, toolCall('c1', 'echo', '{}')),
      finish('max-tokens', envelope),
    ])
    expect(a.blocks()).toEqual([text('partial')])
    expect(a.replayState).toBe(envelope)
  })

  it('12: max-tokens with nothing to drop keeps the envelope as is', () => {
    const envelope = { response: 'r', blocks: ['m0'] }
    const a = assemble([be(0, text('partial')), finish('max-tokens', envelope)])
    expect(a.blocks()).toEqual([text('partial')])
    expect(a.replayState).toBe(envelope)
  })

  it('13: the first block-end wins', () => {
    expect(assemble([be(0, reasoning('first')), be(0, text('second'))]).blocks()).toEqual([
      reasoning('first'),
    ])
  })

  it('14: interrupted keeps closed and open text and reasoning', () => {
    const a = assemble([
      bs(0, 'reasoning'),
      rd(0, 'planning'),
      be(0, reasoning('planning')),
      bs(1, 'text'),
      td(1, 'half an ans'),
    ])
    expect(a.interruptedBlocks()).toEqual([reasoning('planning'), text('half an ans')])
  })

  it('15: interrupted drops tool calls, closed or open', () => {
    const a = assemble([
      bs(0, 'text'),
      td(0, 'calling'),
      be(0, text('calling')),
      bs(1, 'tool-call'),
      tcd(1, 'c1', 'read', '{"a":1}'),
      be(1, toolCall('c1', 'read', '{"a":1}')),
      bs(2, 'tool-call'),
      tcd(2, 'c2', 'read', '{"pa'),
    ])
    expect(a.interruptedBlocks()).toEqual([text('calling')])
  })

  it('16: interrupted drops whitespace-only text and never throws on unknown types', () => {
    const a = assemble([bs(0, 'text'), td(0, '  \n'), bs(1, 'mystery'), bs(2, 'reasoning')])
    expect(a.interruptedBlocks()).toEqual([])
  })
})

describe('BlockAssembler details', () => {
  it('merges reasoning deltas into a text block and loses text sent into a tool call', () => {
    const a = assemble([
      bs(0, 'text'),
      rd(0, 'a'),
      td(0, 'b'),
      bs(1, 'tool-call'),
      td(1, 'lost'),
      tcd(1, 'c', 'n', '{}'),
    ])
    expect(a.blocks()).toEqual([text('ab'), toolCall('c', 'n', '{}')])
  })

  it('overwrites the tool-call id on every delta, keeps an explicit empty id, ignores an empty name', () => {
    const a = assemble([tcd(0, 'first', 'read', '{'), tcd(0, '', '', '}')])
    expect(a.blocks()).toEqual([toolCall('', 'read', '{}')])
  })

  it('keeps first-seen order, not numeric order', () => {
    expect(assemble([td(2, 'two'), td(0, 'zero')]).blocks()).toEqual([text('two'), text('zero')])
  })

  it('replaces usage and finish (last wins) and a later finish without replayState clears it', () => {
    const a = assemble([
      be(0, text('x')),
      usage(1, 1),
      usage(2, 2),
      finish('stop', { response: 'r', blocks: ['m'] }),
      finish('tool-calls'),
    ])
    expect(a.usage).toEqual({ inputTokens: 2, outputTokens: 2 })
    expect(a.finish).toEqual({ kind: 'tool-calls' })
    expect(a.replayState).toBeUndefined()
  })

  it('records the throw of an unknown chunk instead of throwing, and leaves the state unchanged', () => {
    const a = assemble([td(0, 'a')])
    // The harness's message (its assertNever), checked against its assembler.ts run on this chunk.
    expect(a.push({ type: 'video-delta', index: 0 })).toEqual({
      kind: 'unknown-chunk',
      chunkType: 'video-delta',
      error: 'unreachable variant in BlockAssembler.push: {"type":"video-delta","index":0}',
    })
    expect(a.blocks()).toEqual([text('a')])
  })

  it('reports the effect of every push (docs/protocol.md §4)', () => {
    const a = new BlockAssembler()
    const kinds = [
      bs(0, 'text'),
      td(0, 'hi'),
      bs(0, 'text'),
      be(0, text('hi')),
      td(0, 'late'),
      be(0, text('again')),
      tcd(1, 'c', 'n', '{}'),
      tcd(1, 'd', 'm', ''),
      be(2, text('closed')),
      usage(1, 1),
      usage(1, 2),
      finish('stop'),
      finish('stop'),
    ].map((chunk) => {
      const effect = a.push(chunk)
      return 'implicit' in effect && effect.implicit ? `${effect.kind}*` : effect.kind
    })
    expect(kinds).toEqual([
      'open',
      'append-text',
      'ignored-duplicate-start',
      'close',
      'ignored-straggler',
      'ignored-reclose',
      'append-arguments*',
      'append-arguments',
      'close*',
      'usage-set',
      'usage-replaced',
      'finish-set',
      'finish-replaced',
    ])
    expect(a.push(tcd(1, 'e', 'o', ''))).toMatchObject({ idChanged: true, nameChanged: true })
  })

  it('clones share frozen partials and copy open ones', () => {
    const a = assemble([be(0, text('done')), td(1, 'open')])
    const copy = a.clone()
    a.push(td(1, ' more'))
    expect(copy.blocks()).toEqual([text('done'), text('open')])
    expect(a.blocks()).toEqual([text('done'), text('open more')])
    expect(copy.partial(0)).toBe(a.partial(0))
  })

  it('a restored state looks its frozen partials up in the later state, and opens the blocks first seen after it', () => {
    const chunks = [
      bs(0, 'text'),
      td(0, 'a'),
      be(0, text('a')),
      td(1, 'open'),
      bs(2, 'text'),
      be(2, text('z')),
    ]
    const early = assemble(chunks.slice(0, 4))
    const later = assemble(chunks)
    const restored = BlockAssembler.restore(early.snapshot(), later)
    expect(restored.partial(0)).toBe(later.partial(0))
    // Block 2 is frozen in the later state, but this state has not seen it: its start opens it here.
    expect(restored.partial(2)).toBeUndefined()
    expect(restored.push(td(1, ' more'))).toMatchObject({ kind: 'append-text', index: 1 })
    expect(restored.push(bs(2, 'text'))).toEqual({ kind: 'open', index: 2, blockType: 'text' })
    expect(restored.push(td(0, 'late'))).toEqual({ kind: 'ignored-straggler', index: 0 })
    expect(restored.blocks()).toEqual([text('a'), text('open more'), text('')])
    expect(later.blocks()).toEqual([text('a'), text('open'), text('z')])
  })
})

describe('BlockAssembler properties (docs/protocol.md §3)', () => {
  it('a state restored from its snapshot and a later state, then pushed on, is the state a fresh replay reaches', () => {
    fc.assert(
      fc.property(anyStream(40), fc.nat(), fc.nat(), (chunks, a, b) => {
        const at = a % (chunks.length + 1)
        const to = at + (b % (chunks.length - at + 1))
        const later = assemble(chunks.slice(0, to + (b % 3 === 0 ? 0 : chunks.length)))
        const restored = BlockAssembler.restore(assemble(chunks.slice(0, at)).snapshot(), later)
        const effects = chunks.slice(at, to).map((chunk) => restored.push(chunk))
        const fresh = assemble(chunks.slice(0, at))
        expect(effects).toEqual(chunks.slice(at, to).map((chunk) => fresh.push(chunk)))
        expect(restored.exportState()).toEqual(fresh.exportState())
        expect(restored.snapshot()).toEqual(fresh.snapshot())
      }),
    )
  })

  it('P1: blocks().length ≤ distinct indexes seen', () => {
    fc.assert(
      fc.property(knownStream, (chunks) => {
        const distinct = new Set(chunks.flatMap((c) => ('index' in c ? [c.index] : []))).size
        expect(assemble(chunks).blocks().length).toBeLessThanOrEqual(distinct)
      }),
    )
  })

  it('P2: blocks() is idempotent', () => {
    fc.assert(
      fc.property(knownStream, (chunks) => {
        const a = assemble(chunks)
        expect(a.blocks()).toEqual(a.blocks())
      }),
    )
  })

  it('P3: blocks() never throws when only known block types are used', () => {
    fc.assert(fc.property(knownStream, (chunks) => void assemble(chunks).blocks()))
  })

  it('P4: finish equals the last finish chunk, else stop', () => {
    fc.assert(
      fc.property(knownStream, (chunks) => {
        const finishes = chunks.filter((c) => c.type === 'finish')
        const last = finishes[finishes.length - 1]
        expect(assemble(chunks).finish).toEqual(last?.type === 'finish' ? last.reason : { kind: 'stop' })
      }),
    )
  })
})
