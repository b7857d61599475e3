import { memo } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import type { ChunkType } from '../../core/protocol'
import { CHUNK_STYLE, UNKNOWN_BADGE } from '../chunkStyle'
import { ROW_RUN, ROW_RUN_HEAD, type TimelineRows } from './buildTimelineRows'
import { effectLabel, gapLabel, indexOf, payloadPreview, runEffectLabel, type Tone } from './describeChunk'

export const ROW_HEIGHT = 22
/** seq · Δt · type · index · payload · effect; the header uses the same template. */
export const COLUMNS = 'grid grid-cols-[3.5rem_3.75rem_7.5rem_2rem_minmax(0,1fr)_11rem] gap-x-2 px-2'

export const TONE: Record<Tone, string> = {
  plain: '',
  muted: 'text-slate-400 dark:text-slate-500',
  warning: 'text-amber-600 dark:text-amber-400',
  error: 'text-red-600 dark:text-red-400',
}

export type RowState = 'applied' | 'current' | 'pending'

const STATE: Record<RowState, string> = {
  applied: 'hover:bg-slate-100 dark:hover:bg-slate-800',
  current:
    'bg-sky-100 shadow-[inset_3px_0_0_var(--color-sky-500)] dark:bg-sky-900/50 dark:shadow-[inset_3px_0_0_var(--color-sky-400)]',
  pending: 'opacity-45 hover:bg-slate-100 hover:opacity-80 dark:hover:bg-slate-800',
}

type Props = {
  readonly id: string
  readonly engine: ReplayEngine
  readonly rows: TimelineRows
  readonly row: number
  readonly top: number
  readonly state: RowState
  readonly onSeek: (row: number) => void
  readonly onToggle: (head: number) => void
}

/** One timeline row: a chunk, or a collapsed run of deltas standing for `spans[row]` chunks. */
export const TimelineRow = memo(function TimelineRow({
  id,
  engine,
  rows,
  row,
  top,
  state,
  onSeek,
  onToggle,
}: Props) {
  const pos = rows.positions[row]!
  const kind = rows.kinds[row]
  const span = rows.spans[row]!
  const { seq, chunk } = engine.chunks[pos]!
  const style = CHUNK_STYLE[chunk.type as ChunkType] as (typeof CHUNK_STYLE)[ChunkType] | undefined
  const index = indexOf(chunk)
  const run = kind === ROW_RUN
  const gap = run ? { text: '', tone: 'muted' as const } : gapLabel(engine.chunks, pos)
  const effect = run ? runEffectLabel(engine.effectAt(pos), span) : effectLabel(engine.effectAt(pos), chunk)
  const head = run ? pos - 1 : pos
  const payload = run ? `… ${span} more ${chunk.type}, block ${index ?? '?'}` : payloadPreview(chunk)

  return (
    // Keyboard access is on the grid (arrows move the cursor row by row, Enter toggles a run): see TimelineGrid.
    // oxlint-disable-next-line jsx-a11y/click-events-have-key-events
    <tr
      id={id}
      aria-rowindex={row + 2}
      aria-current={state === 'current' ? 'step' : undefined}
      data-pos={pos}
      data-state={state}
      data-run={run ? span : undefined}
      onClick={() => onSeek(row)}
      style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)` }}
      className={`${COLUMNS} absolute inset-x-0 top-0 cursor-pointer items-center font-mono text-xs whitespace-nowrap ${STATE[state]}`}
    >
      <td className="text-right text-slate-500 tabular-nums dark:text-slate-400">{run ? `${seq}…` : seq}</td>
      <td className={`text-right tabular-nums ${TONE[gap.tone]}`}>{gap.text}</td>
      <td className="min-w-0">
        <span
          className={`inline-block max-w-full truncate rounded px-1 leading-4 ${style?.badge ?? UNKNOWN_BADGE}`}
        >
          {chunk.type}
        </span>
      </td>
      <td className="text-right tabular-nums">{index ?? ''}</td>
      <td className="flex min-w-0 items-center gap-1">
        {run || kind === ROW_RUN_HEAD ? (
          <button
            type="button"
            tabIndex={-1}
            aria-expanded={!run}
            aria-label={run ? `Expand ${span} more ${chunk.type}` : `Collapse run of ${span} ${chunk.type}`}
            title={run ? 'Expand this run (Enter)' : 'Collapse this run (Enter)'}
            className="shrink-0 rounded px-0.5 leading-4 text-slate-500 hover:bg-slate-200 dark:hover:bg-slate-700"
            onClick={(event) => {
              event.stopPropagation()
              onToggle(head)
            }}
          >
            {run ? '▸' : '▾'}
          </button>
        ) : null}
        <span
          className={`truncate ${run ? 'text-slate-500 italic dark:text-slate-400' : ''}`}
          title={payload}
        >
          {payload}
        </span>
      </td>
      <td className={`truncate ${TONE[effect.tone]}`} title={effect.text}>
        {effect.text}
      </td>
    </tr>
  )
})
