import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'

const PHASE = {
  reading: 'status.reading',
  parsing: 'status.parsing',
  transferring: 'status.transferring',
  replaying: 'status.replaying',
} as const

/** Progress while loading, and the error banner when an input could not be read (what and where). */
export function StatusBar() {
  const t = useT()
  const status = useChunkscope((s) => s.status)
  const progress = useChunkscope((s) => s.progress)
  const error = useChunkscope((s) => s.error)
  const { dismissError } = useChunkscope((s) => s.actions)
  return (
    <>
      {status === 'loading' && progress !== null && (
        <div className="flex items-center gap-2 border-b border-slate-200 px-2 py-1 text-xs dark:border-slate-700">
          <span>{t(PHASE[progress.phase])}</span>
          <progress
            aria-label={t('status.progress')}
            className="h-2 w-64"
            max={progress.total || 1}
            value={progress.total ? progress.done : undefined}
          />
          {progress.total > 0 && (
            <span className="tabular-nums">{Math.round((progress.done / progress.total) * 100)}%</span>
          )}
        </div>
      )}
      {error !== null && (
        <div
          role="alert"
          className="flex items-start gap-2 border-b border-red-300 bg-red-50 px-2 py-1 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <span className="font-mono break-all">{error}</span>
          <button type="button" className="btn ml-auto shrink-0" onClick={dismissError}>
            {t('common.dismiss')}
          </button>
        </div>
      )}
    </>
  )
}
