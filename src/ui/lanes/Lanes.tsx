import { useCallback, useDeferredValue, useMemo, useState } from 'react'
import type { ChunkType } from '../../core/protocol'
import { CHUNK_STYLE } from '../chunkStyle'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import { findStream } from '../../formats/streamRefs'
import { buildLaneModel, describeLanes } from './buildLaneModel'
import { BrushSummary } from './BrushSummary'
import { LaneCanvas } from './LaneCanvas'
import { fullWindow, isZoomed, type LaneWindow } from './laneWindow'
import type { Brush } from './useLaneControls'
import { useT } from '../i18n/useT'

/** Streams up to this many chunks get their lanes in the render that shows them; longer ones in a deferred one. */
const SYNC_CHUNKS = 100_000

/**
 * One lane per block index (first-seen order) along the chunk positions 0…N: the block's life as a bar, its deltas
 * as ticks, the freeze, implicit opens and ignored chunks; a cursor at k. Click or drag to seek.
 */
export function Lanes() {
  const t = useT()
  const current = useChunkscope((s) => s.engine)
  const sourceNow = useChunkscope((s) => s.source)
  const keyNow = useChunkscope((s) => s.streamKey)
  // A long stream's lanes take tens of milliseconds to build: that is a deferred render of its own, after the
  // workbench is painted and usable, and until then no lanes are shown (never another stream's). A short one (a
  // live capture's, replaced on every update) builds in the same render, as the cursor moves with it.
  const deferred = useDeferredValue(current)
  const sourceDeferred = useDeferredValue(sourceNow)
  const keyDeferred = useDeferredValue(keyNow)
  const long = current !== null && current.total > SYNC_CHUNKS
  const engine = !long ? current : deferred === current ? current : null
  const source = long ? sourceDeferred : sourceNow
  const streamKey = long ? keyDeferred : keyNow
  const missing = useMemo(() => {
    const cited = findStream(source, streamKey)?.attempt.recorded?.citation.missing ?? []
    return [...cited].sort((a, b) => a - b)
  }, [source, streamKey])
  const model = useMemo(() => (engine === null ? null : buildLaneModel(engine, missing)), [engine, missing])
  const label = useMemo(
    () =>
      engine === null || model === null ? '' : describeLanes(model, (pos) => engine.chunks.at(pos)?.seq),
    [engine, model],
  )
  const [hover, setHover] = useState<{ readonly pos: number; readonly lane: number } | null>(null)
  // Zoom and brush belong to one lane model: another stream starts unzoomed and unselected.
  const [zoom, setZoom] = useState<{ readonly model: unknown; readonly window: LaneWindow } | null>(null)
  const [selection, setSelection] = useState<{ readonly model: unknown; readonly brush: Brush } | null>(null)
  const view = zoom !== null && zoom.model === model ? zoom.window : fullWindow(model?.total ?? 0)
  const brush = selection !== null && selection.model === model ? selection.brush : null
  const onWindow = useCallback((window: LaneWindow) => setZoom({ model, window }), [model])
  const onBrush = useCallback(
    (next: Brush | null) => setSelection(next === null ? null : { model, brush: next }),
    [model],
  )

  const chunk = hover === null || engine === null ? undefined : engine.chunks.at(hover.pos)
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

  // A long stream's lanes are on their way (the deferred render above): no "load a stream" note meanwhile.
  const pending = current !== null && engine === null
  return (
    <Panel
      title={t('lanes.title')}
      className="h-full"
      busy={pending}
      actions={
        (engine !== null && brush !== null ? (
          <BrushSummary engine={engine} brush={brush} onClear={() => onBrush(null)} />
        ) : null) ??
        readout ?? (
          <span className="truncate text-[11px] text-slate-600 dark:text-slate-300">
            {model === null ? '' : `${t('lanes.blocks', { count: model.lanes.length })} · `}
            {t('lanes.legend')} <span className="text-red-700 dark:text-red-400">{t('lanes.ignored')}</span>
            {model?.holes !== undefined && (
              <span className="text-red-700 dark:text-red-400"> · {t('lanes.missing')}</span>
            )}
          </span>
        )
      }
    >
      {engine === null || model === null ? (
        !pending && <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('lanes.empty')}</p>
      ) : model.lanes.length === 0 ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('lanes.none')}</p>
      ) : (
        <div className="relative h-full">
          <LaneCanvas
            engine={engine}
            model={model}
            label={label}
            window={view}
            onWindow={onWindow}
            brush={brush}
            onBrush={onBrush}
            onHover={setHover}
          />
          {isZoomed(view, model.total) && (
            <button
              type="button"
              className="btn absolute top-0 right-2 z-10 px-1 py-0 text-[10px]"
              onClick={() => onWindow(fullWindow(model.total))}
              title={t('lanes.showWhole')}
            >
              {t('lanes.resetZoom')}
            </button>
          )}
        </div>
      )}
    </Panel>
  )
}
