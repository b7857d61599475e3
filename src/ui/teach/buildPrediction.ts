import type { EffectSummary } from '../../core/effects'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { isRecord } from '../../core/base/isRecord'

/** What a chunk can do to the assembly state, in a class's words (docs/protocol.md §3, §4). */
export const OUTCOMES = [
  'open',
  'append',
  'open-append',
  'freeze',
  'open-freeze',
  'stays-open',
  'ignored-straggler',
  'ignored-duplicate-start',
  'ignored-reclose',
  'usage-set',
  'usage-replaced',
  'finish-set',
  'finish-replaced',
  'throws',
  'not-read',
] as const
export type Outcome = (typeof OUTCOMES)[number]

/** The outcome an effect is (its kind, and whether the chunk opened its block implicitly first). */
export function outcomeOf(effect: EffectSummary): Outcome {
  switch (effect.kind) {
    case 'open':
      return 'open'
    case 'append-text':
    case 'append-arguments':
      return effect.implicit ? 'open-append' : 'append'
    case 'close':
      return effect.implicit ? 'open-freeze' : 'freeze'
    case 'close-without-block':
      return 'stays-open'
    case 'ignored-straggler':
      return 'ignored-straggler'
    case 'ignored-duplicate-start':
      return 'ignored-duplicate-start'
    case 'ignored-reclose':
      return 'ignored-reclose'
    case 'usage-set':
      return 'usage-set'
    case 'usage-replaced':
      return 'usage-replaced'
    case 'finish-set':
      return 'finish-set'
    case 'finish-replaced':
      return 'finish-replaced'
    case 'unknown-chunk':
    case 'push-error':
      return 'throws'
    case 'after-error':
      return 'not-read'
  }
}

/**
 * What a chunk of this type could do, as the choices put to the class: every outcome the assembler's rules allow for
 * the type (§3), so guessing needs the rules, not the type's name.
 */
const CHOICES: Readonly<Record<string, readonly Outcome[]>> = {
  'block-start': ['open', 'ignored-duplicate-start'],
  'text-delta': ['append', 'open-append', 'ignored-straggler'],
  'reasoning-delta': ['append', 'open-append', 'ignored-straggler'],
  'tool-call-delta': ['append', 'open-append', 'ignored-straggler'],
  'block-end': ['freeze', 'open-freeze', 'ignored-reclose'],
  usage: ['usage-set', 'usage-replaced'],
  finish: ['finish-set', 'finish-replaced'],
}

export type Prediction = {
  /** Position of the chunk about to be applied (the cursor k: it is chunk k of 0…N−1). */
  readonly pos: number
  readonly seq: number
  readonly chunkType: string
  /** The block it addresses, when it has one. */
  readonly index: number | null
  readonly choices: readonly Outcome[]
  /** What the engine's replay says it does: never shown before the class has stepped past it. */
  readonly answer: Outcome
}

/**
 * The question "what will the next chunk do?" at cursor `k`: the choices its type allows, and the answer read from
 * the engine's recorded effect for that chunk. Null at the end of the stream.
 *
 * @example
 * buildPrediction(engine, 5) // { pos: 5, chunkType: 'text-delta', choices: ['append', 'open-append',
 *                            //   'ignored-straggler'], answer: 'ignored-straggler', … } for a straggler
 */
export function buildPrediction(engine: ReplayEngine, k: number): Prediction | null {
  const sourced = engine.chunks.at(k)
  if (sourced === undefined) return null
  const chunk: unknown = sourced.chunk
  const chunkType = isRecord(chunk) && typeof chunk['type'] === 'string' ? chunk['type'] : '?'
  const index = isRecord(chunk) && typeof chunk['index'] === 'number' ? chunk['index'] : null
  const answer = outcomeOf(engine.effectAt(k))
  const base = CHOICES[chunkType] ?? ['throws']
  const choices = base.includes(answer) ? base : [...base, answer]
  return { pos: k, seq: sourced.seq, chunkType, index, choices, answer }
}
