import type { ChunkChaosReport } from '../../core/experiments/chunkChaos'
import type { KeepProperty } from '../../core/experiments/keep'
import type { MinimizeResult } from '../../core/experiments/minimize'
import type { SourcedChunk } from '../../core/protocol'
import type { RecordedMessage } from '../../core/sessionTypes'
import type { WireChaosReport } from '../../formats/sse/wireChaos'

/** What the experiments worker is asked (docs/protocol.md §13). */
export type ExperimentRequest =
  | {
      readonly kind: 'minimize'
      readonly chunks: readonly SourcedChunk[]
      readonly recorded: RecordedMessage | null
      readonly property: KeepProperty
    }
  | {
      readonly kind: 'chaos'
      readonly chunks: readonly SourcedChunk[]
      readonly seed: number
      readonly wire: { readonly bytes: Uint8Array; readonly dialect: 'openai-sse' | 'anthropic-sse' } | null
    }

/** A chaos report travels without the variants' chunks: each is rebuilt from its seed when opened. */
export type ChaosResult = {
  readonly chunks: Omit<ChunkChaosReport, 'variants'> & {
    readonly variants: readonly Omit<ChunkChaosReport['variants'][number], 'chunks'>[]
  }
  readonly wire: WireChaosReport | null
}

export type ExperimentResponse =
  | { readonly type: 'progress'; readonly steps: number; readonly size: number }
  | { readonly type: 'minimized'; readonly result: MinimizeResult | string }
  | { readonly type: 'chaos'; readonly result: ChaosResult }
  | { readonly type: 'failed'; readonly message: string }
