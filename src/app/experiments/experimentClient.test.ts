import { describe, expect, it } from 'vitest'
import { be, bs, sourced, td, text } from '../../test/chunks'
import { startExperiment } from './experimentClient'

// Node has no Worker: the client runs the experiment inline after a macrotask, as the page does without workers.
const stream = sourced([bs(0, 'text'), td(0, 'a'), be(0, text('a')), td(0, 'late')])

describe('startExperiment', () => {
  it('minimizes and reports the result', async () => {
    const run = startExperiment(
      {
        kind: 'minimize',
        chunks: stream,
        recorded: null,
        property: { kind: 'finding', rule: 'delta-after-end' },
      },
      () => {},
    )
    const message = await run.done
    expect(
      message.type === 'minimized' && typeof message.result !== 'string'
        ? message.result.chunks.length
        : message,
    ).toBe(2)
  })

  it('cancelled before it ran: nothing runs and the result says cancelled', async () => {
    let progressed = false
    const run = startExperiment(
      { kind: 'chaos', chunks: stream, seed: 1, wire: null },
      () => (progressed = true),
    )
    run.cancel()
    expect(await run.done).toEqual({ type: 'cancelled' })
    expect(progressed).toBe(false)
  })

  it('sends a chaos report without the variants’ chunks (rebuilt from their seeds)', async () => {
    const message = await startExperiment({ kind: 'chaos', chunks: stream, seed: 4, wire: null }, () => {})
      .done
    if (message.type !== 'chaos') throw new Error(message.type)
    expect(message.result.chunks.variants.length).toBeGreaterThan(0)
    expect(message.result.chunks.variants.every((v) => !('chunks' in v))).toBe(true)
  })
})
