import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reasoning, text, toolCall } from '../../test/chunks'
import { describeMessageDiff, diffBlocks, diffMessages, diffText, type DiffPart } from './buildDiff'

/** `=kept` `+added` `-removed`, one run per bracket. */
const show = (parts: readonly DiffPart[]) =>
  parts.map((p) => `${{ same: '=', added: '+', removed: '-' }[p.op]}[${p.text}]`).join(' ')
const side = (parts: readonly DiffPart[], drop: DiffPart['op']) =>
  parts
    .filter((p) => p.op !== drop)
    .map((p) => p.text)
    .join('')

describe('diffText', () => {
  it('finds the one space a re-serialised tool call lost', () => {
    const streamed = `{"command": "[Console]::Out.Write('PWSH_OK')"}`
    const ended = `{"command":"[Console]::Out.Write('PWSH_OK')"}`
    expect(show(diffText(streamed, ended))).toBe(`=[{"command":] -[ ] =["[Console]::Out.Write('PWSH_OK')"}]`)
  })

  it('diffs prose by whole words', () => {
    expect(show(diffText('the quick brown fox', 'the quick red fox', 'words'))).toBe(
      '=[the quick ] -[brown] +[red] =[ fox]',
    )
  })

  it('shows old and new whole when they share little', () => {
    expect(
      show(diffText('No dynamic plugins are present.', 'Good, temporary plugin running.', 'words')),
    ).toBe('-[No dynamic plugins are present] +[Good, temporary plugin running] =[.]')
  })

  it('handles empty sides and equal texts', () => {
    expect(diffText('', '')).toEqual([])
    expect(show(diffText('same', 'same'))).toBe('=[same]')
    expect(show(diffText('', 'new'))).toBe('+[new]')
    expect(show(diffText('old', ''))).toBe('-[old]')
  })

  it('never splits a surrogate pair', () => {
    const parts = diffText('a😀b', 'a😃b')
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
    for (const part of parts) expect(part.text).not.toMatch(lone)
  })

  it('falls back to one removal and one addition when the texts share nothing', () => {
    const a = 'x'.repeat(5000)
    const b = 'y'.repeat(5000)
    expect(diffText(a, b).map((p) => [p.op, p.text.length])).toEqual([
      ['removed', 5000],
      ['added', 5000],
    ])
  })

  it('rebuilds both texts from its parts', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.boolean(), (a, b, words) => {
        const parts = diffText(a, b, words ? 'words' : 'chars')
        expect(side(parts, 'added')).toBe(a)
        expect(side(parts, 'removed')).toBe(b)
      }),
    )
  })
})

describe('diffBlocks', () => {
  it('lists the fields that differ, the protocol fields first', () => {
    const fields = diffBlocks(toolCall('c1', 'echo', '{"a": 1}'), toolCall('', 'echo', '{"a":1}'))
    expect(fields.map((f) => [f.field, f.before, f.after])).toEqual([
      ['id', '"c1"', '""'],
      ['arguments', '"{\\"a\\": 1}"', '"{\\"a\\":1}"'],
    ])
    expect(show(fields[1]!.parts!)).toBe('=[{"a":] -[ ] =[1}]')
  })

  it('shows a changed type and fields present on one side only', () => {
    const fields = diffBlocks(text('hi'), { type: 'video', url: 'x' })
    expect(fields.map((f) => [f.field, f.before, f.after, f.parts === null])).toEqual([
      ['type', '"text"', '"video"', true],
      ['text', '"hi"', undefined, true],
      ['url', undefined, '"x"', true],
    ])
  })
})

describe('diffMessages', () => {
  it('matches equal messages', () => {
    const diff = diffMessages([text('a'), toolCall('c', 'n', '{}')], [text('a'), toolCall('c', 'n', '{}')])
    expect(diff.match).toBe(true)
    expect(describeMessageDiff(diff, 'assembled', 'recorded')).toBe('identical')
  })

  it('names the block and the field that differ, and blocks on one side only', () => {
    const diff = diffMessages([reasoning('r'), text('hello')], [reasoning('r'), text('hullo'), text('x')])
    expect(diff.match).toBe(false)
    expect(describeMessageDiff(diff, 'assembled', 'recorded')).toBe(
      'block 1: text differs; block 2 only in the recorded message',
    )
    expect(
      describeMessageDiff(diffMessages([text('a'), text('b'), text('c')], []), 'assembled', 'recorded'),
    ).toBe('blocks 0, 1, 2 only in the assembled message')
  })
})
