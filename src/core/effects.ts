import type { ContentBlock } from './protocol'

/**
 * What one push did to the assembly state (docs/protocol.md §4). The assembled result never depends on effects;
 * they exist so the timeline and the narration can say what happened.
 *
 * `implicit: true` on an append or close marks the `open-implicit` case: the chunk created its block through
 * `ensure` (A2–A4) before acting on it.
 */
export type Effect =
  | { readonly kind: 'open'; readonly index: number; readonly blockType: string }
  | {
      readonly kind: 'append-text'
      readonly index: number
      readonly chars: number
      readonly implicit: boolean
    }
  | {
      readonly kind: 'append-arguments'
      readonly index: number
      readonly chars: number
      readonly implicit: boolean
      /** The delta's id replaced a different earlier id (every delta overwrites; A3). */
      readonly idChanged: boolean
      /** A non-empty name replaced a different earlier name. */
      readonly nameChanged: boolean
    }
  | {
      readonly kind: 'close'
      readonly index: number
      readonly implicit: boolean
      readonly block: ContentBlock
    }
  | { readonly kind: 'ignored-duplicate-start'; readonly index: number }
  | { readonly kind: 'ignored-straggler'; readonly index: number }
  | { readonly kind: 'ignored-reclose'; readonly index: number }
  | { readonly kind: 'usage-set' }
  | { readonly kind: 'usage-replaced' }
  | { readonly kind: 'finish-set' }
  | { readonly kind: 'finish-replaced' }
  /**
   * Not one of the seven chunk types: the harness's push throws `error` (§3 A7) and its agent loop reads no further
   * chunk of the stream.
   */
  | { readonly kind: 'unknown-chunk'; readonly chunkType: string; readonly error: string }
  /**
   * A known chunk type whose fields the harness cannot read (a block-end with `block: null`, text that cannot
   * become a string): its push throws `error`. When the throw came after `ensure`, the block exists (`index`).
   */
  | { readonly kind: 'push-error'; readonly error: string }
  | {
      readonly kind: 'push-error'
      readonly error: string
      readonly index: number
      readonly implicit: boolean
    }
  /**
   * A block-end whose `block` is `0`, `''` or `false`: the harness stores it, but every later test is
   * `if (partial.block)`, so the block stays open and assembles from its deltas.
   */
  | { readonly kind: 'close-without-block'; readonly index: number; readonly implicit: boolean }
  /** A chunk after one whose push threw: the harness never reads it (its stream consumer stopped there). */
  | { readonly kind: 'after-error' }

export type EffectKind = Effect['kind']

/** Stable numbering for compact per-chunk storage (a Uint8Array in the replay engine). */
export const EFFECT_KINDS = [
  'open',
  'append-text',
  'append-arguments',
  'close',
  'ignored-duplicate-start',
  'ignored-straggler',
  'ignored-reclose',
  'usage-set',
  'usage-replaced',
  'finish-set',
  'finish-replaced',
  'unknown-chunk',
  'push-error',
  'close-without-block',
  'after-error',
] as const satisfies readonly EffectKind[]

const IMPLICIT_BIT = 0x80
const CODE_OF = new Map<EffectKind, number>(EFFECT_KINDS.map((kind, code) => [kind, code]))

/** Packs an effect into one byte: its kind's number, plus a bit when the chunk opened its block implicitly. */
export function encodeEffect(effect: Effect): number {
  const code = CODE_OF.get(effect.kind) ?? 0
  return 'implicit' in effect && effect.implicit ? code | IMPLICIT_BIT : code
}

export type EffectSummary = { readonly kind: EffectKind; readonly implicit: boolean }

export function decodeEffect(byte: number): EffectSummary {
  const kind = EFFECT_KINDS[byte & ~IMPLICIT_BIT]
  if (kind === undefined) throw new Error(`invalid effect code ${byte}`)
  return { kind, implicit: (byte & IMPLICIT_BIT) !== 0 }
}

/** Chunks the assembler left without effect on the state; the names are the CLI contract's `ignored[].kind`. */
export type IgnoredKind = 'straggler-delta' | 'duplicate-start' | 're-close'

export function ignoredKindOf(kind: EffectKind): IgnoredKind | null {
  switch (kind) {
    case 'ignored-straggler':
      return 'straggler-delta'
    case 'ignored-duplicate-start':
      return 'duplicate-start'
    case 'ignored-reclose':
      return 're-close'
    default:
      return null
  }
}
