import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from './BlockAssembler'
import { readAssembler } from './analyzeStream'
import type { AnyChunk } from './protocol'
import { ReplayEngine } from './ReplayEngine'
import { knownStream, oddChunk, oddStream, seekMoves, seekTargets } from '../test/arbitraries'
import { sourced } from '../test/chunks'

/*
 * Random streams full of what the harness's BlockAssembler throws on (docs/protocol.md §3). The unit cases in
 * harnessThrows.test.ts pin each message against the harness's own code; here the properties hold for any stream.
 */

function fresh(chunks: readonly AnyChunk[]) {
  const assembler = new BlockAssembler()
  for (const chunk of chunks) assembler.push(chunk)
  return readAssembler(assembler)
}

describe('streams the harness throws on', () => {
  it('seek(k) equals a fresh replay of the first k chunks, in any seek order, throws included', () => {
    fc.assert(
      fc.property(oddStream, seekMoves, fc.integer({ min: 1, max: 6 }), (chunks, moves, every) => {
        const engine = new ReplayEngine(sourced(chunks), { checkpointEvery: every })
        for (const k of seekTargets(moves, chunks.length)) {
          const { k: _k, total, partials, last, findingCount, ignoredCount, ...read } = engine.seek(k)
          void [_k, total, partials, last, findingCount, ignoredCount]
          expect(read).toEqual(fresh(chunks.slice(0, k)))
        }
      }),
    )
  })

  it('an unknown chunk after well-formed ones: the result is assertNever’s error at it, whatever follows', () => {
    fc.assert(
      fc.property(
        knownStream,
        fc.constantFrom<AnyChunk>({ type: 'ping', seq: 3 }, { type: 'video-delta', index: 0 }),
        oddStream,
        (before, unknown, after) => {
          const result = fresh([...before, unknown, ...after])
          expect(result).toMatchObject({
            blocks: null,
            replayState: null,
            error: `unreachable variant in BlockAssembler.push: ${JSON.stringify(unknown)}`,
            errorPos: before.length,
          })
          // What a cancel keeps is the state the harness's assembler holds when its push threw.
          const prefix = fresh(before)
          expect(result.interruptedBlocks).toEqual(prefix.interruptedBlocks)
          expect(result.finish).toEqual(prefix.finish)
          expect(result.usage).toEqual(prefix.usage)
        },
      ),
    )
  })

  it('after a push throws, every later frame shows that error at that position', () => {
    fc.assert(
      fc.property(oddStream, (chunks) => {
        const engine = new ReplayEngine(sourced(chunks))
        const at = engine.result.errorPos
        if (at === null) return
        for (let k = at + 1; k <= chunks.length; k++) {
          const frame = engine.seek(k)
          expect([frame.errorPos, frame.error, frame.blocks]).toEqual([at, engine.result.error, null])
          const effects = k === at + 1 ? ['unknown-chunk', 'push-error'] : ['after-error']
          expect(effects).toContain(frame.last?.effect.kind)
        }
      }),
    )
  })

  it('a read-side throw never hides the push result: blocks null exactly when blocks() throws', () => {
    fc.assert(
      fc.property(fc.array(oddChunk, { maxLength: 6 }), (chunks) => {
        const assembler = new BlockAssembler()
        for (const chunk of chunks) assembler.push(chunk)
        const read = readAssembler(assembler)
        if (assembler.failure !== undefined) return
        let threw: string | null = null
        try {
          assembler.blocks()
        } catch (error) {
          threw = (error as Error).message
        }
        expect([read.blocks === null, read.error]).toEqual([threw !== null, threw])
      }),
    )
  })
})
