import type { SourcedChunk } from '../../core/protocol'
import { buildSession, type Attempt, type RecordedMessage, type Session } from '../../core/session'
import type { LoadedSource } from '../types'
import { streamAsSessionLog } from './sessionJsonl'

/**
 * A stream made from another (minimised, edited, a chaos variant: docs/protocol.md §13) as a one-turn harness log
 * of its own, the recorded message carried along when there is one, so it opens, shares and exports like a file
 * and its recorded comparison still holds. The log's header names what it was made from (`derivedFrom`).
 *
 * @example
 * derivedStream(min.chunks, attempt.recorded, { from: 'session.jsonl t1.s1.a1', how: 'minimized: finding:delta-after-end' })
 */
export function derivedStream(
  chunks: readonly SourcedChunk[],
  recorded: RecordedMessage | null,
  origin: { readonly from: string; readonly how: string },
): { session: Session; attempt: Attempt } {
  const log = streamAsSessionLog(chunks, 'chunkscope-derived')
  const events = [...log.events]
  if (recorded !== null) {
    // Before step/end and turn/end, citing every chunk event (seqs 2…), as the harness writes its message (§6).
    const cited = chunks.map((_, i) => i + 2)
    const seq = events.length - 2
    const message = {
      type: 'assistant/message',
      seq,
      time: events[seq - 1]?.time ?? null,
      data: {
        turn: 1,
        step: 1,
        message: { role: 'assistant', content: recorded.content },
        ...(recorded.interrupted ? { interrupted: true } : {}),
      },
      sourceEventSeqs: cited,
      line: seq + 2,
    }
    events.splice(seq, 0, message)
    for (let i = seq + 1; i < events.length; i++) events[i] = { ...events[i]!, seq: i, line: i + 2 }
  }
  const raw = { ...log.header!.raw, derivedFrom: origin.from, derivedHow: origin.how }
  const session = buildSession({ ...log.header!, raw }, events)
  return { session, attempt: session.streams[0]! }
}

/** The derived stream as a loaded source of its own (the app opens it as a new stream). */
export function derivedSource(derived: { session: Session }, name: string): LoadedSource {
  return { format: 'dsh-session-jsonl', name, diagnostics: [], sessions: [derived.session] }
}
