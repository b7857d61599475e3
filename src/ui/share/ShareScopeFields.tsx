import type { ShareInput } from '../../formats/share/payload'
import { choiceWindow, clampWindowSize, WINDOW_SIZES, type ShareChoice } from './buildShareView'
import { useT } from '../i18n/useT'

type Props = {
  readonly input: ShareInput
  readonly isLog: boolean
  readonly choice: ShareChoice
  readonly onChange: (choice: ShareChoice) => void
}

const REDACTIONS = [
  { key: 'text', label: 'share.redactText', hint: 'share.redactTextHint' },
  { key: 'arguments', label: 'share.redactArguments', hint: 'share.redactArgumentsHint' },
  { key: 'events', label: 'share.redactEvents', hint: 'share.redactEventsHint' },
] as const

/** What to share (whole session, this attempt, a window around the cursor) and what to hide. */
export function ShareScopeFields({ input, isLog, choice, onChange }: Props) {
  const t = useT()
  const total = input.attempt.chunks.length
  const window = choiceWindow(choice, input.k, total)
  const n = (x: number) => x.toLocaleString('en')
  const events = input.source.sessions[input.sessionIndex ?? 0]?.events.length ?? 0
  const scopes = [
    ...(isLog
      ? [
          {
            id: 'session',
            label: t('share.session'),
            detail: t('share.sessionDetail', { events: n(events) }),
          } as const,
        ]
      : []),
    {
      id: 'stream',
      label: isLog ? t('share.attempt', { id: input.attempt.id }) : t('share.stream'),
      detail: t('share.chunks', { count: n(total) }),
    } as const,
    {
      id: 'window',
      label: t('share.window'),
      detail: t('share.windowDetail', { from: n(window.from), to: n(window.to), total: n(total) }),
    } as const,
  ]
  return (
    <>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold">{t('share.what')}</legend>
        {scopes.map((scope) => (
          <label key={scope.id} className="flex items-center gap-2 text-xs">
            <input
              type="radio"
              name="share-scope"
              checked={choice.scope === scope.id}
              onChange={() => onChange({ ...choice, scope: scope.id })}
            />
            <span>{scope.label}</span>
            <span className="text-slate-600 tabular-nums dark:text-slate-300">{scope.detail}</span>
          </label>
        ))}
        <label className="ml-5 flex items-center gap-2 text-xs">
          <span>{t('share.windowSize')}</span>
          <input
            type="number"
            aria-label={t('share.windowSize')}
            min={WINDOW_SIZES.min}
            max={WINDOW_SIZES.max}
            step={1}
            value={choice.windowSize}
            onChange={(event) =>
              onChange({
                ...choice,
                scope: 'window',
                windowSize: clampWindowSize(event.target.valueAsNumber),
              })
            }
            className="field w-24 tabular-nums"
          />
          <span className="text-slate-600 dark:text-slate-300">
            {t('share.windowCursor', { k: n(input.k) })}
          </span>
        </label>
      </fieldset>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold">{t('share.redact')}</legend>
        {REDACTIONS.map((option) => (
          <label key={option.key} className="flex items-center gap-2 text-xs">
            <input
              type="checkbox"
              checked={choice.redact[option.key]}
              disabled={option.key === 'events' && (!isLog || choice.scope !== 'session')}
              onChange={(event) =>
                onChange({ ...choice, redact: { ...choice.redact, [option.key]: event.target.checked } })
              }
            />
            <span>{t(option.label)}</span>
            <span className="text-slate-600 dark:text-slate-300">{t(option.hint)}</span>
          </label>
        ))}
      </fieldset>
    </>
  )
}
