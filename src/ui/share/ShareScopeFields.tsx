import type { ShareInput } from '../../formats/share/payload'
import { choiceWindow, clampWindowSize, WINDOW_SIZES, type ShareChoice } from './buildShareView'

type Props = {
  readonly input: ShareInput
  readonly isLog: boolean
  readonly choice: ShareChoice
  readonly onChange: (choice: ShareChoice) => void
}

const REDACTIONS = [
  { key: 'text', label: 'Text & reasoning', hint: 'every character becomes x; spaces and line breaks stay' },
  { key: 'arguments', label: 'Tool-call argument values', hint: 'keys and JSON structure stay' },
  { key: 'events', label: 'Drop non-chunk events', hint: 'keeps chunks and turn/step/retry boundaries' },
] as const

/** What to share (whole session, this attempt, a window around the cursor) and what to hide. */
export function ShareScopeFields({ input, isLog, choice, onChange }: Props) {
  const total = input.attempt.chunks.length
  const window = choiceWindow(choice, input.k, total)
  const n = (x: number) => x.toLocaleString('en')
  const events = input.source.sessions[input.sessionIndex ?? 0]?.events.length ?? 0
  const scopes = [
    ...(isLog
      ? [{ id: 'session', label: 'Whole session', detail: `${n(events)} events, every stream` } as const]
      : []),
    {
      id: 'stream',
      label: isLog ? `Only this attempt (${input.attempt.id})` : 'Whole stream',
      detail: `${n(total)} chunks`,
    } as const,
    {
      id: 'window',
      label: 'A window around the cursor',
      detail: `chunks ${n(window.from)}–${n(window.to)} of ${n(total)}, with the state before them`,
    } as const,
  ]
  return (
    <>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold">What to share</legend>
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
          <span>Window size</span>
          <input
            type="number"
            aria-label="Window size"
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
          <span className="text-slate-600 dark:text-slate-300">chunks, cursor at {n(input.k)}</span>
        </label>
      </fieldset>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold">Redact (every length is kept)</legend>
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
            <span>{option.label}</span>
            <span className="text-slate-600 dark:text-slate-300">{option.hint}</span>
          </label>
        ))}
      </fieldset>
    </>
  )
}
