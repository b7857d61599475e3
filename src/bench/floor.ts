import { deflateSync } from 'fflate'
import { BlockAssembler } from '../core/BlockAssembler'
import type { SourcedChunk } from '../core/protocol'

/**
 * The physical floor of a link for a stream: its text, reasoning and tool-call arguments alone, concatenated,
 * deflated and base64url-encoded. No link can carry that content in fewer characters; everything above it
 * (boundaries, types, indexes, keys, seqs, the frame) is overhead.
 */
export function linkFloor(chunks: readonly SourcedChunk[]): number {
  return floorOf(contentOf(chunks))
}

function floorOf(content: string): number {
  const bytes = deflateSync(new TextEncoder().encode(content), { level: 9 }).length
  return Math.ceil((bytes * 4) / 3)
}

function contentOf(chunks: readonly SourcedChunk[]): string {
  // The content as assembled (every block, before max-tokens drops any): deltas, or a block-end's own content.
  const assembler = new BlockAssembler()
  for (const { chunk } of chunks) assembler.push(chunk)
  let content = ''
  try {
    for (const block of assembler.assembled().all) {
      const fields = block as { text?: unknown; arguments?: unknown }
      if (typeof fields.text === 'string') content += fields.text
      if (typeof fields.arguments === 'string') content += fields.arguments
    }
  } catch {
    // An open block of an unknown type: no content to count.
  }
  return content
}

/** `text` split into text-delta chunks of 1–4 characters (a fixed pseudo-random sequence), framed as one block. */
export function proseStream(text: string, count: number): SourcedChunk[] {
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
  const chunks: SourcedChunk[] = [
    { seq: 0, time: null, chunk: { type: 'block-start', index: 0, blockType: 'text' } },
  ]
  let at = 0
  while (chunks.length < count - 1 && at < text.length) {
    const size = 1 + Math.floor(next() * 4)
    chunks.push({
      seq: chunks.length,
      time: null,
      chunk: { type: 'text-delta', index: 0, text: text.slice(at, at + size) },
    })
    at += size
  }
  chunks.push({ seq: chunks.length, time: null, chunk: { type: 'finish', reason: { kind: 'stop' } } })
  return chunks
}

/**
 * The length a v1 link (`v1.` + base64url of the 5-byte frame and deflate-raw(JSON), docs/protocol.md §14) would
 * have for a payload: the bench prints it beside today's v2 link. Plain links only.
 */
export async function v1LinkLength(payload: unknown): Promise<number> {
  const stream = new Blob([JSON.stringify(payload)])
    .stream()
    .pipeThrough(new CompressionStream('deflate-raw'))
  const bytes = 5 + new Uint8Array(await new Response(stream).arrayBuffer()).length
  return 'v1.'.length + Math.ceil((bytes * 4) / 3)
}

/** The floor of several streams shared together (a whole session): all their content as one text. */
export function sessionFloor(streams: readonly (readonly SourcedChunk[])[]): number {
  return floorOf(streams.map(contentOf).join(''))
}

/**
 * The floor of everything an attempt's link must show besides its content: the text column of its layout
 * (docs/protocol.md §14: the content, then every long string — the file name, failure messages, diagnostics, a
 * recorded message that differs) deflated and base64url-encoded, plus the 3 characters of `v5.`. For an attempt
 * with almost no text this, not the content's floor, is what a link could at best come down to (the clocks,
 * seqs, usage and identity it must also carry are left out, so the true minimum is higher still).
 */
export function shownFloor(text: string): number {
  return 'v5.'.length + floorOf(text)
}
