import fc from 'fast-check'
import type { AnyChunk, StreamChunk } from '../core/protocol'
import { be, bs, reasoning, rd, tcd, td, text, toolCall, usage } from './chunks'

// Random sequences of ≤ 30 chunks over indexes 0..4 mixing every variant, no forced finish (PROTOCOL.md §3).
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
