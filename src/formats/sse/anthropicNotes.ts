import type { StreamChunk } from '../../core/protocol'

/**
 * The wording of what the Anthropic translator read but the harness's pi-ai route keeps no chunk of
 * (docs/protocol.md §9, "The harness's pi-ai route"). Each becomes one diagnostic, never one per delta.
 */

/** `skipped 3 content blocks … : server_tool_use ×1, web_search_tool_result ×1, … (and their 12 deltas)`. */
export function describeSkipped(skipped: ReadonlyMap<string, number>, deltas: number): string {
  const total = [...skipped.values()].reduce((sum, count) => sum + count, 0)
  const kinds = [...skipped].map(([type, count]) => `${type} ×${count}`).join(', ')
  const plural = total === 1 ? 'content block' : 'content blocks'
  const withDeltas =
    deltas > 0 ? ` and ${deltas} delta${deltas === 1 ? '' : 's'} to ${total === 1 ? 'it' : 'them'}` : ''
  return `skipped ${total} ${plural}${withDeltas} that pi-ai keeps no block for (server-side tools and results, compaction, …): ${kinds}`
}

/** `message_start` already holds whole blocks: pi-ai reads blocks only from `content_block_*` events. */
export function wholeContentNote(content: readonly unknown[]): string {
  const types = content.map((block) => {
    const type =
      typeof block === 'object' && block !== null ? (block as Record<string, unknown>)['type'] : block
    return String(type)
  })
  return (
    `message_start carries ${content.length} content block${content.length === 1 ? '' : 's'} already whole ` +
    `(${types.join(', ')}): pi-ai reads blocks only from content_block events, so the harness keeps none of them`
  )
}

/** A `tool_use` whose input came whole in `content_block_start`: pi-ai's arguments come from deltas only. */
export function wholeInputNote(name: unknown, input: unknown): string {
  const shown = JSON.stringify(input) ?? String(input)
  const short = shown.length > 80 ? `${shown.slice(0, 80)}…` : shown
  return (
    `tool_use ${JSON.stringify(name)}: its input ${short} arrived whole in content_block_start with no ` +
    'input_json_delta; pi-ai reads arguments only from the deltas, so the block-end arguments are {}'
  )
}

/**
 * An `event: error`: pi-ai fails with the event's raw data as the message and the route classifies that text by
 * wording alone, so e.g. `overloaded_error` (no status number in it) is PI_AI_ERROR, which the default retry
 * policy does not retry.
 */
export function errorEventNote(data: string, finish: StreamChunk | undefined): string {
  let type = 'unknown type'
  try {
    const parsed = JSON.parse(data) as { error?: { type?: unknown } }
    if (typeof parsed.error?.type === 'string') type = parsed.error.type
  } catch {
    // Not JSON: pi-ai does not parse it either.
  }
  const code = finish?.type === 'finish' && finish.reason.kind === 'error' ? finish.reason.failure.code : '?'
  return `error event (${type}): pi-ai fails the stream with the event's raw data as the message; the route classifies that text → ${code}`
}

/**
 * `usage.iterations` (server-side tool loops, compaction): pi-ai and the harness use only the top-level counts;
 * the breakdown is shown here so it is not lost.
 */
export function iterationsNote(iterations: readonly unknown[]): string {
  const parts = iterations.map((iteration) => {
    const record =
      typeof iteration === 'object' && iteration !== null ? (iteration as Record<string, unknown>) : {}
    const type = typeof record['type'] === 'string' ? record['type'] : 'iteration'
    return `${type} ${String(record['input_tokens'] ?? '?')} in / ${String(record['output_tokens'] ?? '?')} out`
  })
  return (
    `usage.iterations (${iterations.length}): ${parts.join('; ')} — the harness's usage is the top-level counts ` +
    'only'
  )
}
