import type { StreamChunk } from '../../core/protocol'

/**
 * An incremental wire → StreamChunk translator, the shape both SSE dialects share so live capture can
 * feed it a real HTTP stream event by event:
 * - `push(data)` takes one SSE event's data (the joined `data:` lines) and returns the chunks it became;
 * - `end('done' | 'eof')` closes the stream: `done` at the dialect's end marker, `eof` when the body ended first;
 * - after a finish chunk (end marker, failure) `finished` is true and further pushes return `[]`;
 * - `takeNotes()` returns (and forgets) what the last calls could not map, for diagnostics; translation never throws.
 */
export type WireTranslator = {
  /** `raw`: the event's raw lines, for a dialect whose failure messages quote them (Anthropic, as pi-ai does). */
  push(data: string, event?: string, raw?: readonly string[]): StreamChunk[]
  end(reason: 'done' | 'eof'): StreamChunk[]
  readonly finished: boolean
  takeNotes(): readonly TranslatorNote[]
}

/** Something a translator could not map, or noticed: grouped by `key` and counted by the reader. */
export type TranslatorNote = {
  readonly key: string
  readonly severity: 'error' | 'warning' | 'info'
  readonly message: string
}

export function describeParseError(data: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error)
  const shown = data.length > 60 ? `${data.slice(0, 60)}…` : data
  return `${reason} in ${JSON.stringify(shown)}`
}

/** What `takeNotes()` returns when there is nothing to say (no allocation per event). */
export const NO_NOTES: readonly TranslatorNote[] = Object.freeze([])

/** The notes a translator collects between two `takeNotes()` calls. */
export function noteBuffer(): {
  note(key: string, severity: TranslatorNote['severity'], message: string): void
  take(): readonly TranslatorNote[]
} {
  let notes: TranslatorNote[] = []
  return {
    note: (key, severity, message) => void notes.push({ key, severity, message }),
    take() {
      if (notes.length === 0) return NO_NOTES
      const taken = notes
      notes = []
      return taken
    },
  }
}

/** What a dialect's code gets from {@link makeTranslator}: notes, failures, and the end of the stream. */
export type TranslatorKit = {
  note(key: string, severity: TranslatorNote['severity'], message: string): void
  /** A failure ends the stream: its one chunk is a finish error with `code`. */
  fail(code: string, message: string): StreamChunk[]
  /** The dialect's end marker arrived (`[DONE]`, `message_stop`). */
  end(reason: 'done' | 'eof'): StreamChunk[]
}

/** A dialect: one event's data → chunks (only called before the end), and the closing chunks at the end marker. */
export type Dialect = {
  push(data: string, event?: string): StreamChunk[]
  done(): StreamChunk[]
}

/**
 * A {@link WireTranslator} around a dialect, with what every dialect shares: events after the end are ignored (and
 * noted), the end comes once, a body ending before the end marker is STREAM_CLOSED (`eofMessage`), notes are
 * collected for `takeNotes()`.
 */
export function makeTranslator(eofMessage: string, build: (kit: TranslatorKit) => Dialect): WireTranslator {
  let finished = false
  const notes = noteBuffer()
  const kit: TranslatorKit = {
    note: notes.note,
    fail: (code, message) => {
      finished = true
      return [{ type: 'finish', reason: { kind: 'error', failure: { message, code } } }]
    },
    end: (reason) => end(reason),
  }
  const dialect = build(kit)
  function end(reason: 'done' | 'eof'): StreamChunk[] {
    if (finished) return []
    if (reason === 'eof') return kit.fail('STREAM_CLOSED', eofMessage)
    finished = true
    return dialect.done()
  }
  return {
    push(data, event) {
      if (finished) {
        kit.note('after-finish', 'warning', 'event after the end of the stream: ignored')
        return []
      }
      return dialect.push(data, event)
    },
    end,
    get finished() {
      return finished
    },
    takeNotes: notes.take,
  }
}
