import { useRef, useState } from 'react'
import { startExperiment, type RunningExperiment } from '../../app/experiments/experimentClient'
import { parseKeep } from '../../core/experiments/keep'
import type { MinimizeResult } from '../../core/experiments/minimize'
import { exportStream } from '../../formats/export/index'
import { derivedStream } from '../../formats/export/derivedStream'
import { downloadText } from '../share/download'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { useCurrentStream } from './useCurrentStream'
import { derivedSourceOf, useOpenDerived } from './useOpenDerived'

const BUTTON =
  'rounded border border-slate-300 px-1.5 py-0.5 text-xs hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800'

type Run = { readonly steps: number; readonly size: number } | null

/** Delta debugging in a worker: the stream shrinks to a 1-minimal one that keeps the chosen property. */
export function MinimizeTab() {
  const t = useT()
  const entry = useCurrentStream()
  const engine = useChunkscope((s) => s.engine)
  const name = useChunkscope((s) => s.source?.name ?? 'stream')
  const open = useOpenDerived()
  const fired = [...new Set((engine?.findings ?? []).map((f) => f.rule))]
  const choices = [
    ...(entry?.attempt.recorded ? ['recorded-mismatch'] : []),
    'throws',
    ...fired.filter((r) => r !== 'recorded-mismatch').map((r) => `finding:${r}`),
    'text:',
  ]
  const [choice, setChoice] = useState(choices[0] ?? 'throws')
  const [text, setText] = useState('')
  const [progress, setProgress] = useState<Run>(null)
  const [outcome, setOutcome] = useState<{ result: MinimizeResult; from: string } | string | null>(null)
  const running = useRef<RunningExperiment | null>(null)
  if (entry === null)
    return <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('minimize.empty')}</p>
  const spec = choice === 'text:' ? `text:${text}` : choice
  const property = parseKeep(spec)

  const start = () => {
    if (typeof property === 'string') return
    setOutcome(null)
    setProgress({ steps: 0, size: entry.attempt.chunks.length })
    const from = `${name} ${entry.key}`
    const run = startExperiment(
      { kind: 'minimize', chunks: entry.attempt.chunks, recorded: entry.attempt.recorded, property },
      setProgress,
    )
    running.current = run
    void run.done.then((message) => {
      if (running.current !== run) return
      running.current = null
      setProgress(null)
      if (message.type === 'minimized')
        setOutcome(typeof message.result === 'string' ? message.result : { result: message.result, from })
      else if (message.type === 'failed') setOutcome(t('minimize.stopped', { message: message.message }))
      else setOutcome(t('minimize.cancelled'))
    })
  }
  const done = typeof outcome === 'object' && outcome !== null ? outcome : null
  const made = () =>
    derivedSourceOf(done!.result.chunks, entry.attempt.recorded, {
      name,
      key: entry.key,
      how: `minimized: ${done!.result.property}`,
    })
  return (
    <div className="flex flex-col gap-2 p-2 text-xs">
      <div className="flex flex-wrap items-center gap-1">
        <label className="flex items-center gap-1">
          {t('minimize.keep')}
          <select
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            className="rounded border border-slate-300 dark:border-slate-600 dark:bg-slate-800"
          >
            {choices.map((c) => (
              <option key={c} value={c}>
                {c === 'text:' ? t('minimize.textContains') : c}
              </option>
            ))}
          </select>
        </label>
        {choice === 'text:' && (
          <input
            aria-label={t('minimize.textToKeep')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="rounded border border-slate-300 px-1 dark:border-slate-600 dark:bg-slate-800"
          />
        )}
        {progress === null ? (
          <button type="button" className={BUTTON} disabled={typeof property === 'string'} onClick={start}>
            {t('minimize.run')}
          </button>
        ) : (
          <button type="button" className={BUTTON} onClick={() => running.current?.cancel()}>
            {t('minimize.cancel')}
          </button>
        )}
      </div>
      {typeof property === 'string' && choice === 'text:' && text !== '' && <p role="alert">{property}</p>}
      <p aria-live="polite" data-testid="minimize-status">
        {progress !== null
          ? t('minimize.progress', { steps: progress.steps, size: progress.size })
          : typeof outcome === 'string'
            ? outcome
            : done !== null
              ? t('minimize.done', {
                  before: done.result.before,
                  after: done.result.chunks.length,
                  property: done.result.property,
                  steps: done.result.steps,
                })
              : ''}
      </p>
      {done !== null && (
        <div className="flex gap-1">
          <button type="button" className={BUTTON} onClick={() => open(made())}>
            {t('minimize.open')}
          </button>
          <button
            type="button"
            className={BUTTON}
            onClick={() => {
              const derived = derivedStream(done.result.chunks, entry.attempt.recorded, {
                from: done.from,
                how: `minimized: ${done.result.property}`,
              })
              const format =
                entry.attempt.recorded !== null && done.result.property === 'recorded-mismatch'
                  ? 'vitest-recorded'
                  : 'vitest'
              const file = exportStream({ ...derived, name: `${name.replace(/\.[^.]*$/, '')}-min` }, format)
              downloadText(file.text, file.fileName, file.mediaType)
            }}
          >
            {t('minimize.export')}
          </button>
        </div>
      )}
    </div>
  )
}
