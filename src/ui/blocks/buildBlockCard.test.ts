import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { bs, be, finish, rd, sourced, tcd, td, text, toolCall } from '../../test/chunks'
import { blockFields, blockNotes, frozenDiff, idChanges, latestDelta, showTail } from './buildBlockCard'

const notesAt = (engine: ReplayEngine, k: number, position: number) =>
  blockNotes(engine, engine.seek(k).partials[position]!, k).map((n) => `${n.tone}: ${n.text}`)

describe('latestDelta', () => {
  it('highlights the chars the last chunk appended to this block only', () => {
    const engine = new ReplayEngine(
      sourced([bs(0, 'text'), td(0, 'Hello'), td(0, ' world'), tcd(1, 'c', 'f', '{"a"')]),
    )
    expect(latestDelta(engine.seek(3), 0)).toEqual({ text: 6, arguments: 0 })
    expect(latestDelta(engine.seek(4), 0)).toEqual({ text: 0, arguments: 0 })
    expect(latestDelta(engine.seek(4), 1)).toEqual({ text: 0, arguments: 4 })
    expect(latestDelta(engine.seek(1), 0)).toEqual({ text: 0, arguments: 0 })
  })
})

describe('showTail', () => {
  it('splits off the newest characters and hides the head of a long text', () => {
    expect(showTail('Hello world', 6, 100, false)).toEqual({ hidden: 0, plain: 'Hello', marked: ' world' })
    expect(showTail('abcdefghij', 2, 4, false)).toEqual({ hidden: 6, plain: 'gh', marked: 'ij' })
    expect(showTail('abcdefghij', 8, 4, false)).toEqual({ hidden: 6, plain: '', marked: 'ghij' })
    expect(showTail('abcdefghij', 0, 4, true)).toEqual({ hidden: 0, plain: 'abcdefghij', marked: '' })
  })

  it('never cuts a surrogate pair in half', () => {
    const shown = showTail('ab😀cd', 0, 3, false)
    expect(shown.plain).toBe('cd')
    expect(shown.hidden).toBe(4)
  })
})

describe('blockNotes', () => {
  it('explains implicit blocks, unknown open types and lost deltas', () => {
    const engine = new ReplayEngine(
      sourced([
        td(0, 'implicit'),
        bs(1, 'video'),
        bs(2, 'tool-call'),
        td(2, 'lost'),
        tcd(2, 'c2', 'f', '{}'),
      ]),
    )
    expect(notesAt(engine, 5, 0)).toEqual([
      'warning: implicit: created by a text-delta at seq 0 without block-start',
    ])
    expect(notesAt(engine, 5, 1)).toEqual([
      'error: cannot assemble incomplete block of type "video": blocks() throws while it is open',
    ])
    expect(notesAt(engine, 5, 2)).toEqual([
      'warning: 4 chars of text deltas are lost: a tool call assembles from its arguments',
    ])
  })

  it('follows the tool-call id: missing, changed, empty, synthesized-looking', () => {
    const engine = new ReplayEngine(
      sourced([
        bs(0, 'tool-call'),
        tcd(0, 'call_a', 'read', '{"p'),
        tcd(0, 'call_b', undefined, '":1}'),
        tcd(0, '', undefined, ''),
        be(0, toolCall('call-0', 'read', '{"p":1}')),
      ]),
    )
    expect(notesAt(engine, 1, 0)).toEqual(['warning: no id yet: blocks() synthesizes call-0'])
    expect(notesAt(engine, 3, 0)).toEqual([
      'warning: id changed at seq 2: call_a → call_b (every delta overwrites it)',
    ])
    expect(notesAt(engine, 4, 0)).toEqual([
      'warning: id changed at seq 2: call_a → call_b (every delta overwrites it)',
      "warning: id changed at seq 3: call_b → '' (every delta overwrites it)",
      "warning: id is '' and stays '' (only a missing id is synthesized)",
    ])
    expect(notesAt(engine, 5, 0).at(-1)).toBe('warning: id call-0 looks synthesized (call-N)')
    expect(idChanges(engine, engine.lives[0]!)).toBe(idChanges(engine, engine.lives[0]!))
  })

  it('says a max-tokens finish drops a tool call', () => {
    const engine = new ReplayEngine(
      sourced([bs(0, 'tool-call'), tcd(0, 'c', 'f', '{"a'), finish('max-tokens')]),
    )
    const frame = engine.seek(3)
    expect(blockNotes(engine, frame.partials[0]!, 3, true)[0]?.text).toBe(
      'dropped from blocks() by the max-tokens finish: truncated arguments never run',
    )
  })

  it('flags a block-end that retypes its block', () => {
    const engine = new ReplayEngine(sourced([bs(0, 'reasoning'), rd(0, 'r'), be(0, text('r'))]))
    expect(notesAt(engine, 3, 0)).toEqual([
      "error: opened as reasoning, closed as text: the block-end's block wins",
    ])
  })
})

describe('frozenDiff', () => {
  it('diffs what the deltas built against the block-end only when they differ', () => {
    const engine = new ReplayEngine(
      sourced([
        bs(0, 'tool-call'),
        tcd(0, 'c1', 'pwsh', '{"command": '),
        tcd(0, 'c1', undefined, '"x"}'),
        be(0, toolCall('c1', 'pwsh', '{"command":"x"}')),
        bs(1, 'text'),
        td(1, 'same'),
        be(1, text('same')),
      ]),
    )
    const frame = engine.seek(7)
    expect(frozenDiff(engine, frame.partials[1]!)).toBeNull()
    expect(engine.seek(3).partials[0]!.state).toBe('open')
    const diff = frozenDiff(engine, engine.seek(7).partials[0]!)
    expect(diff?.map((f) => [f.field, f.parts?.map((p) => `${p.op}:${p.text}`)])).toEqual([
      ['arguments', ['same:{"command":', 'removed: ', 'same:"x"}']],
    ])
    expect(frozenDiff(engine, engine.seek(9).partials[0]!)).toBe(diff)
  })
})

describe('blockFields', () => {
  it('splits known fields and keeps the rest as JSON', () => {
    expect(blockFields(toolCall('c', 'n', '{}'))).toEqual({
      type: 'tool-call',
      text: null,
      id: 'c',
      name: 'n',
      arguments: '{}',
      other: null,
    })
    expect(blockFields({ type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/png' } }).other)
      .toMatchInlineSnapshot(`
        "{
          "attachment": {
            "attachmentId": "a",
            "mediaType": "image/png"
          }
        }"
      `)
  })
})
