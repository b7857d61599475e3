import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../analyzeStream'
import { knownStream } from '../../test/arbitraries'
import { be, bs, finish, sourced, td, text } from '../../test/chunks'
import { applyEdits, NO_EDITS, parseChunk, redoEdit, undoEdit, withEdit, type ChunkEdit } from './streamEdits'

const stream = sourced([bs(0, 'text'), td(0, 'a'), td(0, 'b'), be(0, text('ab')), finish('stop')])
const types = (edits: ChunkEdit[]) => applyEdits(stream, edits).chunks.map((c) => c.chunk.type)

describe('applyEdits', () => {
  it('drops, duplicates, moves, replaces and inserts, each on the stream the previous edits left', () => {
    const edited = applyEdits(stream, [
      { kind: 'drop', pos: 1 },
      { kind: 'move', from: 2, to: 3 },
      { kind: 'insert', pos: 3, chunk: td(0, 'late') },
      { kind: 'duplicate', pos: 0 },
    ])
    expect(edited.chunks.map((c) => c.chunk.type)).toEqual([
      'block-start',
      'block-start',
      'text-delta',
      'finish',
      'text-delta',
      'block-end',
    ])
    expect(edited.chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3, 4, 5])
    expect(edited.origin).toEqual([0, null, 2, 4, null, 3])
    expect(edited.changed).toEqual([1, 4, 5])
    expect(edited.removed).toEqual([1])
  })

  it('a delta moved after its block-end is ignored and the block-end stands (§3 A2); an edited block-end wins', () => {
    const moved = applyEdits(stream, [{ kind: 'move', from: 2, to: 3 }])
    expect(analyzeStream(moved.chunks).blocks).toEqual([text('ab')])
    expect(analyzeStream(moved.chunks).findings.map((f) => f.rule)).toContain('delta-after-end')
    expect(types([{ kind: 'replace', pos: 3, chunk: be(0, text('x')) }])).toEqual(types([]))
    expect(
      analyzeStream(applyEdits(stream, [{ kind: 'replace', pos: 3, chunk: be(0, text('x')) }]).chunks).blocks,
    ).toEqual([text('x')])
  })

  it('no edits give the recording back, and undo then redo gives the same stream, on random streams', () => {
    fc.assert(
      fc.property(
        knownStream,
        fc.array(fc.tuple(fc.constantFrom('drop', 'duplicate', 'move'), fc.nat(), fc.nat()), {
          maxLength: 6,
        }),
        (chunks, ops) => {
          const recording = sourced(chunks)
          expect(applyEdits(recording, []).chunks).toEqual(recording)
          let history = NO_EDITS
          for (const [kind, a, b] of ops) {
            const n = applyEdits(recording, history.done).chunks.length
            if (n === 0) break
            const edit: ChunkEdit = kind === 'move' ? { kind, from: a % n, to: b % n } : { kind, pos: a % n }
            history = withEdit(history, edit)
          }
          const before = applyEdits(recording, history.done)
          const again = redoEdit(undoEdit(history))
          expect(applyEdits(recording, again.done)).toEqual(before)
          expect(before.chunks.length).toBe(
            recording.length +
              history.done.filter((e) => e.kind === 'duplicate').length -
              history.done.filter((e) => e.kind === 'drop').length,
          )
        },
      ),
    )
  })
})

describe('parseChunk', () => {
  it('takes any JSON object with a type and names what is missing', () => {
    expect(parseChunk('{"type":"text-delta","index":0,"text":"x"}')).toEqual(td(0, 'x'))
    expect(parseChunk('{"index":0}')).toMatch(/needs a "type" string/)
    expect(parseChunk('[1]')).toMatch(/is a JSON object/)
    expect(parseChunk('{')).toMatch(/^not JSON: /)
  })
})
