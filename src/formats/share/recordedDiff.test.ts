import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readCorpus } from '../../test/corpus'
import { corpusAttemptPayloads } from '../../test/corpusPayloads'
import { loadSource } from '../load'
import { decodeBodyV3, encodeBodyV3 } from './codecV3'
import { absolute, leaveImplied } from './implied'
import { buildSharePayload } from './payload'
import { builtBlocks, diffContent, patchContent, skippedSeqs } from './recordedDiff'

const CAP = 64 * 1024 * 1024
const body = (payload: unknown, version: 4 | 5) => encodeBodyV3(payload, async () => {}, version)
const opened = async (payload: unknown) => {
  const decoded = decodeBodyV3(await body(payload, 5), CAP, 5)
  return 'value' in decoded ? JSON.stringify(decoded.value) : decoded
}

/** A block's chunks: start, deltas, and an end equal to them or not. */
const block = fc
  .record({
    type: fc.constantFrom('text', 'reasoning', 'tool-call'),
    deltas: fc.array(fc.string(), { maxLength: 5 }),
    end: fc.constantFrom('none', 'built', 'own'),
    own: fc.string(),
  })
  .map(({ type, deltas, end, own }) => (index: number) => {
    const chunks: unknown[] = [{ type: 'block-start', index, blockType: type }]
    for (const piece of deltas)
      chunks.push(
        type === 'tool-call'
          ? { type: 'tool-call-delta', index, id: `call_0${index}_aZ9`, name: 'bash', argumentsDelta: piece }
          : { type: `${type}-delta`, index, text: piece },
      )
    const text = end === 'own' ? own : deltas.join('')
    if (end !== 'none')
      chunks.push({
        type: 'block-end',
        index,
        block:
          type === 'tool-call'
            ? { type, id: `call_0${index}_aZ9`, name: 'bash', arguments: text }
            : { type, text },
      })
    return chunks
  })

/** What a recorded block may be, given the one the chunks built: the same, an edit of it, or anything. */
const recordedBlock = (built: unknown) =>
  fc.oneof(
    fc.constant(built),
    fc
      .record({ cut: fc.nat(), add: fc.string(), at: fc.nat() })
      .map(({ cut, add, at }) => edit(built, cut, add, at)),
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom('type', 'text', 'id', 'name', 'arguments', 'x'), fc.jsonValue()),
  )

/** A string field of `built` with `cut` units taken out at `at` and `add` put in (other fields kept). */
function edit(built: unknown, cut: number, add: string, at: number): unknown {
  if (typeof built !== 'object' || built === null) return built
  const fields = { ...(built as Record<string, unknown>) }
  const key = 'text' in fields ? 'text' : 'arguments'
  const value = String(fields[key] ?? '')
  const from = value.length === 0 ? 0 : at % value.length
  fields[key] = value.slice(0, from) + add + value.slice(from + (cut % 40))
  return fields
}

const attemptPayload = fc
  .tuple(fc.array(block, { maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 30 }))
  .chain(([blocks, gaps]) => {
    const chunks = blocks.flatMap((make, index) => make(index))
    const seq = chunks.map((_, i) => (i === 0 ? 5 : (gaps[i] ?? 1)))
    const built = builtBlocks(chunks)
    const missing = skippedSeqs(absolute(seq))!
    return fc
      .record({
        content: fc.tuple(...built.map(recordedBlock), fc.array(fc.jsonValue(), { maxLength: 1 })),
        missing: fc.oneof(fc.constant(missing), fc.array(fc.nat(), { maxLength: 3 })),
      })
      .map(
        ({ content, missing: cited }) =>
          JSON.parse(
            JSON.stringify({
              v: 1,
              source: { kind: 'chunks', chunks, seq, time: chunks.map(() => null) },
              stream: 't1.s1.a1',
              k: 0,
              attempt: {
                turn: 1,
                step: 1,
                attempt: 1,
                kind: 'first',
                recorded: {
                  seq: absolute(seq).at(-1)! + 1,
                  interrupted: false,
                  content: content.flat(),
                  shape: 'parts',
                  citation: { missing: cited, foreign: [], uncited: [] },
                },
              },
            }),
          ) as unknown,
      )
  })

describe('a v5 link codes the recorded message against what its chunks build', () => {
  it('any recorded message and cited seqs over random chunks open exactly as sent', async () => {
    await fc.assert(
      fc.asyncProperty(attemptPayload, async (payload) => {
        expect(await opened(payload)).toBe(JSON.stringify(payload))
      }),
      { numRuns: 80 },
    )
  })

  it('a difference gives back the very content, key order included', () => {
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 4 }),
        fc.array(fc.jsonValue(), { maxLength: 5 }),
        (blocks, content) => {
          const built = builtBlocks(blocks.flatMap((make, index) => make(index)))
          // No difference worth its syntax: every block travels as it is (`[block]`).
          const diff = diffContent(content, built) ?? content.map((item) => [item])
          expect(JSON.stringify(patchContent(diff, built))).toBe(JSON.stringify(content))
        },
      ),
    )
  })

  it('every corpus attempt opens to the same JSON; the cited seqs the log lacks are the seqs the chunks skip', async () => {
    for (const { name, attempt, payload } of corpusAttemptPayloads()) {
      expect(await opened(payload)).toBe(JSON.stringify(payload))
      const { seq, chunks } = payload.source as { seq: number[]; chunks: unknown[] }
      const seqs = absolute(seq)
      const left = leaveImplied({ ...payload, source: { kind: 'chunks' } }, seqs.at(-1)!, { chunks, seqs })
      const missing = attempt.recorded?.citation.missing ?? []
      expect(left.implied & 8, `${name} ${attempt.id}`).toBe(missing.length > 0 ? 8 : 0)
    }
  })

  it('a recorded message equal to what the chunks built, or cut short, costs a few bytes', async () => {
    // A long reasoning block (about 3,000 characters): the recorded message repeats it, or holds its first half
    // (what an interrupted attempt records). v4 codes the message again; v5 its difference.
    const name = 'web-approval-composer-session.jsonl'
    const source = loadSource(readCorpus(name), name)
    const attempt = source.sessions[0]!.streams.find((a) => a.id === 't1.s2.a1')!
    const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: 0 }, { scope: 'stream' })
    const built = JSON.parse(
      JSON.stringify(builtBlocks((payload.source as { chunks: unknown[] }).chunks)),
    ) as { text?: string }[]
    const { matches: _matches, ...recorded } = payload.attempt!.recorded!
    const withContent = (content: unknown[]) => ({
      ...payload,
      attempt: { ...payload.attempt!, recorded: { ...recorded, content } },
    })
    const cut = built.map((b) =>
      b.text === undefined ? b : { ...b, text: b.text.slice(0, b.text.length >> 1) },
    )
    for (const content of [built, cut]) {
      const told = withContent(content)
      expect(await opened(told)).toBe(JSON.stringify(told))
      const cost = async (version: 4 | 5) =>
        (await body(told, version)).length - (await body(withContent([]), version)).length
      expect(await cost(5)).toBeLessThanOrEqual(16)
      expect(await cost(5)).toBeLessThan((await cost(4)) / 2)
    }
  })
})
