import { useMemo, useState } from 'react'
import type { ChunkType } from '../../core/protocol'
import { CHUNK_STYLE } from '../chunkStyle'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import { findStream } from '../../formats/streamRefs'
import { buildLaneModel, describeLanes } from './buildLaneModel'
import { LaneCanvas } from './LaneCanvas'

/**
 * One lane per block index (first-seen order) along the chunk positions 0…N: the block's life as a bar, its deltas
 * as ticks, the freeze, implicit opens and ignored chunks; a cursor at k. Click or drag to seek.
 */
export function Lanes() {
  const engine = useChunkscope((s) => s.engine)
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  const missing = useMemo(() => {
    const cited = findStream(source, streamKey)?.attempt.recorded?.citation.missing ?? []
    return [...cited].sort((a, b) => a - b)
  }, [source, streamKey])
  const model = useMemo(() => (engine === null ? null : buildLaneModel(engine, missing)), [engine, missing])
  const label = useMemo(
    () => (engine === null || model === null ? '' : describeLanes(model, (pos) => engine.chunks[pos]?.seq)),
    [engine, model],
  )
  const [hover, setHover] = useState<{ readonly pos: number; readonly lane: number } | null>(null)

  const chunk = hover === null || engine === null ? undefined : engine.chunks[hover.pos]
  const lane = hover === null || model === null ? undefined : model.lanes[hover.lane]
  const readout =
    chunk === undefined ? null : (
      <span className="truncate font-mono text-[11px] text-slate-600 dark:text-slate-300">
        seq {chunk.seq} ·{' '}
        <span className={`rounded px-1 ${CHUNK_STYLE[chunk.chunk.type as ChunkType]?.badge ?? ''}`}>
          {chunk.chunk.type}
        </span>
        {'index' in chunk.chunk ? ` → block ${String(chunk.chunk.index)}` : ''}
        {lane === undefined ? '' : ` · lane ${lane.label}`}
      </span>
    )

  return (
    <Panel
      title="Lanes"
      className="h-full"
      actions={
        readout ?? (
          <span className="truncate text-[11px] text-slate-600 dark:text-slate-300">
            {model === null ? '' : `${model.lanes.length} block${model.lanes.length === 1 ? '' : 's'} · `}▮
            delta · ■ frozen · ▯ implicit open ·{' '}
            <span className="text-red-600 dark:text-red-400">✕ ignored</span>
            {model?.holes !== undefined && (
              <span className="text-red-600 dark:text-red-400"> · ┆ seqs missing from the log</span>
            )}
          </span>
        )
      }
    >
      {engine === null || model === null ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">Load a stream to see its blocks.</p>
      ) : model.lanes.length === 0 ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">No blocks in this stream.</p>
      ) : (
        <LaneCanvas engine={engine} model={model} label={label} onHover={setHover} />
      )}
    </Panel>
  )
}
