// `chunkscope/formats`: every input the app reads (harness session logs, zstd, zip, SQLite, SSE, HAR, chunk files)
// into one LoadedSource, and the share-link codec. No React, DOM or Node APIs.
export { loadSource } from '../formats/load'
export { detectFormat, FORMAT_LABELS, FORMATS } from '../formats/registry'
export type { FormatEntry } from '../formats/registry'
export { loadBytes, isBinaryContainer } from '../formats/loadBytes'
export type { LoadBytesOptions } from '../formats/loadBytes'
export type { Diagnostic, FormatId, LoadedSource } from '../formats/types'
export { readSseStream, createTranslator } from '../formats/sse/readSse'
export type { SseDialect, SseRead } from '../formats/sse/readSse'
export type { WireTranslator } from '../formats/sse/translator'
export {
  decodeShareLink,
  encodeShareLink,
  inspectShareLink,
  isShareFragment,
} from '../formats/share/shareLink'
export { buildSharePayload, openSharePayload, sessionFromRecords } from '../formats/share/payload'
export type { SharePayload } from '../formats/share/payload'
export { toVitestFile } from '../formats/export/vitest'
export { SessionRecorder } from '../formats/capture/sessionRecorder'
export type { RecordSink, RecorderOptions } from '../formats/capture/sessionRecorder'
