import { describe, expect, it } from 'vitest'
import { ReplayEngine } from '../../core/ReplayEngine'
import { bs, finish, sourced, td } from '../../test/chunks'
import { effectLabel, payloadPreview } from '../timeline/describeChunk'
import { buildExplanation } from './buildExplanation'

describe('buildExplanation for streams the harness throws on (docs/protocol.md §3)', () => {
  const chunks = sourced([
    bs(0, 'text'),
    td(0, 'kept'),
    { type: 'block-end', index: 0, block: null },
    td(0, 'never read'),
    finish('stop'),
  ])
  const engine = new ReplayEngine(chunks)

  it('at the throw: the harness message and what its agent loop does next', () => {
    const line = buildExplanation(engine, engine.seek(3))
    expect(line).toContain(
      `seq 2: block-end cannot be read: the harness's push throws "Cannot read properties of null (reading 'type')"`,
    )
    expect(line).toContain('writes no assistant/message and ends the turn in an error with code UNKNOWN')
  })

  it('after the throw: every chunk is still explained, as never read by the harness', () => {
    for (const k of [4, 5]) {
      expect(buildExplanation(engine, engine.seek(k))).toContain(
        `never reaches the harness's assembler: the push of seq 2 threw "Cannot read properties of null (reading 'type')"`,
      )
      expect(effectLabel(engine.effectAt(k - 1), chunks[k - 1]!.chunk).text).toBe('not read: after the throw')
    }
  })

  it('odd payloads never break a row or a line', () => {
    const odd = { type: 'text-delta', index: { toString: 1 }, text: { toString: 1 } }
    const oddEngine = new ReplayEngine(sourced([odd]))
    expect(payloadPreview(odd)).toBe('"{"toString":1}"')
    expect(buildExplanation(oddEngine, oddEngine.seek(1))).toContain(
      'Cannot convert object to primitive value',
    )
  })
})
