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
// Chaos re-chunking of a raw body, read as the harness's adapter reads it (docs/protocol.md §13).
export { WIRE_SPLITS, wireChaos } from '../formats/sse/wireChaos'
export type { WireChaosReport, WireSplitKind, WireVariant } from '../formats/sse/wireChaos'
export { chunksOfReads, harnessPipeline } from '../formats/sse/wireReads'
export type { WirePipeline, WireReader } from '../formats/sse/wireReads'
export { derivedStream } from '../formats/export/derivedStream'
