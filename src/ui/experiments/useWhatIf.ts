import { useState } from 'react'
import {
  NO_EDITS,
  redoEdit,
  undoEdit,
  withEdit,
  type ChunkEdit,
  type EditHistory,
  type EditedStream,
} from '../../core/experiments/streamEdits'
import { DERIVED_STREAM, editedSource, type WhatIfBase } from '../../app/experiments/whatIf'
import type { LoadedSource } from '../../formats/types'
import { findStream } from '../../formats/streamRefs'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'

type Session = {
  readonly base: WhatIfBase
  readonly history: EditHistory
  /** The edited source on screen; null when the edits were undone down to the recording. */
  readonly shown: LoadedSource | null
  readonly edited: EditedStream | null
}

export type WhatIf = {
  /** The session while its recording or its edited stream is on screen; null once another source is opened. */
  readonly session: Session | null
  edit(edit: ChunkEdit, cursor: number): void
  undo(): void
  redo(): void
  reset(): void
}

/**
 * What-if edits of the selected stream (docs/protocol.md §13): each edit re-opens the edited stream as a source of
 * its own (so every panel shows it, re-assembled), labelled as edited; undo, redo and reset re-open the stream the
 * history then describes, reset the recording itself at its own place.
 */
export function useWhatIf(): WhatIf {
  const store = useChunkscopeStore()
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  const [stored, setStored] = useState<Session | null>(null)
  // Another stream of the recording, or another source, starts afresh.
  const session =
    stored !== null &&
    source !== null &&
    (source === stored.shown || (source === stored.base.source && streamKey === stored.base.streamKey))
      ? stored
      : null

  const show = (base: WhatIfBase, history: EditHistory, k?: number) => {
    const { showSource } = store.getState().actions
    if (history.done.length === 0) {
      setStored({ base, history, shown: null, edited: null })
      void showSource(base.source, base.origin, { stream: base.streamKey, ...(k !== undefined ? { k } : {}) })
      return
    }
    const made = editedSource(base, history)
    setStored({ base, history, shown: made.source, edited: made.edited })
    const name = made.source.name ?? 'edited stream'
    void showSource(
      made.source,
      { kind: 'paste', name },
      { stream: DERIVED_STREAM, ...(k !== undefined ? { k } : {}) },
    )
  }
  const baseNow = (): WhatIfBase | null => {
    const state = store.getState()
    const entry = findStream(state.source, state.streamKey)
    if (state.source === null || state.origin === null || entry === null) return null
    const name = state.source.name ?? ('name' in state.origin ? state.origin.name : 'stream')
    return { source: state.source, origin: state.origin, streamKey: entry.key, attempt: entry.attempt, name }
  }
  return {
    session,
    edit(edit, cursor) {
      const base = session?.base ?? baseNow()
      if (base === null) return
      show(base, withEdit(session?.history ?? NO_EDITS, edit), cursor)
    },
    undo() {
      if (session !== null) show(session.base, undoEdit(session.history), store.getState().k)
    },
    redo() {
      if (session !== null) show(session.base, redoEdit(session.history), store.getState().k)
    },
    reset() {
      if (session !== null) show(session.base, NO_EDITS)
    },
  }
}
