import { describe, expect, it } from 'vitest'
import { FULL_REDACTION, NO_REDACTION } from '../../formats/share/redact'
import type { MeasuredOption } from '../../formats/share/shareOptions'
import { describeLinkLength } from '../../formats/share/linkLength'
import { be, bs, finish, sourced, td, tcd, text, usage } from '../../test/chunks'
import {
  choiceOf,
  choiceWindow,
  clampWindowSize,
  lengthView,
  previewLines,
  scopeOf,
  suggestOption,
  windowLabel,
} from './buildShareView'

const option = (id: MeasuredOption['id'], chars: number): MeasuredOption => ({
  id,
  label: id,
  options: id.endsWith('-redacted') ? { redact: FULL_REDACTION } : {},
  fragment: 'v1.x',
  length: describeLinkLength(chars),
})

describe('share dialog view', () => {
  it('colours a length by the tightest limit it fits', () => {
    expect(lengthView(1_500)).toEqual({
      tone: 'ok',
      chars: '1,500 characters',
      limits: [
        { label: 'chat tools', approx: '~2,000', fits: true },
        { label: 'many trackers and servers', approx: '~8,000', fits: true },
        { label: 'browsers', approx: '2 MiB', fits: true },
      ],
    })
    expect(lengthView(7_000).tone).toBe('warn')
    expect(lengthView(300_000).tone).toBe('warn')
    expect(lengthView(3 * 1024 * 1024).tone).toBe('error')
  })

  it('suggests the option carrying the most under the tightest limit any option fits', () => {
    const options = [
      option('session', 90_000),
      option('session-redacted', 80_000),
      option('stream', 9_000),
      option('stream-redacted', 7_500),
      option('window-redacted', 1_900),
      option('window', 1_800),
    ]
    expect(suggestOption(options)).toMatchObject({ option: { id: 'window' }, limit: 'chat tools (~2,000)' })
    // With redaction asked for, only redacted options are suggested.
    expect(suggestOption(options, true)?.option.id).toBe('window-redacted')
    const big = [option('stream', 9_000), option('window', 7_000)]
    expect(suggestOption(big)).toMatchObject({
      option: { id: 'window' },
      limit: 'many trackers and servers (~8,000)',
    })
    expect(suggestOption([option('window-redacted', 3 * 1024 * 1024)])).toBeNull()
  })

  it('turns choices into engine options and back', () => {
    const attempt = { chunks: sourced([bs(0, 'text'), td(0, 'a'), td(0, 'b'), td(0, 'c')]) } as never
    const choice = { scope: 'window', windowSize: 2, redact: NO_REDACTION } as const
    expect(scopeOf(choice, { k: 3, attempt })).toEqual({ window: { from: 1, to: 3 } })
    expect(scopeOf({ ...choice, scope: 'session', redact: FULL_REDACTION }, { k: 3, attempt })).toEqual({
      scope: 'session',
      redact: FULL_REDACTION,
    })
    expect(choiceWindow({ ...choice, windowSize: 0 }, 3, 4)).toEqual({ from: 2, to: 3 })
    expect(clampWindowSize(Number.NaN)).toBe(200)
    expect(clampWindowSize(1e9)).toBe(20_000)
    expect(choiceOf(option('stream-redacted', 1), 50)).toEqual({
      scope: 'stream',
      windowSize: 50,
      redact: FULL_REDACTION,
    })
    expect(choiceOf(option('window', 1), 50).scope).toBe('window')
  })

  it('previews the chunks before the cursor as the reader will get them', () => {
    const chunks = sourced([
      bs(0, 'text'),
      td(0, 'Hello there'),
      be(0, text('Hello there')),
      bs(1, 'tool-call'),
      tcd(1, 'c1', 'read', '{"path": "/etc/hosts", "n": 42}'),
      usage(3, 4),
      finish('tool-calls'),
    ])
    expect(previewLines(chunks, 5, FULL_REDACTION, 4)).toEqual([
      '#1 text-delta {"index":0,"text":"xxxxx xxxxx"}',
      '#2 block-end {"index":0,"block":{"type":"text","text":"xxxxx xxxxx"}}',
      '#3 block-start {"index":1,"blockType":"tool-call"}',
      '#4 tool-call-delta {"index":1,"id":"c1","name":"read","argumentsDelta":"{\\"path\\": \\"xxxxxxxxxx\\", \\"n\\": 11}"}',
    ])
    // At the start the first chunks are shown; long lines are cut.
    expect(previewLines(chunks, 0, FULL_REDACTION, 2, 20)).toEqual([
      '#0 block-start {"index…',
      '#1 text-delta {"index"…',
    ])
  })

  it('names a window as positions of the full stream', () => {
    expect(windowLabel({ from: 4850, to: 5050, total: 90000 })).toBe('window: chunks 4,850–5,050 of 90,000')
  })
})
