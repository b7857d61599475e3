import type { SourcedChunk } from '../../core/protocol'

/**
 * Bare chunk NDJSON: one StreamChunk per line, nothing else (seq and time are not part of a chunk). Reading it back
 * with `loadSource` gives the same chunks, numbered 0, 1, 2….
 *
 * @example
 * toNdjson(chunks) // '{"type":"block-start","index":0,"blockType":"text"}\n…'
 */
export function toNdjson(chunks: readonly SourcedChunk[]): string {
  let out = ''
  for (const sourced of chunks) out += JSON.stringify(sourced.chunk) + '\n'
  return out
}
