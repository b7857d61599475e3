import { memo } from 'react'
import type { ReplayEngine } from '../../core/ReplayEngine'
import type { ChunkType } from '../../core/protocol'
import { CHUNK_STYLE, UNKNOWN_BADGE } from '../chunkStyle'
import { ROW_RUN, ROW_RUN_HEAD, type TimelineRows } from './buildTimelineRows'
import {
  effectLabel,
  gapLabel,
  indexOf,
  missingBefore,
  payloadPreview,
  runEffectLabel,
  type Tone,
} from './describeChunk'
import type { T } from '../i18n/translate'
import './timeline.css'

export const ROW_HEIGHT = 22

/** Colour classes from timeline.css: plain class rules, so a row re-rendered during a fling matches few rules. */
const TONE: Record<Tone, string> = {
  plain: '',
  muted: 'timeline-muted',
  warning: 'timeline-warning',
  error: 'timeline-error',
}

export type RowState = 'applied' | 'current' | 'pending'

type Props = {
  readonly id: string
  readonly engine: ReplayEngine
  readonly rows: TimelineRows
  readonly missing: readonly number[]
  readonly row: number
  /** Offset from the top of the row window: the row's place in it, the same for the row element's whole life. */
  readonly top: number
  readonly state: RowState
  readonly onSeek: (row: number) => void
  readonly onToggle: (head: number) => void
  /** Given to the current row only: its ⋯ button opens the row menu (TimelineGrid), so other rows stay light. */
  readonly onActions?: ((row: number, anchor: Element) => void) | undefined
  /** The interface language's translator (a prop: rows are memoized and re-render only when it changes). */
  readonly t: T
}

/**
 * Shows a clipped cell's whole text as its tooltip once the pointer is over it (TimelineGrid calls it on
 * pointerover). Not rendered as a `title` on every cell: a fling rewrites every visible row each frame, and a
 * changed `title` makes the browser restyle its element (the stylesheet has `[title]` rules), ~40 cells a frame.
 */
export function showClippedText(target: EventTarget): void {
  const cell = target instanceof Element ? target.closest('.timeline-clip') : null
  if (cell === null) return
  const text = cell.textContent ?? ''
  if (cell.getAttribute('title') !== text) cell.setAttribute('title', text)
}

/**
 * One timeline row: a chunk, or a collapsed run of deltas standing for `spans[row]` chunks. Seven elements for a
 * plain chunk (the row and its six cells; the type cell is its own badge): a fling renders every visible row anew.
 */
export const TimelineRow = memo(function TimelineRow({
  id,
  engine,
  rows,
  missing,
  row,
  top,
  state,
  onSeek,
  onToggle,
  onActions,
  t,
}: Props) {
  const pos = rows.positions[row]!
  const kind = rows.kinds[row]
  const span = rows.spans[row]!
  const { seq, chunk } = engine.chunks.at(pos)!
  const style = CHUNK_STYLE[chunk.type as ChunkType] as (typeof CHUNK_STYLE)[ChunkType] | undefined
  const index = indexOf(chunk)
  const run = kind === ROW_RUN
  const gap = run ? { text: '', tone: 'muted' as const } : gapLabel(engine.chunks, pos)
  const hole = missingBefore(engine.chunks, pos, missing, t)
  const effect = run
    ? runEffectLabel(engine.effectAt(pos), span, t)
    : effectLabel(engine.effectAt(pos), chunk, t)
  const head = run ? pos - 1 : pos
  const payload = run
    ? t('timeline.runMore', { count: span, type: chunk.type, index: index ?? '?' })
    : payloadPreview(chunk, t)

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
      style={{ top }}
      onClick={() => onSeek(row)}
      className={`timeline-columns timeline-row ${state === 'applied' ? '' : state}`}
    >
      <td className="timeline-number timeline-dim">
        {hole !== null && (
          <abbr aria-label={hole.title} title={hole.title} className="timeline-error">
            {hole.text}
          </abbr>
        )}
        {run ? `${seq}…` : seq}
      </td>
      <td className={`timeline-number ${TONE[gap.tone]}`}>{gap.text}</td>
      <td className={`timeline-badge ${style?.badge ?? UNKNOWN_BADGE}`}>{chunk.type}</td>
      <td className="timeline-number">{index ?? ''}</td>
      {run || kind === ROW_RUN_HEAD ? (
        <td className="timeline-toggle">
          <button
            type="button"
            tabIndex={-1}
            aria-expanded={!run}
            aria-label={
              run
                ? t('timeline.expandRun', { count: span, type: chunk.type })
                : t('timeline.collapseRun', { count: span, type: chunk.type })
            }
            title={t(run ? 'timeline.expandRunTitle' : 'timeline.collapseRunTitle')}
            onClick={(event) => {
              event.stopPropagation()
              onToggle(head)
            }}
          >
            {run ? '▸' : '▾'}
          </button>
          <span className={`timeline-clip ${run ? 'timeline-run' : ''}`}>{payload}</span>
        </td>
      ) : (
        <td className="timeline-clip">{payload}</td>
      )}
      <td className={`timeline-clip ${TONE[effect.tone]}`}>
        {/* Before the text: a float goes to the right end of the line it starts. */}
        {onActions && (
          <button
            type="button"
            tabIndex={-1}
            aria-haspopup="menu"
            aria-label={t('rowMenu.button')}
            title={t('rowMenu.button')}
            className="timeline-actions"
            onClick={(event) => {
              event.stopPropagation()
              onActions(row, event.currentTarget)
            }}
          >
            ⋯
          </button>
        )}
        {effect.text}
      </td>
    </tr>
  )
})
