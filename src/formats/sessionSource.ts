import { buildSession, type SessionSegmenter, type Session } from '../core/session'
import { eachLine, type ProgressHook } from './json'
import { memberChunk } from './packedRow'
import { readSessionJsonl, SessionJsonlReader } from './sessionJsonl'
import type { Diagnostic, ReadResult } from './types'

/** A harness session log (docs/protocol.md §6) as one session, with what its citations say about it. */
export function readSessionSource(text: string, onProgress?: ProgressHook): ReadResult {
  // One bar for both passes, each its share of the time (measured: reading the lines ~60%, segmenting ~40%).
  const scaled =
    (from: number, share: number): ProgressHook =>
    (done, total) =>
      onProgress?.(Math.round(text.length * (from + (share * done) / Math.max(1, total))), text.length)
  const read = readSessionJsonl(text, onProgress && scaled(0, 0.6))
  const diagnostics = read.diagnostics
  if (read.header === null && read.events.length === 0) {
    diagnostics.push({ severity: 'error', message: 'no session header and no events could be read' })
    return { diagnostics, sessions: [] }
  }
  const session = buildSession(read.header, read.events, onProgress && scaled(0.6, 0.4))
  diagnostics.push(...citationDiagnostics(session))
  return { diagnostics, sessions: [session] }
}

/**
 * {@link readSessionSource} for a caller that reads the streams, messages and diagnostics but not
 * `session.events` (`chunkscope inspect` and `lint`): each event is segmented as it is read, and the session keeps
 * only the events that are no `assistant/chunk` — those live on in their streams — so a 100 MB log never holds
 * millions of chunk events next to its streams. Everything else is what readSessionSource gives. Null when the
 * log's events are out of seq order (segmenting needs seq order, §6): read it with readSessionSource then. The
 * `segmenter`, built with a chunk hand-over, gets every chunk instead of the streams (a packed row's members as one
 * run, {@link SessionSegmenter.chunkRun}).
 */
export function readSessionStreams(text: string, segmenter: SessionSegmenter): ReadResult | null {
  let lastSeq = -Infinity
  let ordered = true
  let events = 0
  const inOrder = (seq: number): boolean => {
    events += 1
    if (seq < lastSeq) ordered = false
    lastSeq = seq
    return ordered
  }
  const reader = new SessionJsonlReader({
    event: (event) => {
      if (inOrder(event.seq)) segmenter.add(event)
    },
    member: (seq, time, turn, step, chunk) => {
      if (inOrder(seq)) segmenter.chunk(seq, time, turn, step, chunk)
    },
    // A packed row's members (§7) segmented as one run: one stream, consecutive seqs.
    members: (members) => {
      const count = members.payload.length
      events += count - 1
      if (!inOrder(members.seq0)) return
      lastSeq = members.seq0 + count - 1
      const chunkOf = (k: number) => memberChunk(members, k)
      segmenter.chunkRun(members.seq0, count, members.turn, members.step, chunkOf, members)
    },
  })
  eachLine(text, (line, number, terminated) => reader.read({ number, text: line, terminated }))
  if (!ordered) return null
  const read = reader.result()
  const diagnostics = read.diagnostics
  if (read.header === null && events === 0) {
    diagnostics.push({ severity: 'error', message: 'no session header and no events could be read' })
    return { diagnostics, sessions: [] }
  }
  const session = segmenter.session(read.header, read.events)
  diagnostics.push(...citationDiagnostics(session))
  return { diagnostics, sessions: [session] }
}

/** Room for a log's events up front: a packed member takes ~20 characters (the segmenter grows past it). */
export function eventsRoom(text: string): number {
  return text.length >> 4
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
        'has no sourceEventSeqs: unknown provenance (crash repair writes such, docs/protocol.md §6); not linked to a stream',
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

function count(items: readonly unknown[], noun: string): string {
  return `${items.length} ${noun}${items.length === 1 ? '' : 's'}`
}

function listSeqs(seqs: readonly number[], max = 8): string {
  const shown = seqs.slice(0, max).join(', ')
  return seqs.length > max ? `${shown}, … ${seqs.length - max} more` : shown
}
