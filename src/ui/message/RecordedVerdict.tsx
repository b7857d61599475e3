import type { RecordedMessage } from '../../core/session'
import { describeMessageDiff } from '../blocks/buildDiff'
import { FieldDiffList } from '../blocks/DiffView'
import type { RecordedVerdict as Verdict } from './buildFinalMessage'
import { useT } from '../i18n/useT'

type Props = {
  readonly verdict: Verdict
  readonly recorded: RecordedMessage
  /** The cursor is before the end: say the verdict is for the whole stream. */
  readonly midStream: boolean
}

/** "✓ matches recorded message" or "✗ differs…" with which block and field, for the whole attempt (§6). */
export function RecordedVerdict({ verdict, recorded, midStream }: Props) {
  const t = useT()
  const interrupted = recorded.interrupted ? 'yes' : 'no'
  const where =
    recorded.source !== undefined
      ? t('verdict.whereSource', { source: recorded.source, interrupted })
      : t('verdict.where', { seq: recorded.seq, interrupted })
  const scope = midStream ? t('verdict.scope') : ''
  if (verdict.kind === 'assembly-error')
    return (
      <p className="text-xs text-red-700 dark:text-red-400">
        {t('verdict.throws', { scope, error: verdict.error, where })}
      </p>
    )
  if (verdict.diff.match)
    return (
      <p className="text-xs text-emerald-700 dark:text-emerald-400">
        {t('verdict.matches', { scope })}{' '}
        <span className="text-slate-600 dark:text-slate-300">· {where}</span>
      </p>
    )
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-red-700 dark:text-red-400">
        {t('verdict.differs', { scope })}: {describeMessageDiff(verdict.diff, 'assembled', 'recorded')}
        <span className="text-slate-600 dark:text-slate-300"> · {where}</span>
      </summary>
      <div className="mt-1 space-y-1 pl-3">
        {verdict.diff.blocks.map(({ position, fields }) => (
          <div key={position}>
            <p className="text-[11px] font-medium">{t('verdict.block', { position })}</p>
            <FieldDiffList
              fields={fields}
              before={t('verdict.assembledBlock')}
              after={t('verdict.recordedBlock')}
            />
          </div>
        ))}
      </div>
    </details>
  )
}
