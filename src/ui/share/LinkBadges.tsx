import { useChunkscope } from '../StoreContext'
import { useT } from '../i18n/useT'

const BADGE = 'shrink-0 rounded border px-1 text-[11px] leading-4'

/** Beside the source name when a share link is open: the window it covers, and whether it is redacted or encrypted. */
export function LinkBadges() {
  const origin = useChunkscope((s) => s.origin)
  const t = useT()
  if (origin === null || origin.kind !== 'link') return null
  return (
    <span className="flex shrink-0 items-center gap-1">
      {origin.window !== null && (
        <span
          className={`${BADGE} border-slate-300 text-slate-600 tabular-nums dark:border-slate-600 dark:text-slate-300`}
          title={t('badge.windowHint')}
        >
          {t('badge.window', origin.window)}
        </span>
      )}
      {origin.redacted && (
        <span
          className={`${BADGE} border-violet-300 bg-violet-50 text-violet-800 dark:border-violet-700 dark:bg-violet-950 dark:text-violet-200`}
          title={t('badge.redactedHint')}
        >
          {t('badge.redacted')}
        </span>
      )}
      {origin.encrypted && (
        <span
          className={`${BADGE} border-slate-300 text-slate-600 dark:border-slate-600 dark:text-slate-300`}
        >
          {t('badge.encrypted')}
        </span>
      )}
    </span>
  )
}
