import { describe, expect, it, vi } from 'vitest'
import { readAssembler } from './analyzeStream'
import { BlockReads } from './blockReads'
import { ReplayEngine } from './ReplayEngine'
import { assemble, be, bs, sourced, td, text } from '../test/chunks'

describe('BlockReads', () => {
  // 2,000 blocks that open and close in turn, then one left open: the shape of a long agent stream.
  const closed = Array.from({ length: 2000 }, (_, i) => [
    bs(i, 'text'),
    td(i, `t${i}`),
    be(i, text(`t${i}`)),
  ]).flat()
  const chunks = [...closed, bs(2000, 'text'), td(2000, 'open'), td(2000, ' still')]
  const engine = new ReplayEngine(sourced(chunks))

  it('reads a state’s frozen run once for the stream: another state with it reads only from its first open block', () => {
    const reads = new BlockReads((index) => engine.life(index))
    const whole = assemble(chunks)
    reads.rebuild(whole)

    const earlier = assemble(chunks.slice(0, -1))
    const partial = vi.spyOn(earlier, 'partial')
    reads.rebuild(earlier)
    // Only the open block's partial is read; the 2,000 frozen ones are the run read with the whole stream.
    expect(partial.mock.calls).toEqual([[2000]])
    const { partials, ...read } = reads.read(earlier)
    expect(read).toEqual(readAssembler(earlier))
    expect(partials.map((frame) => [frame.life.index, frame.state, frame.text])).toEqual(
      earlier.indexes.map((index) => [index, index < 2000 ? 'frozen' : 'open', earlier.partial(index)!.text]),
    )
  })

  it('a state with a shorter frozen run than one read before takes only its own part of the run', () => {
    const reads = new BlockReads((index) => engine.life(index))
    reads.rebuild(assemble(chunks))
    // Block 1,000 is still open here: the run shared is blocks 0–999, and the reads from there are this state's.
    const middle = assemble(chunks.slice(0, 1000 * 3 + 2))
    reads.rebuild(middle)
    const { partials, ...read } = reads.read(middle)
    expect(read).toEqual(readAssembler(middle))
    expect(partials).toHaveLength(1001)
    expect(partials.at(-1)).toMatchObject({ state: 'open', text: 't1000' })
  })
})
