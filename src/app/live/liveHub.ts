// Every live capture the page knows (browser captures, proxy and attach feeds) → one LoadedSource.
import { buildSession, type Session } from '../../core/session'
import type { FeedCapture, FeedRecord } from '../../formats/live/feedProtocol'
import { citationDiagnostics } from '../../formats/load'
import { SessionJsonlReader } from '../../formats/sessionJsonl'
import type { Diagnostic, LoadedSource } from '../../formats/types'

/** Where a capture was seen: this page, or the feed at this URL. */
export type CaptureOrigin = { readonly via: 'page' } | { readonly via: 'feed'; readonly url: string }

type Entry = {
  capture: FeedCapture
  readonly origin: CaptureOrigin
  header: FeedRecord | null
  /** The records read so far, in seq order without holes (header first): what the session is built from. */
  readonly records: FeedRecord[]
  /** Records past a hole, by seq, until the hole fills (a backfill and the feed may overlap or race). */
  readonly pending: Map<number, FeedRecord>
  /** The seq the next record to read must have. */
  next: number
  /** Reads the records one by one as they come (no JSONL text in between): an update costs O(new records). */
  readonly reader: SessionJsonlReader
  /** Bumped by every change; the built session is reused while it is unchanged. */
  version: number
  built: { readonly version: number; readonly session: Session; readonly diagnostics: Diagnostic[] } | null
}

export type HubCapture = {
  readonly capture: FeedCapture
  readonly origin: CaptureOrigin
  /** Its session's index in {@link LiveHub.source}. */
  readonly sessionIndex: number
}

/**
 * Holds each capture's session log as records (docs/protocol.md §6: a header record, then events by seq) and builds the
 * workbench's source from them. Records are deduplicated by seq, so a capture's backfill (`GET
 * /__chunkscope/captures/<id>`) and the live feed can overlap freely, in either order; a record without a seq is
 * the header. Only the run of seqs 0, 1, 2… without holes is shown (records past a hole wait for it), and it is read
 * record by record as it grows, so an update costs the new records plus rebuilding one session. Sessions keep the order in which their captures were first seen, so a stream's key (session index +
 * attempt id) stays valid while later captures arrive.
 */
export class LiveHub {
  private readonly entries = new Map<string, Entry>()
  private readonly listeners = new Set<() => void>()
  private cached: LoadedSource | null = null

  /** Adds or updates a capture (its state, counts, finish). */
  upsertCapture(capture: FeedCapture, origin: CaptureOrigin): void {
    const entry = this.entries.get(capture.id)
    if (entry === undefined) {
      this.entries.set(capture.id, {
        capture,
        origin,
        header: null,
        records: [],
        pending: new Map(),
        next: 0,
        reader: new SessionJsonlReader(),
        version: 0,
        built: null,
      })
    } else entry.capture = capture
    this.changed()
  }

  /** Adds records of a capture (feed, backfill, or the page's own recorder); duplicates by seq are dropped. */
  addRecords(captureId: string, records: readonly FeedRecord[]): void {
    const entry = this.entries.get(captureId)
    if (entry === undefined) return
    let added = false
    for (const record of records) {
      const seq = record['seq']
      if (typeof seq !== 'number') {
        if (record['type'] === 'session' && entry.header === null && entry.next === 0) {
          entry.header = record
          readInto(entry, record)
          added = true
        }
        continue
      }
      if (seq < entry.next || entry.pending.has(seq)) continue
      entry.pending.set(seq, record)
      for (
        let ready = entry.pending.get(entry.next);
        ready !== undefined;
        ready = entry.pending.get(entry.next)
      ) {
        // Until a header arrives, the capture's id names the session (a feed that sends none).
        if (entry.next === 0 && entry.header === null) {
          entry.header = synthesisedHeader(entry.capture)
          readInto(entry, entry.header)
        }
        entry.pending.delete(entry.next)
        readInto(entry, ready)
        entry.next += 1
        added = true
      }
    }
    if (!added) return
    entry.version += 1
    this.changed()
  }

  /** Forgets a capture (the user removed it); later sessions move up one index. */
  remove(captureId: string): void {
    if (this.entries.delete(captureId)) this.changed()
  }

  has(captureId: string): boolean {
    return this.entries.has(captureId)
  }

  get size(): number {
    return this.entries.size
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The captures, in session order (their summaries only: no session is built for this). */
  captures(): HubCapture[] {
    return [...this.entries.values()].map((entry, sessionIndex) => ({
      capture: entry.capture,
      origin: entry.origin,
      sessionIndex,
    }))
  }

  /** Every capture as one source: one session per capture. Rebuilt only for captures that changed. */
  source(): LoadedSource {
    return this.build()
  }

  /** One capture's records as session JSONL (header first, events by seq), e.g. to save it. */
  jsonl(captureId: string): string {
    const entry = this.entries.get(captureId)
    return entry === undefined ? '' : toJsonl(entry)
  }

  private changed(): void {
    this.cached = null
    for (const listener of this.listeners) listener()
  }

  private build(): LoadedSource {
    if (this.cached !== null) return this.cached
    const sessions: Session[] = []
    const diagnostics: Diagnostic[] = []
    for (const entry of this.entries.values()) {
      if (entry.built === null || entry.built.version !== entry.version) entry.built = buildEntry(entry)
      sessions.push(entry.built.session)
      diagnostics.push(...entry.built.diagnostics)
    }
    this.cached = { format: 'chunkscope-live', name: 'live captures', diagnostics, sessions }
    return this.cached
  }
}

function toJsonl(entry: Entry): string {
  let text = entry.header === null ? JSON.stringify(synthesisedHeader(entry.capture)) + '\n' : ''
  for (const record of entry.records) text += JSON.stringify(record) + '\n'
  return text
}

/** Hands one record to the capture's reader, numbered as its line in the capture's JSONL. */
function readInto(entry: Entry, record: FeedRecord): void {
  entry.records.push(record)
  entry.reader.readRecord(record, entry.records.length)
}

/** Until the header record arrives (or for a feed that sends none), the capture's id names the session. */
function synthesisedHeader(capture: FeedCapture): FeedRecord {
  return { type: 'session', version: 0, id: capture.id, createdAt: capture.startedAt, delegationDepth: 0 }
}

function buildEntry(entry: Entry): NonNullable<Entry['built']> {
  const read = entry.reader.soFar()
  const session = buildSession(read.header, read.events)
  const label = entry.capture.title || entry.capture.id
  const diagnostics = [...read.diagnostics, ...citationDiagnostics(session)].map((diagnostic) => ({
    ...diagnostic,
    message: `${label}: ${diagnostic.message}`,
  }))
  return { version: entry.version, session, diagnostics }
}
