import { readBedrockEventStream, readConverseEvents, sniffConverseEvents } from './bedrock/readBedrock'
import { isEventStream } from './bedrock/eventFrames'
import { chunkFileSource, readChunkJson, readChunkNdjson } from './chunkFiles'
import {
  readSqliteContainer,
  readZipContainer,
  readZstdContainer,
  type ContainerContext,
  type ContainerRead,
} from './containers'
import { sniffChunkJson, sniffChunkNdjson, sniffSessionJsonl } from './detect'
import { looksLikeEventStreamText } from './bedrock/textFrames'
import { readEventStreamText } from './har/harEventStream'
import { readHar } from './har/readHar'
import { readTraceExport, sniffTraceExport } from './reference/traceReference'
import { sniffHar } from './har/sniffHar'
import type { ProgressHook } from './json'
import { readLessonSource, sniffLesson } from './lesson/readLesson'
import { readLiveRecording, sniffLiveRecording } from './live/liveRecording'
import { readSessionSource } from './sessionSource'
import { readSimplifiedSource, sniffSimplified } from './simplified/simplified'
import { readSnippetSource, sniffSnippet } from './snippet/readSnippet'
import { headerlessPageSize } from './sqlitePages'
import { isSqlite } from './sqliteStore'
import { readHttpErrorBody, sniffHttpErrorBody } from './sse/httpErrorBody'
import { readSseSource } from './sse/readSse'
import { sniffSseDialect } from './sse/sniff'
import { sniffGeminiJsonArray } from './sse/geminiJsonArray'
import { readGeminiJsonArray } from './sse/geminiJsonRead'
import type { ReadResult } from './types'
import { WIRE_FORMATS } from './wire/wireFormats'
import { isZip } from './zipArchive'
import { isZstd } from './zstdFrames'

type Described = {
  readonly id: string
  /** Short, for the toolbar and the status line: "Harness session log". */
  readonly label: string
  /** For messages ("expected a DeepSeek Harness session log, … or …", "internal error while reading …"). */
  readonly description: string
}

/** A format read from text: `sniff` looks at the first lines only, never the whole text. */
export type TextFormat = Described & {
  readonly input: 'text'
  readonly sniff: (text: string) => boolean
  /** `onProgress`: how far into the text the reader is (line-based readers report; others may not). */
  readonly read: (text: string, onProgress?: ProgressHook) => ReadResult
}

/** A binary container, recognised by its first bytes before any text decoding. */
export type BytesFormat = Described & {
  readonly input: 'bytes'
  readonly sniff: (bytes: Uint8Array) => boolean
  readonly read: (bytes: Uint8Array, context: ContainerContext) => Promise<ContainerRead>
}

/** A source that is not read from a file at all (the live captures). */
export type OtherFormat = Described & { readonly input: 'none' }

export type FormatEntry = TextFormat | BytesFormat | OtherFormat

/**
 * A format that is recognised but not read: its reader answers with one error saying why and what to do instead,
 * so the user learns what the file is rather than "unrecognised format".
 *
 * @example
 * { id: 'gzip', label: 'gzip', description: 'a gzip file', input: 'bytes', sniff: isGzip,
 *   read: async () => refuse('gzip: decompress it first (gunzip file.gz), then open the result') }
 */
export function refuse(message: string): ReadResult {
  return { sessions: [], diagnostics: [{ severity: 'error', message }] }
}

/**
 * Every format Chunkscope knows, one entry each: adding a format is one entry here plus its reader. Binary
 * containers are tried first, by their magic bytes; then the text formats, most specific first (the first whose
 * sniff accepts the text reads it).
 */
