import type { CaptureRow } from './captureRows'
import { useT } from '../i18n/useT'

const DOT: Record<CaptureRow['state'], string> = {
  streaming: 'bg-sky-500 motion-safe:animate-pulse',
  completed: 'bg-emerald-500',
  error: 'bg-red-500',
  aborted: 'bg-amber-500',
  interrupted: 'bg-amber-500',
}

type Props = {
  readonly rows: readonly CaptureRow[]
  /** The session index of the stream on screen: its capture's row is marked current. */
  readonly selected: number | null
  readonly onSelect: (id: string) => void
  readonly onStop: (id: string) => void
}

/** The captures, newest first: state, where from, chunks and finish; a click shows one in the workbench. */
export function CaptureList({ rows, selected, onSelect, onStop }: Props) {
  const t = useT()
  if (rows.length === 0)
    return <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('captures.none')}</p>
  return (
    <ul aria-label={t('captures.title')} className="text-xs">
      {rows.map((row) => (
        <li
          key={row.id}
          data-state={row.state}
          aria-current={row.sessionIndex === selected ? 'true' : undefined}
          className={`flex items-start gap-1.5 border-b border-slate-100 px-2 py-1 dark:border-slate-800 ${
            row.sessionIndex === selected ? 'bg-sky-50 dark:bg-sky-950/60' : ''
          }`}
        >
          <span aria-hidden className={`mt-1 inline-block size-2 shrink-0 rounded-full ${DOT[row.state]}`} />
          <button
            type="button"
            className="min-w-0 flex-1 text-left"
            title={`${row.title} — from ${row.where}`}
            onClick={() => onSelect(row.id)}
          >
            <span className="block truncate">{row.title}</span>
            <span className="block text-slate-600 tabular-nums dark:text-slate-300">
              <span className="mr-1 rounded bg-slate-200 px-1 dark:bg-slate-700">{row.kind}</span>
              {row.state} · {row.detail}
            </span>
            {row.problem !== null && (
              <span role="note" className="mt-0.5 block text-red-700 dark:text-red-400">
                {row.problem}
              </span>
            )}
          </button>
          {row.stoppable && (
            <button type="button" className="btn shrink-0" onClick={() => onStop(row.id)}>
              {t('captures.stop')}
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}
