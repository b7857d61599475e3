import { useEffect, useRef, useState } from 'react'
import {
  openPresenterChannel,
  type NotesState,
  type PresenterChannel,
} from '../../app/teach/presenterChannel'
import { useLangSync } from '../i18n/useLangSync'
import { useT } from '../i18n/useT'

/**
 * The presenter's notes (`/?notes`, opened from the presenter view): follows the presenting window over the
 * BroadcastChannel — now, the next chunk with its narration and what it will do, the questions due — and steps it.
 */
export function NotesView() {
  useLangSync()
  const t = useT()
  const [state, setState] = useState<NotesState | null>(null)
  const supported = typeof BroadcastChannel !== 'undefined'
  const channel = useRef<PresenterChannel | null>(null)
  useEffect(() => {
    const opened = openPresenterChannel((message) => {
      if (message.type === 'state') setState(message.state)
    })
    channel.current = opened
    opened?.post({ type: 'hello' })
    return () => opened?.close()
  }, [])
  const step = (delta: number) => channel.current?.post({ type: 'step', delta })

  return (
    <main
      data-state={state === null ? 'loading' : 'idle'}
      className="min-h-screen bg-white p-6 text-lg text-slate-900 dark:bg-slate-900 dark:text-slate-100"
    >
      <h1 className="text-2xl font-semibold">{t('teach.notesTitle')}</h1>
      {!supported ? (
        <p role="alert">{t('teach.notesUnsupported')}</p>
      ) : state === null ? (
        <p>{t('teach.notesWaiting')}</p>
      ) : (
        <>
          <p className="mt-1 text-slate-600 dark:text-slate-300">
            {state.title} ·{' '}
            <output data-testid="notes-position">
              {state.k} / {state.total}
            </output>
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" className="btn" disabled={state.k === 0} onClick={() => step(-1)}>
              ◀ {t('teach.prev')}
            </button>
            <button type="button" className="btn" disabled={state.k >= state.total} onClick={() => step(1)}>
              {t('teach.next')} ▶
            </button>
          </div>
          <section aria-label={t('teach.notesNow')} className="mt-4">
            <h2 className="font-semibold">{t('teach.notesNow')}</h2>
            {state.said !== null && <p className="whitespace-pre-line">{state.said}</p>}
            <p className="text-base text-slate-700 dark:text-slate-300">{state.did}</p>
          </section>
          <section aria-label={t('teach.notesNext', { seq: state.next?.seq ?? '' })} className="mt-4">
            {state.next === null ? (
              <p>{t('teach.notesEnd')}</p>
            ) : (
              <>
                <h2 className="font-semibold">{t('teach.notesNext', { seq: state.next.seq })}</h2>
                <p className="font-mono text-base break-all">{state.next.summary}</p>
                {state.next.said !== null && <p className="whitespace-pre-line">{state.next.said}</p>}
                <p data-testid="notes-answer">{t('teach.notesWill', { answer: state.next.answer })}</p>
              </>
            )}
          </section>
          {state.questions.length > 0 && (
            <section aria-label={t('teach.questions')} className="mt-4">
              <h2 className="font-semibold">{t('teach.questions')}</h2>
              <ol className="list-decimal pl-6">
                {state.questions.map((q) => (
                  <li key={q.prompt}>
                    {q.prompt}
                    {q.answer !== null && (
                      <p className="text-base text-slate-600 dark:text-slate-300">{q.answer}</p>
                    )}
                  </li>
                ))}
              </ol>
            </section>
          )}
        </>
      )}
    </main>
  )
}
