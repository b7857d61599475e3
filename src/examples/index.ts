import type { AnyChunk } from '../core/protocol'
import { seedExampleChunks } from './seedExample'

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

export const EXAMPLES: readonly Example[] = [
  {
    id: 'seed',
    title: 'Text and a tool call',
    description: 'The seed articles’ sequence: a text block, a bash tool call, usage and finish tool-calls.',
    source: () => chunksToNdjson(seedExampleChunks),
  },
]

export const DEFAULT_EXAMPLE = EXAMPLES[0]!

export function findExample(id: string): Example | undefined {
  return EXAMPLES.find((example) => example.id === id)
}
