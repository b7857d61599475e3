import { useMemo } from 'react'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { buildNarration } from './buildNarration'

/**
 * The presenter's narration: the lesson's words for the chunk just applied, large, and beneath them what the
 * assembler did and why. A polite live region, so a screen reader reads each step as the class sees it.
 */
export function NarrationPanel() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const frame = useChunkscope((s) => s.frame)
  const lesson = useChunkscope((s) => s.source?.lesson)
  const streamKey = useChunkscope((s) => s.streamKey)
  const lang = useChunkscope((s) => s.lang)
  const narration = useMemo(
    () => (engine === null || frame === null ? null : buildNarration(engine, frame, lesson, streamKey, lang)),
    [engine, frame, lesson, streamKey, lang],
  )
  const atStart = frame !== null && frame.last === null && frame.total > 0
  return (
    <section
      aria-label={t('teach.narration')}
      aria-live="polite"
      className="shrink-0 border-b border-slate-200 bg-sky-50 px-6 py-4 dark:border-slate-700 dark:bg-slate-950"
    >
      {narration?.said != null && (
        <p data-testid="lesson-narration" className="text-2xl leading-snug font-medium whitespace-pre-line">
          {narration.said}
        </p>
      )}
      <p
        data-testid="engine-narration"
        className={
          narration?.said != null
            ? 'mt-2 text-lg text-slate-700 dark:text-slate-300'
            : 'text-2xl leading-snug'
        }
      >
        {atStart ? t('teach.start') : (narration?.did ?? '')}
      </p>
    </section>
  )
}
