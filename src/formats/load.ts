import { buildSession, buildStreamSession, type Session } from '../core/session'
import { readChunkJson, readChunkNdjson, type ChunkFileRead } from './chunkFiles'
import {
  detectFormat,
  firstLine,
  sniffChunkJson,
  sniffChunkNdjson,
  sniffSessionJsonl,
  type Sniffer,
} from './detect'
import { readHar } from './har/readHar'
import { sniffHar } from './har/sniffHar'
import { isBlank, preview, type ProgressHook } from './json'
import { readLiveRecording, sniffLiveRecording } from './live/liveRecording'
import { readSessionJsonl } from './sessionJsonl'
import { readSimplifiedSource, sniffSimplified } from './simplified/simplified'
import { readSnippetSource, sniffSnippet } from './snippet/readSnippet'
import { readSseSource } from './sse/readSse'
import { sniffForeignFormat } from './sse/foreign'
import { sniffSseDialect } from './sse/sniff'
import type { Diagnostic, FormatId, LoadedSource } from './types'

/**
 * One input format: how to recognise it and how to read it. More readers (zstd, zip, SQLite, SSE, HAR, …) plug in
 * by adding an entry; binary containers will add a byte-level sniff beside the text one.
 */
export type SourceReader = Sniffer & {
  /** For messages and the UI: "a DeepSeek Harness session log". */
  readonly label: string
  /** `onProgress`: how far into the text the reader is (line-based readers report; others may not). */
  readonly read: (
    text: string,
    onProgress?: ProgressHook,
  ) => { diagnostics: Diagnostic[]; sessions: Session[] }
}

/** The registry, most specific first: the first reader whose sniff accepts the text reads it. */
export const SOURCE_READERS: readonly SourceReader[] = [
  {
    id: 'har',
    label: 'a HAR file (browser devtools export)',
    sniff: sniffHar,
    read: readHar,
  },
  {
    id: 'dsh-live-recording',
    label: "a recording of the harness's live WebSocket (server-request frames)",
    sniff: sniffLiveRecording,
    read: readLiveRecording,
  },
  {
    id: 'dsh-session-jsonl',
    label: 'a DeepSeek Harness session log',
    sniff: sniffSessionJsonl,
    read: readSessionSource,
  },
  {
    // Before chunk-json: a JSON array of simplified chunks also starts with `[`.
    id: 'simplified-stream',
    label: "the seed tutorial's simplified stream (text / tool_call / done)",
    sniff: sniffSimplified,
    read: readSimplifiedSource,
  },
  {
    id: 'chunk-json',
    label: 'a JSON array of StreamChunks',
    sniff: sniffChunkJson,
    read: (text) => streamSource(readChunkJson(text)),
  },
  {
    id: 'chunk-ndjson',
    label: 'NDJSON of StreamChunks',
    sniff: sniffChunkNdjson,
    read: (text, onProgress) => streamSource(readChunkNdjson(text, onProgress)),
  },
  {
    id: 'openai-sse',
    label: 'a DeepSeek / OpenAI-compatible SSE body',
    sniff: (text) => sniffSseDialect(text) === 'openai-sse',
    read: (text) => readSseSource(text, 'openai-sse'),
  },
  {
    id: 'anthropic-sse',
    label: 'an Anthropic Messages SSE body',
    sniff: (text) => sniffSseDialect(text) === 'anthropic-sse',
    read: (text) => readSseSource(text, 'anthropic-sse'),
  },
  {
    // Last: code is recognised only when no data format fits.
    id: 'js-snippet',
    label: 'a JavaScript/TypeScript snippet that yields chunk literals',
    sniff: sniffSnippet,
    read: readSnippetSource,
  },
]

