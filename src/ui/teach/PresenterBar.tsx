import { useState } from 'react'
import { NOTES_PARAM } from '../../app/teach/presenterChannel'
import { FONT_SCALES } from '../../app/slices/viewSlice'
import { lessonToWebVtt } from '../../formats/export/webvtt'
import { findStream } from '../../formats/streamRefs'
import { LangSwitch } from '../i18n/LangSwitch'
import { useT } from '../i18n/useT'
import { ThemeSwitch } from '../loading/ThemeSwitch'
import { downloadText } from '../share/download'
import { useChunkscope, useChunkscopeStore } from '../StoreContext'
import { lessonLang, lessonText } from './buildNarration'

type Props = { readonly fullscreen: { active: boolean; toggle: () => void } }

/** The presenter's top bar: the lesson's title and position, type size, predict, notes window, captions, exit. */
export function PresenterBar({ fullscreen }: Props) {
  const t = useT()
  const store = useChunkscopeStore()
  const lesson = useChunkscope((s) => s.source?.lesson)
  const lang = useChunkscope((s) => s.lang)
  const k = useChunkscope((s) => s.k)
  const total = useChunkscope((s) => s.engine?.total ?? 0)
  const fontScale = useChunkscope((s) => s.fontScale)
  const predict = useChunkscope((s) => s.predict)
  const { togglePresenter, setFontScale, togglePredict } = useChunkscope((s) => s.actions)
  const [blocked, setBlocked] = useState<string | null>(null)
  const step = FONT_SCALES.indexOf(fontScale as (typeof FONT_SCALES)[number])

  const openNotes = () => {
    const params = new URLSearchParams(window.location.search)
    params.set(NOTES_PARAM, '')
    const url = `${window.location.origin}${window.location.pathname}?${params.toString()}`
    const opened = window.open(url, 'chunkscope-notes', 'popup,width=720,height=800')
    setBlocked(opened === null ? url : null)
  }
  const exportCaptions = () => {
    const { source, streamKey } = store.getState()
    const entry = findStream(source, streamKey)
    if (source?.lesson === undefined || entry === null) return
    const text = lessonToWebVtt({
      chunks: entry.attempt.chunks,
      lesson: source.lesson,
      streamKey: entry.key,
      lang: lessonLang(lang),
    })
    downloadText(
      text,
      `${(source.name ?? 'lesson').replace(/\.[^.]*$/, '')}.${lessonLang(lang)}.vtt`,
      'text/vtt',
    )
  }

  return (
    <header className="flex shrink-0 flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-950">
      <h1 className="mr-2 text-lg font-semibold">
        {lesson === undefined ? 'Chunkscope' : lessonText(lesson.title, lang)}
      </h1>
      <output aria-hidden className="font-mono tabular-nums">
        {k} / {total}
      </output>
      <div className="ml-auto flex flex-wrap items-center gap-1">
        <button type="button" className="btn" aria-pressed={predict} onClick={togglePredict}>
          {t('teach.predict')}
        </button>
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">{t('teach.scale', { percent: Math.round(fontScale * 100) })}</legend>
          <button
            type="button"
            className="btn"
            disabled={step <= 0}
            title={t('teach.smaller')}
            onClick={() => setFontScale(FONT_SCALES[step - 1] ?? fontScale)}
          >
            {/* Named by its content, so the visible "A−" is part of the name (WCAG 2.5.3). */}
            <span aria-hidden>A−</span>
            <span className="sr-only">{t('teach.smaller')}</span>
          </button>
          <output data-testid="font-scale" className="w-14 text-center font-mono tabular-nums">
            {Math.round(fontScale * 100)}%
          </output>
          <button
            type="button"
            className="btn"
            disabled={step >= FONT_SCALES.length - 1}
            title={t('teach.larger')}
            onClick={() => setFontScale(FONT_SCALES[step + 1] ?? fontScale)}
          >
            <span aria-hidden>A+</span>
            <span className="sr-only">{t('teach.larger')}</span>
          </button>
        </fieldset>
        <button type="button" className="btn" aria-pressed={fullscreen.active} onClick={fullscreen.toggle}>
          {t('teach.fullscreen')}
        </button>
        <button type="button" className="btn" onClick={openNotes}>
          {t('teach.notes')}
        </button>
        {lesson !== undefined && (
          <button type="button" className="btn" onClick={exportCaptions}>
            {t('teach.captions')}
          </button>
        )}
        <LangSwitch />
        <ThemeSwitch />
        <button type="button" className="btn" aria-pressed="true" onClick={togglePresenter}>
          {t('teach.exit')}
        </button>
      </div>
      {blocked !== null && (
        <p role="alert" className="w-full text-sm text-amber-800 dark:text-amber-200">
          {t('teach.notesBlocked', { url: blocked })}
        </p>
      )}
    </header>
  )
}
