import { useEffect, useState } from 'react'
import { useT } from '../i18n/useT'
import type { ShareInput } from '../../formats/share/payload'
import { measureShareOptions, type MeasuredOption } from '../../formats/share/shareOptions'
import { isRedacting } from '../../formats/share/redact'
import { buildSharePayload } from '../../formats/share/payload'
import { choiceOf, lengthView, suggestOption, type ShareChoice } from './buildShareView'
import { checkShare, senderViews } from './checkShare'
import { describeFidelity } from './shareFidelity'

type Props = {
  readonly input: ShareInput
  readonly choice: ShareChoice
  readonly onUse: (choice: ShareChoice) => void
}

/** Sources up to this many events (or chunks) are measured as soon as the dialog opens; bigger ones on request. */
const AUTO_MEASURE = 20_000

type Measured = {
  readonly options: MeasuredOption[]
  readonly smallest: MeasuredOption
  /** Per option id: what its opener would not see as the sender does, or null. */
  readonly warnings: ReadonlyMap<string, string | null>
}

/**
 * Every way down (whole session → this attempt → a window, each also redacted), encoded and measured, with the
 * suggestion: the largest option under the tightest limit any of them fits.
 */
export function OptionSizes({ input, choice, onUse }: Props) {
  const size = Math.max(
    input.attempt.chunks.length,
    input.source.sessions[input.sessionIndex ?? 0]?.events.length ?? 0,
  )
  const [requested, setRequested] = useState(size <= AUTO_MEASURE)
  const [measured, setMeasured] = useState<Measured | 'busy' | null>(null)
  const windowSize = choice.windowSize
  const t = useT()

  useEffect(() => {
    if (!requested) return
    let current = true
    // Each option is encoded in turn with awaits between them; the page stays responsive between options.
    const timer = window.setTimeout(() => {
      setMeasured('busy')
      void measureShareOptions(input, window.location.origin + window.location.pathname, windowSize).then(
        (result) => {
          if (!current) return
          const warnings = new Map<string, string | null>()
          const sender = senderViews(input)
          for (const option of result.options) {
            const report = checkShare(input, buildSharePayload(input, option.options), sender)
            warnings.set(option.id, report === null ? null : describeFidelity(report))
          }
          setMeasured({ ...result, warnings })
        },
        () => current && setMeasured(null),
      )
    }, 250)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [requested, input, windowSize])

  const suggestion =
    measured !== null && measured !== 'busy'
      ? suggestOption(measured.options, isRedacting(choice.redact))
      : null
  return (
    <section aria-label={t('share.sizes.title')} className="flex flex-col gap-1">
      <h3 className="text-xs font-semibold">{t('share.sizes.title')}</h3>
      {!requested && (
        <p className="flex items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
          {t('share.sizes.large')}
          <button type="button" className="btn" onClick={() => setRequested(true)}>
            {t('share.sizes.measure')}
          </button>
        </p>
      )}
      {measured === 'busy' && (
        <p className="text-xs text-slate-600 dark:text-slate-300" aria-busy="true">
          {t('share.sizes.measuring')}
        </p>
      )}
      {measured !== null && measured !== 'busy' && (
        <>
          {suggestion !== null ? (
            <p className="text-xs">
              {t('share.sizes.suggested', { option: suggestion.option.label, limit: suggestion.limit })}
            </p>
          ) : (
            <p role="alert" className="text-xs text-red-700 dark:text-red-300">
              {t('share.sizes.tooBig')}
            </p>
          )}
          <table className="w-full text-xs">
            <tbody>
              {measured.options.map((option) => (
                <SizeRow
                  key={option.id}
                  option={option}
                  suggested={option === suggestion?.option}
                  warning={measured.warnings.get(option.id) ?? null}
                  chosen={sameChoice(choiceOf(option, windowSize), choice)}
                  onUse={() => onUse(choiceOf(option, windowSize))}
                />
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  )
}

const TONE = {
  ok: 'text-emerald-700 dark:text-emerald-300',
  warn: 'text-amber-700 dark:text-amber-300',
  error: 'text-red-700 dark:text-red-300',
} as const

function sameChoice(a: ShareChoice, b: ShareChoice): boolean {
  const full = (c: ShareChoice) => c.redact.text && c.redact.arguments
  const none = (c: ShareChoice) => !isRedacting(c.redact)
  return a.scope === b.scope && ((full(a) && full(b)) || (none(a) && none(b)))
}

function SizeRow(props: {
  option: MeasuredOption
  suggested: boolean
  warning: string | null
  chosen: boolean
  onUse: () => void
}) {
  const { option, suggested, warning, chosen, onUse } = props
  const view = lengthView(option.length.chars)
  const fits = view.limits.filter((limit) => limit.fits)
  const t = useT()
  return (
    <tr className={suggested ? 'bg-sky-50 dark:bg-sky-950' : ''}>
      <td className="py-0.5 pr-2">
        {option.label}
        {suggested && (
          <span className="ml-1 text-sky-700 dark:text-sky-300">· {t('share.sizes.suggestedMark')}</span>
        )}
        {warning !== null && <span className="block text-amber-700 dark:text-amber-300">⚠ {warning}</span>}
      </td>
      <td className={`py-0.5 pr-2 text-right tabular-nums ${TONE[view.tone]}`}>
        {option.length.chars.toLocaleString('en')}
      </td>
      <td className="py-0.5 pr-2 text-slate-600 dark:text-slate-300">
        {fits.length === 0 ? t('share.sizes.tooLong') : t('share.sizes.fits', { limit: fits[0]!.label })}
      </td>
      <td className="py-0.5 text-right">
        {chosen ? (
          <span className="px-2 text-slate-600 dark:text-slate-300">{t('share.sizes.shownAbove')}</span>
        ) : (
          <button type="button" className="btn h-5" onClick={onUse}>
            {t('share.sizes.use')}
          </button>
        )}
      </td>
    </tr>
  )
}
