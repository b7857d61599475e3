import { DERIVED_STREAM } from '../../app/experiments/whatIf'
import type { SourcedChunk } from '../../core/protocol'
import type { RecordedMessage } from '../../core/sessionTypes'
import { derivedStream } from '../../formats/export/derivedStream'
import type { LoadedSource } from '../../formats/types'
import { useChunkscopeStore } from '../StoreContext'

/** A stream made from the selected one (minimised, a chaos variant), as a source of its own, labelled with how. */
export function derivedSourceOf(
  chunks: readonly SourcedChunk[],
  recorded: RecordedMessage | null,
  origin: { readonly name: string; readonly key: string; readonly how: string },
): LoadedSource {
  const derived = derivedStream(chunks, recorded, { from: `${origin.name} ${origin.key}`, how: origin.how })
  return {
    format: 'dsh-session-jsonl',
    name: `${origin.name} (${origin.how.split(':')[0]})`,
    diagnostics: [{ severity: 'info', message: `${origin.how} — made from ${origin.name} ${origin.key}` }],
    sessions: [derived.session],
  }
}

/** Opens such a source as the one on screen (the recording can be opened again from its file). */
export function useOpenDerived(): (source: LoadedSource) => void {
  const store = useChunkscopeStore()
  return (source) =>
    void store
      .getState()
      .actions.showSource(
        source,
        { kind: 'paste', name: source.name ?? 'stream' },
        { stream: DERIVED_STREAM },
      )
}