export const FORMATS = [
  {
    id: 'dsh-session-zstd',
    label: 'Harness session log (zstd)',
    description: "the harness's zstd-compressed session log (session.jsonl.zstd)",
    input: 'bytes',
    sniff: isZstd,
    read: readZstdContainer,
  },
  {
    id: 'dsh-session-zip',
    label: 'Harness session archive (zip)',
    description: "the harness web UI's session export (dsh-session-<id>.zip)",
    input: 'bytes',
    sniff: isZip,
    read: readZipContainer,
  },
  {
    id: 'dsh-sqlite',
    label: 'Harness session store (SQLite)',
    description: "the harness's SQLite session store",
    input: 'bytes',
    // A store whose first page (header, schema) is destroyed is still recognised by its pages (§8).
    sniff: (bytes) => isSqlite(bytes) || headerlessPageSize(bytes) !== null,
    read: readSqliteContainer,
  },
  {
    // Binary frames, recognised by their length prelude (docs/protocol.md §9.4).
    id: 'bedrock-eventstream',
    label: 'Bedrock ConverseStream',
    description: 'an AWS Bedrock ConverseStream body (application/vnd.amazon.eventstream)',
    input: 'bytes',
    sniff: isEventStream,
    read: readBedrockEventStream,
  },
  {
    // First of the text formats: a JSON lesson may carry a "log" (HAR's key) and a Markdown one any stream.
    id: 'chunkscope-lesson',
    label: 'Lesson',
    description: 'a Chunkscope lesson (JSON or Markdown)',
    input: 'text',
    sniff: sniffLesson,
    read: readLessonSource,
  },
  {
    id: 'har',
    label: 'HAR capture',
    description: 'a HAR file (browser devtools export)',
    input: 'text',
    sniff: sniffHar,
    read: readHar,
  },
  {
    // Before the other JSON arrays (docs/protocol.md §9.3, "Without alt=sse").
    id: 'gemini-json-stream',
    label: 'Gemini stream (JSON array)',
    description: 'a Google Gemini streamGenerateContent body without alt=sse (a JSON array)',
    input: 'text',
    sniff: sniffGeminiJsonArray,
    read: readGeminiJsonArray,
  },
  {
    // Before the chunk formats: a Phoenix export is a JSON array too (docs/protocol.md §9, "A reference final").
    id: 'trace-reference',
    label: 'Trace export (reference final)',
    description: 'an OTLP / Langfuse / Phoenix trace export holding gen_ai.output.messages',
    input: 'text',
    sniff: sniffTraceExport,
    read: readTraceExport,
  },
  {
    id: 'dsh-live-recording',
    label: 'Harness live recording',
    description: "a recording of the harness's live WebSocket (server-request frames)",
    input: 'text',
    sniff: sniffLiveRecording,
    read: readLiveRecording,
  },
  {
    id: 'dsh-session-jsonl',
    label: 'Harness session log',
    description: 'a DeepSeek Harness session log',
    input: 'text',
    sniff: sniffSessionJsonl,
    read: readSessionSource,
  },
  {
    // Before the simplified stream, whose `{type:'error', error}` chunk an Anthropic error body resembles.
    id: 'http-error-body',
    label: 'HTTP error body (no status line)',
    description: 'an HTTP error body saved without its status line (JSON error or HTML page)',
    input: 'text',
    sniff: sniffHttpErrorBody,
    read: readHttpErrorBody,
  },
  {
    // Before chunk-json: a JSON array of simplified chunks also starts with `[`.
    id: 'simplified-stream',
    label: 'Simplified stream',
    description: "the seed tutorial's simplified stream (text / tool_call / done)",
    input: 'text',
    sniff: sniffSimplified,
    read: readSimplifiedSource,
  },
  {
    id: 'chunk-json',
    label: 'Chunks (JSON array)',
    description: 'a JSON array of StreamChunks',
    input: 'text',
    sniff: sniffChunkJson,
    read: (text) => chunkFileSource(readChunkJson(text)),
  },
  {
    id: 'chunk-ndjson',
    label: 'Chunks (NDJSON)',
    description: 'NDJSON of StreamChunks',
    input: 'text',
    sniff: sniffChunkNdjson,
    read: (text, onProgress) => chunkFileSource(readChunkNdjson(text, onProgress)),
  },
  {
    id: 'bedrock-converse-events',
    label: 'Bedrock ConverseStream events',
    description: 'AWS Bedrock ConverseStream events (decoded from their frames)',
    input: 'text',
    sniff: sniffConverseEvents,
    read: readConverseEvents,
  },
  {
    // Its binary framing decoded to text, CRCs unverifiable (docs/protocol.md §9.4, "Saved as text").
    id: 'bedrock-eventstream-text',
    label: 'Bedrock ConverseStream (saved as text)',
    description: 'an AWS Bedrock event stream saved as text',
    input: 'text',
    sniff: looksLikeEventStreamText,
    read: readEventStreamText,
  },
  // Wires without a harness route (docs/protocol.md §9): before the SSE dialects, whose bodies look alike.
  ...WIRE_FORMATS,
  {
    id: 'openai-sse',
    label: 'OpenAI-compatible SSE',
    description: 'a DeepSeek / OpenAI-compatible SSE body',
    input: 'text',
    sniff: (text) => sniffSseDialect(text) === 'openai-sse',
    read: (text) => readSseSource(text, 'openai-sse'),
  },
  {
    id: 'anthropic-sse',
    label: 'Anthropic SSE',
    description: 'an Anthropic Messages SSE body',
    input: 'text',
    sniff: (text) => sniffSseDialect(text) === 'anthropic-sse',
    read: (text) => readSseSource(text, 'anthropic-sse'),
  },
  {
    id: 'openai-responses-sse',
    label: 'OpenAI Responses SSE',
    description: 'an OpenAI Responses API SSE body',
    input: 'text',
    sniff: (text) => sniffSseDialect(text) === 'openai-responses-sse',
    read: (text) => readSseSource(text, 'openai-responses-sse'),
  },
  {
    id: 'gemini-sse',
    label: 'Gemini SSE',
    description: 'a Google Gemini streamGenerateContent SSE body',
    input: 'text',
    sniff: (text) => sniffSseDialect(text) === 'gemini-sse',
    read: (text) => readSseSource(text, 'gemini-sse'),
  },
  {
    // Last: code is recognised only when no data format fits.
    id: 'js-snippet',
    label: 'JS/TS snippet',
    description: 'a JavaScript/TypeScript snippet that yields chunk literals',
    input: 'text',
    sniff: sniffSnippet,
    read: readSnippetSource,
  },
  {
    id: 'chunkscope-live',
    label: 'Live captures',
    description: 'the live captures of this page and its feeds',
    input: 'none',
  },
] as const satisfies readonly FormatEntry[]

/** Input formats Chunkscope reads; detected from content, never from the file name. */
export type FormatId = (typeof FORMATS)[number]['id']

type Entry = (typeof FORMATS)[number]

/** A readable name for each format, for the toolbar and the status line (the id stays in tooltips). */
export const FORMAT_LABELS = Object.fromEntries(FORMATS.map((f) => [f.id, f.label])) as Record<
  FormatId,
  string
>

/** The text formats, in the order they are tried. */
export const TEXT_FORMATS = FORMATS.filter((f): f is Extract<Entry, { input: 'text' }> => f.input === 'text')

/** The binary containers, in the order they are tried. */
export const BYTES_FORMATS = FORMATS.filter(
  (f): f is Extract<Entry, { input: 'bytes' }> => f.input === 'bytes',
)

/**
 * Which text format a text is in, from its content (never its file name); null when none fits.
 *
 * @example
 * detectFormat('{"type":"session","version":0,…}\n…') // 'dsh-session-jsonl'
 * detectFormat('[{"type":"text-delta","index":0,"text":"hi"}]') // 'chunk-json'
 */
export function detectFormat(text: string): FormatId | null {
  return TEXT_FORMATS.find((format) => format.sniff(text))?.id ?? null
}
