import fc from 'fast-check'
import type { AnyChunk, StreamChunk } from '../core/protocol'
import { be, bs, reasoning, rd, tcd, td, text, toolCall, usage } from './chunks'

// Random sequences of ≤ 30 chunks over indexes 0..4 mixing every variant, no forced finish (docs/protocol.md §3).
const index = fc.integer({ min: 0, max: 4 })
const knownType = fc.constantFrom('text', 'reasoning', 'tool-call')
const block = fc.oneof(
  fc.string().map(text),
  fc.string().map(reasoning),
  fc.tuple(fc.string(), fc.string(), fc.string()).map(([id, name, args]) => toolCall(id, name, args)),
)
const failure = fc.record({ message: fc.string(), code: fc.constantFrom('SERVER', 'AUTH') })
const reason = fc.oneof(
  fc.constantFrom('stop', 'tool-calls', 'max-tokens').map((kind) => ({ kind }) as const),
  failure.map((f) => ({ kind: 'error', failure: f }) as const),
  failure.map((f) => ({ kind: 'aborted', failure: f }) as const),
)
export const knownChunk: fc.Arbitrary<StreamChunk> = fc.oneof(
  fc.tuple(index, knownType).map(([i, t]) => bs(i, t)),
  fc.tuple(index, fc.string()).map(([i, s]) => td(i, s)),
  fc.tuple(index, fc.string()).map(([i, s]) => rd(i, s)),
  fc
    .tuple(index, fc.string(), fc.option(fc.string(), { nil: undefined }), fc.string())
    .map(([i, id, name, args]) => tcd(i, id, name, args)),
  fc.tuple(index, block).map(([i, b]) => be(i, b)),
  fc.tuple(fc.nat(), fc.nat()).map(([input, output]) => usage(input, output)),
  reason.map((r): StreamChunk => ({ type: 'finish', reason: r })),
)
export const knownStream = fc.array(knownChunk, { maxLength: 30 })

/** Known chunks plus the odd unknown one (the engine must record it, not throw). */
export const anyChunk: fc.Arbitrary<AnyChunk> = fc.oneof(
  { weight: 12, arbitrary: knownChunk },
  { weight: 1, arbitrary: fc.constantFrom<AnyChunk>({ type: 'video-delta', index: 0 }, bs(1, 'video')) },
)
export const anyStream = (maxLength = 30): fc.Arbitrary<AnyChunk[]> => fc.array(anyChunk, { maxLength })

/** JSON values a chunk file may hold where a string belongs, including ones that cannot become a string. */
const oddValue = fc.constantFrom<unknown>(null, 0, 5, true, '', ' ', [], [1, 2], {}, { toString: 1 }, [
  { toString: 'x' },
])

/**
 * Chunks the harness's push or read side throws on, or takes in surprising ways (docs/protocol.md §3): unknown types,
 * `block: null` or missing, odd text and arguments, falsy and primitive blocks, closed text blocks whose text is
 * not a string, odd indexes and block types, misshapen replayState entries.
 */
export const oddChunk: fc.Arbitrary<AnyChunk> = fc.oneof(
  fc.constantFrom<AnyChunk>(
    { type: 'video-delta', index: 0 },
    { type: 'ping' },
    { type: 'block-end', index: 1, block: null },
    { type: 'block-end', index: 0 },
    { type: 'block-end', index: 0, block: 0 },
    { type: 'block-end', index: 2, block: 5 },
    { type: 'block-start', index: 3, blockType: 'video' },
    { type: 'finish', reason: { kind: 'max-tokens' }, replayState: { response: 1, blocks: null } },
    { type: 'finish', reason: { kind: 'max-tokens' }, replayState: { response: 1, blocks: 'ab' } },
  ),
  fc.tuple(index, oddValue).map(([i, value]): AnyChunk => ({ type: 'text-delta', index: i, text: value })),
  fc
    .tuple(index, oddValue)
    .map(([i, value]): AnyChunk => ({ type: 'tool-call-delta', index: i, id: value, argumentsDelta: value })),
  fc
    .tuple(index, oddValue)
    .map(([i, value]): AnyChunk => ({ type: 'block-end', index: i, block: { type: 'text', text: value } })),
  // A fresh object for each chunk, as every chunk read from a file has one: a shared one would be one key of the
  // assembler's map where a stream that crossed the worker's columns (or any reader) holds two.
  fc
    .constantFrom<unknown>(-1, 1.5, '0', null, 'object')
    .map((i): AnyChunk => ({ type: 'text-delta', index: i === 'object' ? { toString: 1 } : i, text: 'x' })),
)
export const oddStream = fc.array(
  fc.oneof({ weight: 4, arbitrary: knownChunk }, { weight: 1, arbitrary: oddChunk }),
  {
    maxLength: 30,
  },
)

/**
 * Cursor moves as a user makes them: jumps anywhere and short steps (forward mostly, sometimes back or in place),
 * so the engine's stepping path (one push on the live assembler) is exercised as much as its restores.
 */
export const seekMoves = fc.array(
  fc.oneof(fc.record({ jump: fc.nat() }), fc.record({ step: fc.integer({ min: -1, max: 3 }) })),
  { minLength: 1, maxLength: 16 },
)

/** The cursor positions `moves` visit over a stream of `length` chunks, starting at 0. */
export function seekTargets(
  moves: readonly ({ jump: number } | { step: number })[],
  length: number,
): number[] {
  let k = 0
  return moves.map((move) => {
    k = 'jump' in move ? move.jump % (length + 1) : Math.min(length, Math.max(0, k + move.step))
    return k
  })
}
