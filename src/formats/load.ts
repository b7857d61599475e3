import { firstLine } from './detect'
import { isBlank, preview, type ProgressHook } from './json'
import { detectFormat, TEXT_FORMATS, type FormatId } from './registry'
import { sniffForeignFormat } from './sse/foreign'
import { sseCommentsOnly } from './sse/sniff'
import type { LoadedSource } from './types'

export { citationDiagnostics } from './sessionSource'

/**
 * The single entry point from text to sessions: detects the format from content (registry.ts), reads it
 * leniently, never throws. Empty or unrecognised input yields no sessions and exactly one error diagnostic saying
 * why.
 *
 * @example
 * const source = loadSource(text, 'session.jsonl')
 * source.format // 'dsh-session-jsonl'
 * source.sessions[0].streams.length // 3
 */
export function loadSource(text: string, name?: string, onProgress?: ProgressHook): LoadedSource {
  const named = name !== undefined ? { name } : {}
  if (isBlank(text)) {
    return {
      format: null,
      ...named,
      sessions: [],
      diagnostics: [{ severity: 'error', message: 'empty input' }],
    }
  }
  const format = detectFormat(text)
  const reader = TEXT_FORMATS.find((candidate) => candidate.id === format)
  if (format === null || reader === undefined) {
    const foreign = sniffForeignFormat(text)
    if (foreign !== null) {
      const message = `${foreign.name} (${foreign.evidence}): a format Chunkscope does not read — it translates DeepSeek / OpenAI-compatible Chat Completions, Anthropic Messages, OpenAI Responses and Gemini streams`
      return { format: null, ...named, sessions: [], diagnostics: [{ line: 1, severity: 'error', message }] }
    }
    const comments = sseCommentsOnly(text)
    if (comments !== null) {
      const { count, first, line } = comments
      const message = `line ${line}: an SSE body holding only ${count} comment line${count === 1 ? '' : 's'} (${preview(first)}) and no event, so nothing names its provider and there is nothing to show: the harness's DeepSeek adapter ends such a body STREAM_CLOSED (no [DONE]), pi-ai's Anthropic route EMPTY_RESPONSE (no content)`
      return { format: null, ...named, sessions: [], diagnostics: [{ line, severity: 'error', message }] }
    }
    const expected = joinAlternatives(TEXT_FORMATS.map((f) => f.description))
    const message = `unrecognised format: expected ${expected}; first line starts with ${preview(firstLine(text))}`
    return { format: null, ...named, sessions: [], diagnostics: [{ line: 1, severity: 'error', message }] }
  }
  try {
    return { format, ...named, ...reader.read(text, onProgress) }
  } catch (error) {
    // Readers are written not to throw; if one does, the user still gets a message instead of a blank page.
    const reason = error instanceof Error ? error.message : String(error)
    return internalError(format, named, `internal error while reading ${reader.description}: ${reason}`)
  }
}

function internalError(format: FormatId, named: { name?: string }, message: string): LoadedSource {
  return { format, ...named, sessions: [], diagnostics: [{ severity: 'error', message }] }
}

function joinAlternatives(labels: readonly string[]): string {
  if (labels.length <= 1) return labels.join('')
  return `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`
}
