import { memo } from 'react'
import { useT } from '../i18n/useT'
import type { ChunkType, SourcedChunk } from '../../core/protocol'
import type { WireTrace } from '../../core/session'
import type { Diagnostic } from '../../formats/types'
import { CHUNK_STYLE, UNKNOWN_BADGE } from '../chunkStyle'
import { SEVERITY_ICON } from '../findings/severity'
import { markHiddenChars } from '../hiddenChars'
import { indexOf, payloadPreview } from '../timeline/describeChunk'
import { explainEvent } from './explainEvent'

/** Chunks listed per pair; a JS snippet's single yield can produce thousands. */
const SHOWN_CHUNKS = 12
/** Characters of raw event text shown; the rest is in the pair's title. */
const SHOWN_RAW = 2000

export type PairState = 'applied' | 'current' | 'pending'

const STATE: Record<PairState, string> = {
  applied: 'hover:bg-slate-50 dark:hover:bg-slate-800/70',
  current:
    'bg-sky-100 shadow-[inset_3px_0_0_var(--color-sky-500)] dark:bg-sky-900/50 dark:shadow-[inset_3px_0_0_var(--color-sky-400)]',
  pending: 'italic text-slate-600 hover:bg-slate-50 dark:text-slate-300 dark:hover:bg-slate-800/70',
}

type Props = {
  /** Position in the list (the virtualizer's index, for measuring). */
  readonly index: number
  /** The pair's row in the AdapterRows. */
  readonly row: number
  readonly trace: WireTrace
  readonly chunks: readonly SourcedChunk[]
  /** Wire event index, or -1 for chunks no event produced. */
  readonly event: number
  readonly from: number
  readonly to: number
  readonly state: PairState
  readonly notes: readonly Diagnostic[] | undefined
  /** The first event carrying a `finish_reason` (`AdapterRows.finishReasonAt`): deltas after it are flagged. */
  readonly finishReasonAt: number
  readonly onSeek: (row: number) => void
  readonly measure: (el: HTMLElement | null) => void
  readonly top: number
}

/** One raw wire event | the chunk rows it became. */
export const AdapterPair = memo(function AdapterPair(props: Props) {
  const { index, row, trace, chunks, event, from, to, state, notes, finishReasonAt, onSeek, measure, top } =
    props
  const t = useT()
  const raw = event < 0 ? null : trace.text.slice(trace.start[event]!, trace.end[event]!)
  const shown = Math.min(to, from + SHOWN_CHUNKS)
  // Worked out here, per laid-out pair, so the memo holds while the cursor moves (one small JSON.parse per pair).
  const explanation = event < 0 ? null : explainEvent(trace, event, chunks, finishReasonAt, t)
  const lines = []
  for (let pos = from; pos < shown; pos++) {
    const chunk = chunks[pos]!.chunk
    const style = CHUNK_STYLE[chunk.type as ChunkType] as (typeof CHUNK_STYLE)[ChunkType] | undefined
    const blockIndex = indexOf(chunk)
    lines.push(
      <div key={pos} className="flex min-w-0 items-center gap-1.5 leading-4">
        <span className="w-10 shrink-0 text-right text-slate-600 tabular-nums dark:text-slate-400">
          #{pos}
        </span>
        <span className={`shrink-0 rounded px-1 ${style?.badge ?? UNKNOWN_BADGE}`}>{chunk.type}</span>
        <span className="w-4 shrink-0 text-right text-slate-600 tabular-nums dark:text-slate-300">
          {blockIndex ?? ''}
        </span>
        <span className="min-w-0 truncate">{payloadPreview(chunk, t)}</span>
      </div>,
    )
  }
  return (
    // Keyboard users step with the transport keys (the current pair follows); a click seeks like a timeline row.
    // oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <li
      ref={measure}
      data-index={index}
      data-event={event}
      data-state={state}
      aria-current={state === 'current' ? 'step' : undefined}
      onClick={() => onSeek(row)}
      style={{ transform: `translateY(${top}px)` }}
      className={`absolute inset-x-0 top-0 grid cursor-pointer grid-cols-[minmax(0,1fr)_minmax(0,1fr)] gap-x-3 border-b border-slate-100 px-2 py-1 font-mono text-xs dark:border-slate-800 ${STATE[state]}`}
    >
      <div className="min-w-0">
        {raw === null ? (
          <span className="text-slate-600 italic dark:text-slate-400">{t('adapter.synthesised')}</span>
        ) : (
          <>
            <span className="mr-1.5 text-[10px] text-slate-600 tabular-nums dark:text-slate-400">
              L{trace.line[event]}
            </span>
            <span
              title={raw.length > SHOWN_RAW ? raw.slice(0, 20000) : undefined}
              className="break-all whitespace-pre-wrap text-slate-700 dark:text-slate-300"
            >
              {markHiddenChars(raw.length > SHOWN_RAW ? `${raw.slice(0, SHOWN_RAW)}…` : raw)}
            </span>
          </>
        )}
        {notes?.map((note, i) => (
          <div key={i} className={`mt-0.5 font-sans text-[11px] ${SEVERITY_ICON[note.severity].color}`}>
            <span aria-hidden>{SEVERITY_ICON[note.severity].icon}</span> {markHiddenChars(note.message)}
          </div>
        ))}
      </div>
      <div className="min-w-0">
        {to === from ? (
          <span className="text-slate-600 dark:text-slate-400">
            —{' '}
            {explanation === null ? t('adapter.noChunk') : t('adapter.noChunkWhy', { why: explanation.text })}
          </span>
        ) : (
          lines
        )}
        {to > from && explanation !== null && (
          <div
            data-flag={explanation.kind}
            className={`mt-0.5 font-sans text-[11px] ${SEVERITY_ICON.warning.color}`}
          >
            <span aria-hidden>{SEVERITY_ICON.warning.icon}</span> {explanation.text}
          </div>
        )}
        {to > shown && (
          <div className="text-slate-600 dark:text-slate-400">
            {t('adapter.moreChunks', { count: to - shown })}
          </div>
        )}
      </div>
    </li>
  )
})
