import type { AnyChunk } from '../core/protocol'
import { seedExampleChunks } from './seedExample'
import { cancelledLog, errorRetryLog } from './sessionExamples'
import {
  deepseekChunks,
  deltaOnlyChunks,
  duplicateEndChunks,
  duplicateStartChunks,
  frozenDiffersChunks,
  maxTokensChunks,
  misalignedReplayChunks,
  noFinishChunks,
  stragglerChunks,
  unknownTypeChunks,
} from './streamExamples'

/**
 * A built-in example: a short lesson about one assembler rule. Its `source()` is the text of a file in a format
 * Chunkscope reads (chunk NDJSON or a harness session log), so examples load exactly like a dropped file.
 */
export type Example = {
  readonly id: string
  readonly title: string
  /** One line: what to look for. */
  readonly description: string
  readonly source: () => string
}

/** Chunks as NDJSON, one per line: the bare chunk format. */
export function chunksToNdjson(chunks: readonly AnyChunk[]): string {
  return chunks.map((chunk) => JSON.stringify(chunk)).join('\n') + '\n'
}

/** The built-in lessons, in teaching order; the first is the default page. */
export const EXAMPLES: readonly Example[] = [
  {
    id: 'seed',
    title: 'Text and a tool call',
    description:
      'The seed article’s clean stream: each block starts, streams and ends; then usage and finish tool-calls.',
    source: () => chunksToNdjson(seedExampleChunks),
  },
  {
    id: 'delta-only',
    title: 'Delta-only stream',
    description:
      'No block-start or block-end at all: the first delta opens block 0 and it assembles from deltas.',
    source: () => chunksToNdjson(deltaOnlyChunks),
  },
  {
    id: 'straggler',
    title: 'Straggler delta',
    description:
      'A text-delta arrives after its block-end: it is ignored and the frozen block keeps its text.',
    source: () => chunksToNdjson(stragglerChunks),
  },
  {
    id: 'duplicate-end',
    title: 'Duplicate block-end',
    description: 'A second block-end for block 0 says something else: it is ignored, the first close wins.',
    source: () => chunksToNdjson(duplicateEndChunks),
  },
  {
    id: 'duplicate-start',
    title: 'Duplicate block-start',
    description: 'A second block-start for block 0 is ignored: the block is not retyped or reopened.',
    source: () => chunksToNdjson(duplicateStartChunks),
  },
  {
    id: 'max-tokens',
    title: 'Max tokens mid tool call',
    description:
      'A max-tokens finish while a tool call is still streaming: the tool call is dropped, the text is kept.',
    source: () => chunksToNdjson(maxTokensChunks),
  },
  {
    id: 'no-finish',
    title: 'No finish chunk',
    description: 'The stream ends without a finish: it reads as stop, with a finish-missing warning.',
    source: () => chunksToNdjson(noFinishChunks),
  },
  {
    id: 'error-retry',
    title: 'Error, then retry',
    description:
      'A session log: a 503 error finish, then a retry in the same step; the message cites attempt 2 only.',
    source: errorRetryLog,
  },
  {
    id: 'cancelled',
    title: 'Cancelled by the user',
    description:
      'A session log: no finish, the open text is kept as an interrupted message, the turn ends aborted.',
    source: cancelledLog,
  },
  {
    id: 'deepseek',
    title: 'DeepSeek: blocks kept open',
    description:
      'Reasoning and text stay open until the end, then close in opening order (blocks-overlap info).',
    source: () => chunksToNdjson(deepseekChunks),
  },
  {
    id: 'frozen-differs',
    title: 'Block-end differs from deltas',
    description:
      'The tool call’s block-end arguments differ from what streamed: the block-end wins (a warning).',
    source: () => chunksToNdjson(frozenDiffersChunks),
  },
  {
    id: 'misaligned-replay',
    title: 'Misaligned replayState',
    description: 'replayState has one entry for two blocks: the mapping is misaligned and discarded whole.',
    source: () => chunksToNdjson(misalignedReplayChunks),
  },
  {
    id: 'unknown-type',
    title: 'Unknown block type',
    description: 'A "video" block is opened and never closed: assembling the message throws.',
    source: () => chunksToNdjson(unknownTypeChunks),
  },
]

export const DEFAULT_EXAMPLE = EXAMPLES[0]!

export function findExample(id: string): Example | undefined {
  return EXAMPLES.find((example) => example.id === id)
}
