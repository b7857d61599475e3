import { describe, expect, it } from 'vitest'
import { corpusAttemptPayloads } from '../../test/corpusPayloads'
import { decodeBodyV3, encodeBodyV3 } from './codecV3'
import { leaveImplied, restoreImplied } from './implied'

const CAP = 64 * 1024 * 1024
const v4 = async (payload: unknown) => decodeBodyV3(await encodeBodyV3(payload, async () => {}, 4), CAP, 4)

/** An attempt payload of one chunk at seq 7: its identity, key and recorded message as given. */
const shaped = (stream: string, attempt: Record<string, unknown>) => ({
  v: 1,
  source: { kind: 'chunks', chunks: [{ type: 'finish', reason: { kind: 'stop' } }], seq: [7], time: [null] },
  stream,
  k: 0,
  attempt,
})

describe('what a v4 link leaves out because the stream implies it', () => {
  it('every corpus attempt leaves out its identity and recorded seq, and opens to the same JSON', async () => {
    for (const { attempt, payload } of corpusAttemptPayloads()) {
      const { seq } = payload.source as { seq: number[] }
      const left = leaveImplied(
        { ...payload, source: { kind: 'chunks' } },
        seq.reduce((a, b) => a + b, 0),
      )
      // The harness writes assistant/message right after the attempt's chunks (docs/protocol.md §6).
      expect(left.implied).toBe(attempt.recorded === null ? 1 : 3)
      const opened = await v4(payload)
      expect('value' in opened && JSON.stringify(opened.value)).toBe(JSON.stringify(payload))
    }
  })

  it.each([
    ['an identity the key does not spell', 't1.s2.a1', { turn: 1, step: 3, attempt: 1, kind: 'first' }, 0],
    ['an identity in another key order', 't1.s2.a1', { step: 2, turn: 1, attempt: 1, kind: 'first' }, 0],
    ['an identity of strings', 't1.s2.a1', { turn: '1', step: 2, attempt: 1, kind: 'first' }, 0],
    ['a key of another shape', 'stream', { turn: null, step: null, attempt: null, kind: 'stream' }, 0],
    ['a recorded seq not after the last chunk', 't1.s1.a1', { kind: 'first', recorded: { seq: 9 } }, 0],
    ['a recorded message without its seq first', 't1.s1.a1', { kind: 'x', recorded: { a: 1, seq: 8 } }, 0],
    ['a recorded seq after the last chunk', 't1.s1.a1', { kind: 'first', recorded: { seq: 8, b: 2 } }, 2],
    ['both', 't3.s1.a2', { turn: 3, step: 1, attempt: 2, kind: 'retry', recorded: { seq: 8 } }, 3],
  ])('%s: left out %d, opened as given', async (_label, stream, attempt, implied) => {
    const payload = shaped(stream, attempt)
    expect(leaveImplied({ ...payload, source: { kind: 'chunks' } }, 7).implied).toBe(implied)
    const opened = await v4(payload)
    expect('value' in opened && JSON.stringify(opened.value)).toBe(JSON.stringify(payload))
  })

  it('refuses, in words, a fourth skeleton item it did not write', () => {
    const shell = { stream: 't1.s1.a1', attempt: { kind: 'first' } }
    expect(() => restoreImplied({ ...shell }, 4, 0)).toThrow(/unknown item/)
    expect(() => restoreImplied({ ...shell }, 2, 0)).toThrow(/recorded message it does not carry/)
    expect(() => restoreImplied({ stream: 'x', attempt: {} }, 1, 0)).toThrow(/does not spell/)
    expect(() => restoreImplied({ stream: 't1.s1.a1' }, 1, 0)).toThrow(/attempt it does not carry/)
  })
})
