import { lengthView, type LengthTone } from './buildShareView'
import { useT } from '../i18n/useT'

const TONE: Record<LengthTone, string> = {
  ok: 'text-emerald-700 dark:text-emerald-300',
  warn: 'text-amber-700 dark:text-amber-300',
  error: 'text-red-700 dark:text-red-300',
}

/** A link's length against the limits people paste into: a pill per limit, ✓ fits / ✕ too long. */
export function LengthMeter({ chars }: { readonly chars: number }) {
  const view = lengthView(chars)
  const t = useT()
  return (
    <div aria-label={t('share.length')} className="flex flex-wrap items-center gap-1.5 text-xs">
      <span className={`font-semibold tabular-nums ${TONE[view.tone]}`}>{view.chars}</span>
      {view.limits.map((limit) => (
        <span
          key={limit.label}
          title={t(limit.fits ? 'share.sizes.fits' : 'share.length.tooLongFor', { limit: limit.label })}
          className={`rounded border px-1.5 tabular-nums ${
            limit.fits
              ? 'border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200'
              : 'border-slate-300 bg-slate-100 text-slate-600 line-through decoration-slate-400 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-300'
          }`}
        >
          {limit.fits ? '✓' : '✕'} {limit.label} {limit.approx}
        </span>
      ))}
    </div>
  )
}