/**
 * The single entry point from text to sessions: detects the format from content, reads it leniently, never throws.
 * Empty or unrecognised input yields no sessions and exactly one error diagnostic saying why.
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
  const format = detectFormat(text, SOURCE_READERS)
  const reader = SOURCE_READERS.find((candidate) => candidate.id === format)
  if (format === null || reader === undefined) {
    const foreign = sniffForeignFormat(text)
    if (foreign !== null) {
      const message = `${foreign.name} (${foreign.evidence}): a format Chunkscope does not read — it translates DeepSeek / OpenAI-compatible Chat Completions and Anthropic Messages streams`
      return { format: null, ...named, sessions: [], diagnostics: [{ line: 1, severity: 'error', message }] }
    }
    const expected = joinAlternatives(SOURCE_READERS.map((r) => r.label))
    const message = `unrecognised format: expected ${expected}; first line starts with ${preview(firstLine(text))}`
    return { format: null, ...named, sessions: [], diagnostics: [{ line: 1, severity: 'error', message }] }
  }
  try {
    return { format, ...named, ...reader.read(text, onProgress) }
  } catch (error) {
    // Readers are written not to throw; if one does, the user still gets a message instead of a blank page.
    const reason = error instanceof Error ? error.message : String(error)
    return internalError(format, named, `internal error while reading ${reader.label}: ${reason}`)
  }
}

function internalError(format: FormatId, named: { name?: string }, message: string): LoadedSource {
  return { format, ...named, sessions: [], diagnostics: [{ severity: 'error', message }] }
}

function readSessionSource(
  text: string,
  onProgress?: ProgressHook,
): { diagnostics: Diagnostic[]; sessions: Session[] } {
  const read = readSessionJsonl(text, onProgress)
  const diagnostics = read.diagnostics
  if (read.header === null && read.events.length === 0) {
    diagnostics.push({ severity: 'error', message: 'no session header and no events could be read' })
    return { diagnostics, sessions: [] }
  }
  const session = buildSession(read.header, read.events)
  diagnostics.push(...citationDiagnostics(session))
  return { diagnostics, sessions: [session] }
}

/** What the links between messages and streams say about the log (§6); assembly mismatches are the checks' job. */
export function citationDiagnostics(session: Session): Diagnostic[] {
  const found: Diagnostic[] = []
  for (const message of session.messages) {
    const at = `line ${message.line}: assistant/message seq ${message.seq}`
    const add = (severity: Diagnostic['severity'], text: string) =>
      found.push({ line: message.line, severity, message: `${at} ${text}` })
    if (message.provenance === 'unknown') {
      add(
        'info',
        'has no sourceEventSeqs: unknown provenance (crash repair writes such, PROTOCOL.md §6); not linked to a stream',
      )
      continue
    }
    const { missing, foreign, uncited } = message.citation
    if (message.attemptId === null) add('warning', 'cites no chunk of this log; not linked to a stream')
    if (missing.length > 0)
      add('warning', `cites ${count(missing, 'seq')} that are not in the log (${listSeqs(missing)})`)
    if (foreign.length > 0) {
      add(
        'warning',
        `cites ${count(foreign, 'seq')} that are not chunks of ${message.attemptId ?? 'a stream'} (${listSeqs(foreign)})`,
      )
    }
    if (uncited.length > 0) {
      add(
        'warning',
        `does not cite ${count(uncited, 'chunk')} of ${message.attemptId} (${listSeqs(uncited)})`,
      )
    }
  }
  return found
}

function streamSource(read: ChunkFileRead): { diagnostics: Diagnostic[]; sessions: Session[] } {
  if (read.chunks.length > 0)
    return { diagnostics: read.diagnostics, sessions: [buildStreamSession(read.chunks)] }
  if (!read.diagnostics.some((d) => d.severity === 'error')) {
    read.diagnostics.push({ severity: 'error', message: 'no StreamChunks in the input' })
  }
  return { diagnostics: read.diagnostics, sessions: [] }
}

function count(items: readonly unknown[], noun: string): string {
  return `${items.length} ${noun}${items.length === 1 ? '' : 's'}`
}

function listSeqs(seqs: readonly number[], max = 8): string {
  const shown = seqs.slice(0, max).join(', ')
  return seqs.length > max ? `${shown}, … ${seqs.length - max} more` : shown
}

function joinAlternatives(labels: readonly string[]): string {
  if (labels.length <= 1) return labels.join('')
  return `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`
}
