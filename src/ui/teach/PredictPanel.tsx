import { useMemo, useState } from 'react'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { buildPrediction, type Outcome, type Prediction } from './buildPrediction'

type Guess = { readonly pos: number; readonly outcome: Outcome }

/**
 * "What will the next chunk do?": the choices for the chunk at the cursor; stepping past it reveals what the replay
 * says it did, beside the class's guess. Guesses live in this component only: nothing is kept or sent.
 */
export function PredictPanel() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const k = useChunkscope((s) => s.k)
  const [chosen, setGuess] = useState<Guess | null>(null)
  const next = useMemo(() => (engine === null ? null : buildPrediction(engine, k)), [engine, k])
  const last = useMemo(
    () => (engine === null || k === 0 ? null : buildPrediction(engine, k - 1)),
    [engine, k],
  )
  // A guess belongs to one chunk: it shows while that chunk is next or just applied, never elsewhere.
  const guess = chosen !== null && (chosen.pos === k || chosen.pos === k - 1) ? chosen : null
  const label = (p: Prediction, outcome: Outcome) =>
    t(`teach.outcome.${outcome}`, { index: p.index === null ? '?' : p.index })
  const revealed = last !== null && guess?.pos === last.pos ? guess : null

  return (
    <section aria-label={t('teach.predict')} className="border-b border-slate-200 p-4 dark:border-slate-700">
      {last !== null && (
        <p data-testid="predict-reveal" className="mb-3 text-lg">
          {t('teach.predictDid', { seq: last.seq, answer: label(last, last.answer) })}{' '}
          {revealed !== null &&
            (revealed.outcome === last.answer ? (
              <strong className="text-emerald-700 dark:text-emerald-300">{t('teach.predictRight')}</strong>
            ) : (
              <strong className="text-rose-700 dark:text-rose-300">
                {t('teach.predictWrong', { guess: label(last, revealed.outcome) })}
              </strong>
            ))}
        </p>
      )}
      {next === null ? (
        <p className="text-lg">{t('teach.predictEnd')}</p>
      ) : (
        <fieldset>
          <legend className="text-xl font-semibold">
            {t('teach.predictTitle', { seq: next.seq, type: next.chunkType })}
          </legend>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">{t('teach.predictHint')}</p>
          <div className="flex flex-col gap-2">
            {next.choices.map((outcome) => (
              <label
                key={outcome}
                className="flex cursor-pointer items-center gap-2 rounded border border-slate-300 px-3 py-2 text-lg has-checked:border-sky-600 has-checked:bg-sky-50 dark:border-slate-600 dark:has-checked:bg-sky-950"
              >
                <input
                  type="radio"
                  name="predict"
                  checked={guess?.pos === next.pos && guess.outcome === outcome}
                  onChange={() => setGuess({ pos: next.pos, outcome })}
                />
                {label(next, outcome)}
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </section>
  )
}
