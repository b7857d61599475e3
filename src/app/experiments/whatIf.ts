import {
  applyEdits,
  describeEdit,
  type EditedStream,
  type EditHistory,
} from '../../core/experiments/streamEdits'
import type { Attempt } from '../../core/session'
import { derivedStream } from '../../formats/export/derivedStream'
import type { LoadedSource } from '../../formats/types'
import type { Origin } from '../store'

/** The recording a what-if session edits: what "Reset to recording" goes back to. */
export type WhatIfBase = {
  readonly source: LoadedSource
  readonly origin: Origin
  readonly streamKey: string
  readonly attempt: Attempt
  readonly name: string
}

/** The stream a derived source holds (a one-turn log: docs/protocol.md §13). */
export const DERIVED_STREAM = 't1.s1.a1'

/**
 * The edited stream as a source of its own, labelled as edited where people look: its name (toolbar, exports), an
 * info diagnostic (outline; share links carry it) and the log header's `derivedHow` (share links, the JSONL export).
 *
 * @example
 * editedSource(base, { done: [{ kind: 'drop', pos: 4 }], undone: [] }).source.name // 'session.jsonl (edited)'
 */
export function editedSource(
  base: WhatIfBase,
  history: EditHistory,
): { source: LoadedSource; edited: EditedStream } {
  const edited = applyEdits(base.attempt.chunks, history.done)
  const count = history.done.length
  const how = `edited: ${count} edit${count === 1 ? '' : 's'} (${history.done.map(describeEdit).join(', ')})`
  const derived = derivedStream(edited.chunks, base.attempt.recorded, {
    from: `${base.name} ${base.streamKey}`,
    how,
  })
  const source: LoadedSource = {
    format: 'dsh-session-jsonl',
    name: `${base.name} (edited)`,
    derived: how,
    diagnostics: [
      {
        severity: 'info',
        message: `edited stream: ${how.slice('edited: '.length)} of ${base.name} ${base.streamKey}; the recording itself is unchanged`,
      },
    ],
    sessions: [derived.session],
  }
  return { source, edited }
}
