import { AssemblyPass } from '../core/analyzeStream'
import { SessionSegmenter } from '../core/session'
import { reportAnalyzed } from '../core/streamReport'
import { isBlank } from '../formats/json'
import { loadSource } from '../formats/load'
import {
  decodeTextInput,
  isBinaryContainer,
  loadBytes,
  withDiagnostics,
  type LoadBytesOptions,
} from '../formats/loadBytes'
import { detectFormat } from '../formats/registry'
import { eventsRoom, readSessionStreams } from '../formats/sessionSource'
import { streamKey } from '../formats/streamRefs'
import type { LoadedSource } from '../formats/types'
import { buildInspectReport, type InspectReport } from './inspect'

/**
 * The source and report of `inspect` and `lint`, which print streams, findings and diagnostics but never
 * `session.events` nor a chunk: a harness session log is segmented and every chunk assembled and checked while the
 * log is read (readSessionStreams), so a 100 MB log's millions of chunks are never kept. The report is the one
 * loadBytes + buildInspectReport give: any other input, a log out of seq order, a reader that throws, or a stream
 * that differs from its recorded message (where it first differs needs its chunks) takes that way instead.
 */
export async function loadForReport(
  bytes: Uint8Array,
  name: string,
  options: LoadBytesOptions,
): Promise<{ source: LoadedSource; report: InspectReport }> {
  const full = async () => {
    const source = await loadBytes(bytes, name, options)
    return { source, report: buildInspectReport(source) }
  }
  if (isBinaryContainer(bytes)) return full()
  const { text, diagnostics } = decodeTextInput(bytes)
  if (isBlank(text) || detectFormat(text) !== 'dsh-session-jsonl') {
    const source = withDiagnostics(loadSource(text, name), diagnostics)
    return { source, report: buildInspectReport(source) }
  }
  const passes: AssemblyPass[] = []
  const segmenter = new SessionSegmenter(
    eventsRoom(text),
    (stream, chunk, seq) => (passes[stream] ??= new AssemblyPass([])).pushChunk(chunk, seq),
    (stream, run, chunkOf) => (passes[stream] ??= new AssemblyPass([])).pushRun(run, run.seq0, chunkOf),
  )
  let read: ReturnType<typeof readSessionStreams>
  try {
    read = readSessionStreams(text, segmenter)
  } catch {
    read = null
  }
  if (read === null) return full()
  const source = withDiagnostics({ format: 'dsh-session-jsonl', name, ...read }, diagnostics)
  let diverged = false
  const streams = (source.sessions[0]?.streams ?? []).map((attempt, index) => {
    const pass = (passes[index] ??= new AssemblyPass([]))
    pass.end()
    // Only `--json` lists the seqs (a 100 MB log's millions of them): the text prints their count.
    const seqs = { count: pass.pos, list: () => segmenter.seqsOf(index) }
    return reportAnalyzed(streamKey(0, attempt), attempt, pass.result(), seqs, () => {
      diverged = true
      return null
    })
  })
  return diverged ? full() : { source, report: buildInspectReport(source, streams) }
}
