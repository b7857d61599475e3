import type { FormatId } from './types'

/** A readable name for each input format, for the toolbar and the status line (the id stays in tooltips). */
export const FORMAT_LABELS: Record<FormatId, string> = {
  'dsh-session-jsonl': 'Harness session log',
  'chunk-ndjson': 'Chunks (NDJSON)',
  'chunk-json': 'Chunks (JSON array)',
  'openai-sse': 'OpenAI-compatible SSE',
  'anthropic-sse': 'Anthropic SSE',
  har: 'HAR capture',
  'dsh-live-recording': 'Harness live recording',
  'js-snippet': 'JS/TS snippet',
  'simplified-stream': 'Simplified stream',
  'dsh-session-zstd': 'Harness session log (zstd)',
  'dsh-session-zip': 'Harness session archive (zip)',
  'dsh-sqlite': 'Harness session store (SQLite)',
  'chunkscope-live': 'Live captures',
}
