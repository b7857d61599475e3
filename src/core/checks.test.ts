import { describe, expect, it } from 'vitest'
import { analyzeStream } from './analyzeStream'
import type { AnyChunk } from './protocol'
import { be, bs, finish, rd, reasoning, sourced, tcd, td, text, toolCall, usage } from '../test/chunks'

/** Findings as `rule@seq` strings, in the order they were found. */
function rules(chunks: readonly AnyChunk[]): string[] {
  return analyzeStream(sourced(chunks)).findings.map((f) => `${f.rule}@${f.seq}`)
}

const clean = [bs(0, 'text'), td(0, 'hi'), be(0, text('hi')), usage(1, 1), finish('stop')]

describe('checks (docs/protocol.md §5)', () => {
  it('finds nothing in a well-behaved stream', () => {
    expect(rules(clean)).toEqual([])
  })

  it('index-invalid and index-order', () => {
    expect(rules([td(-1, 'a'), td(1.5, 'b'), usage(1, 1), finish('stop')])).toEqual([
      'index-invalid@0',
      'delta-without-start@0',
      'index-invalid@1',
      'blocks-overlap@1',
      'delta-without-start@1',
    ])
    expect(rules([bs(1, 'text'), be(1, text('')), usage(1, 1), finish('stop')])).toEqual(['index-order@0'])
  })

  it('start-duplicate, delta-after-end, end-duplicate', () => {
    expect(
      rules([
        bs(0, 'text'),
        bs(0, 'text'),
        td(0, 'a'),
        be(0, text('a')),
        td(0, 'late'),
        be(0, text('x')),
        usage(1, 1),
        finish('stop'),
      ]),
    ).toEqual(['start-duplicate@1', 'delta-after-end@4', 'end-duplicate@5'])
  })

  it('delta-without-start and end-without-start are warnings', () => {
    const findings = analyzeStream(
      sourced([td(0, 'a'), be(1, text('b')), usage(1, 1), finish('stop')]),
    ).findings
    expect(findings.map((f) => `${f.rule}:${f.severity}@${f.seq}`)).toEqual([
      'delta-without-start:warning@0',
      'blocks-overlap:info@1',
      'end-without-start:warning@1',
    ])
  })

  it('delta-type-mismatch, end-type-mismatch, end-content-mismatch', () => {
    expect(rules([bs(0, 'text'), rd(0, 'a'), be(0, reasoning('a')), usage(1, 1), finish('stop')])).toEqual([
      'delta-type-mismatch@1',
      'end-type-mismatch@2',
      'end-content-mismatch@2',
    ])
    expect(
      rules([bs(0, 'text'), td(0, 'streamed'), be(0, text('stored')), usage(1, 1), finish('stop')]),
    ).toEqual(['end-content-mismatch@2'])
    // No accepted delta: nothing streamed, so nothing to compare.
    expect(rules([bs(0, 'text'), be(0, text('stored')), usage(1, 1), finish('stop')])).toEqual([])
  })

  it('end-content-mismatch says when tool-call arguments differ only in how their JSON is written', () => {
    const ended = (streamed: string, stored: string, id = 'c1') =>
      analyzeStream(
        sourced([
          bs(0, 'tool-call'),
          tcd(0, 'c1', 'read', streamed),
          be(0, toolCall(id, 'read', stored)),
          usage(1, 1),
          finish('tool-calls'),
        ]),
      ).findings.map((f) => [f.rule, f.severity, f.params?.['formatting'], f.message])
    // Spaced as a provider streams it, compact as pi-ai's route re-serialises it: the same value.
    expect(ended('{"path": "a.txt", "n": [1, 2]}', '{"n":[1,2],"path":"a.txt"}')).toEqual([
      [
        'end-content-mismatch',
        'warning',
        'yes',
        'block-end for block 0 has the arguments its deltas built, as JSON written another way; the block-end wins',
      ],
    ])
    // A tool that takes no arguments: an empty delta streamed, `{}` stored.
    expect(ended('', '{}')[0]?.[2]).toBe('yes')
    // Another value, arguments that are not JSON, or another id: a difference to look at.
    for (const [streamed, stored, id] of [
      ['', '{"path":"a.txt"}', 'c1'],
      ['{"path": "a.txt"}', '{"path":"b.txt"}', 'c1'],
      ['{"path": ', '{"path":"a.txt"}', 'c1'],
      ['{"path": "a.txt"}', '{"path":"a.txt"}', 'c2'],
    ] as const)
      expect(ended(streamed, stored, id)).toEqual([
        [
          'end-content-mismatch',
          'warning',
          'no',
          'block-end for block 0 differs from what its deltas built; the block-end wins',
        ],
      ])
  })

  it('blocks-overlap is information (the DeepSeek pattern)', () => {
    const deepseek = [
      bs(0, 'reasoning'),
      rd(0, 'r'),
      bs(1, 'text'),
      td(1, 't'),
      be(0, reasoning('r')),
      be(1, text('t')),
      usage(1, 1),
      finish('stop'),
    ]
    const findings = analyzeStream(sourced(deepseek)).findings
    expect(findings.map((f) => `${f.rule}:${f.severity}@${f.seq}`)).toEqual(['blocks-overlap:info@2'])
  })

  it('usage-missing, usage-duplicate, finish-missing, chunk-after-finish', () => {
    expect(rules([td(0, 'a'), be(0, text('a')), finish('stop')])).toEqual([
      'delta-without-start@0',
      'usage-missing@2',
    ])
    expect(rules([...clean.slice(0, 3), usage(1, 1), usage(2, 2), finish('stop')])).toEqual([
      'usage-duplicate@4',
    ])
    expect(rules(clean.slice(0, 3))).toEqual(['finish-missing@2'])
    expect(rules([...clean, td(0, 'x')])).toEqual(['chunk-after-finish@5', 'delta-after-end@5'])
  })

  it('finish-open-blocks concerns blocks a block-start opened, not a delta-only stream', () => {
    expect(rules([td(0, 'a'), td(0, 'b'), usage(1, 1), finish('stop')])).toEqual(['delta-without-start@0'])
    expect(rules([bs(0, 'text'), td(0, 'a'), td(1, 'b'), usage(1, 1), finish('stop')])).toEqual([
      'blocks-overlap@2',
      'delta-without-start@2',
      'finish-open-blocks@4',
    ])
  })

  it('finish-open-blocks only for stop, tool-calls and max-tokens', () => {
    expect(rules([bs(0, 'text'), td(0, 'a'), usage(1, 1), finish('stop')])).toEqual(['finish-open-blocks@3'])
    expect(
      rules([bs(0, 'text'), td(0, 'a'), usage(1, 1), finish('error', { message: 'x', code: 'SERVER' })]),
    ).toEqual([])
  })

  it('finish-reason-inconsistent', () => {
    expect(rules([...clean.slice(0, 4), finish('tool-calls')])).toEqual(['finish-reason-inconsistent@4'])
    const call = [bs(0, 'tool-call'), tcd(0, 'c', 'n', '{}'), be(0, toolCall('c', 'n', '{}')), usage(1, 1)]
    expect(rules([...call, finish('stop')])).toEqual(['finish-reason-inconsistent@4'])
    expect(rules([...call, finish('tool-calls')])).toEqual([])
  })

  it('tool-arguments-invalid, tool-call-dropped, tool-call-id-missing', () => {
    const cut = [
      bs(0, 'tool-call'),
      tcd(0, 'c', 'n', '{"a":'),
      be(0, toolCall('c', 'n', '{"a":')),
      usage(1, 1),
    ]
    expect(rules([...cut, finish('tool-calls')])).toEqual(['tool-arguments-invalid@4'])
    expect(rules([...cut, finish('max-tokens')])).toEqual(['tool-call-dropped@4'])
    expect(
      rules([tcd(0, '', 'n', '{}'), usage(1, 1), finish('error', { message: 'm', code: 'SERVER' })]),
    ).toEqual(['delta-without-start@0', 'tool-call-id-missing@2'])
    const synthesized = [
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      usage(1, 1),
    ] as AnyChunk[]
    expect(rules(synthesized)).toEqual([
      'delta-without-start@0',
      'finish-missing@1',
      'tool-call-id-missing@1',
    ])
  })

  it('replay-misaligned', () => {
    expect(
      rules([be(0, text('a')), be(1, text('b')), usage(1, 1), finish('stop', { response: 1, blocks: [1] })]),
    ).toEqual(['end-without-start@0', 'end-without-start@1', 'replay-misaligned@3'])
  })

  it('unknown-block-type', () => {
    const result = analyzeStream(
      sourced([bs(0, 'video'), usage(1, 1), finish('error', { message: 'm', code: 'X' })]),
    )
    expect(result.findings.map((f) => `${f.rule}@${f.seq}`)).toEqual(['unknown-block-type@2'])
    expect(result.blocks).toBeNull()
    expect(result.error).toBe('cannot assemble incomplete block of type "video"')
  })

  it('unknown-chunk: the harness stops at the throw, so nothing after it is checked', () => {
    const result = analyzeStream(
      sourced([bs(0, 'video'), { type: 'ping' }, usage(1, 1), finish('error', { message: 'm', code: 'X' })]),
    )
    expect(result.findings.map((f) => `${f.rule}@${f.seq}`)).toEqual(['unknown-chunk@1'])
    expect(result.error).toBe('unreachable variant in BlockAssembler.push: {"type":"ping"}')
    expect(result.errorPos).toBe(1)
  })

  it('end-without-block and block-text-invalid', () => {
    const result = analyzeStream(
      sourced([
        td(0, 'a'),
        { type: 'block-end', index: 0, block: 0 },
        { type: 'block-end', index: 0, block: { type: 'text', text: 5 } },
        usage(1, 1),
        finish('stop'),
      ]),
    )
    expect(result.findings.map((f) => `${f.rule}@${f.seq}`)).toEqual([
      'delta-without-start@0',
      'end-without-block@1',
      'block-text-invalid@2',
      'end-content-mismatch@2',
    ])
    expect(result.interruptedBlocksError).toBe('block.text.trim is not a function')
  })

  it('lists ignored chunks with their kind', () => {
    const result = analyzeStream(
      sourced([bs(0, 'text'), bs(0, 'text'), be(0, text('')), be(0, text('')), td(0, 'x')]),
    )
    expect(result.ignored.map((i) => `${i.kind}@${i.seq}`)).toEqual([
      'duplicate-start@1',
      're-close@3',
      'straggler-delta@4',
    ])
  })
})
