import type { SourcedChunk } from '../protocol'
import type { RecordedMessage } from '../sessionTypes'
import { ddmin, type DdminOptions } from './ddmin'
import { keepLabel, keepTest, renumbered, type KeepProperty } from './keep'

export type MinimizeResult = {
  /** The minimal stream, numbered 0, 1, 2… (times kept). */
  readonly chunks: SourcedChunk[]
  /** Positions of its chunks in the input stream. */
  readonly kept: readonly number[]
  readonly before: number
  /** Candidate streams replayed. */
  readonly steps: number
  /** Stopped early (`shouldStop`): `chunks` is the smallest stream found so far that has the property. */
  readonly cancelled: boolean
  readonly property: string
}

/**
 * Shrinks a stream to a 1-minimal one that still has `property` (docs/protocol.md §13): removing any one of its
 * chunks loses the property. A string says why nothing could be done (the stream lacks the property, say).
 *
 * @example
 * minimizeStream(attempt.chunks, attempt.recorded, { kind: 'finding', rule: 'delta-after-end' })
 * // { chunks: [block-start, block-end, text-delta], kept: [0, 5, 6], before: 40, steps: 31, … }
 */
export function minimizeStream(
  chunks: readonly SourcedChunk[],
  recorded: RecordedMessage | null,
  property: KeepProperty,
  options: DdminOptions = {},
): MinimizeResult | string {
  const test = keepTest(property, recorded, chunks)
  if (typeof test === 'string') return test
  const label = keepLabel(property)
  if (!test(renumbered(chunks))) return `the stream does not have the property ${label}: nothing to keep`
  const result = ddmin(chunks, (candidate) => test(renumbered(candidate)), options)
  return {
    chunks: renumbered(result.items),
    kept: result.kept,
    before: chunks.length,
    steps: result.steps + 1,
    cancelled: result.cancelled,
    property: label,
  }
}
