import { useMemo, useState } from 'react'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { lessonText, questionsAt } from './buildNarration'

/** The lesson's questions due at the cursor (after their seq; the rest at the end), each answer shown on request. */
export function QuestionsPanel() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const k = useChunkscope((s) => s.k)
  const lesson = useChunkscope((s) => s.source?.lesson)
  const streamKey = useChunkscope((s) => s.streamKey)
  const lang = useChunkscope((s) => s.lang)
  const questions = useMemo(
    () => (engine === null ? [] : questionsAt(engine, k, lesson, streamKey)),
    [engine, k, lesson, streamKey],
  )
  if (questions.length === 0) return null
  return (
    <section aria-label={t('teach.questions')} className="p-4">
      <h2 className="mb-2 text-xl font-semibold">{t('teach.questions')}</h2>
      <ol className="flex list-decimal flex-col gap-3 pl-6">
        {questions.map((question) => (
          <Question
            key={`${k}:${lessonText(question.prompt, 'en')}`}
            prompt={lessonText(question.prompt, lang)}
            answer={question.answer === null ? null : lessonText(question.answer, lang)}
          />
        ))}
      </ol>
    </section>
  )
}

function Question({ prompt, answer }: { readonly prompt: string; readonly answer: string | null }) {
  const t = useT()
  const [shown, setShown] = useState(false)
  return (
    <li className="text-lg">
      <p className="font-medium">{prompt}</p>
      {answer === null ? (
        <p className="text-base text-slate-600 dark:text-slate-300">{t('teach.openQuestion')}</p>
      ) : shown ? (
        <p className="mt-1 rounded bg-emerald-50 px-2 py-1 dark:bg-emerald-950">{answer}</p>
      ) : (
        <button type="button" className="btn mt-1" onClick={() => setShown(true)}>
          {t('teach.showAnswer')}
        </button>
      )}
    </li>
  )
}
