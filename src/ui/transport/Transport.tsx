import { useLayoutEffect, useMemo, useRef } from 'react'
import { SPEEDS } from '../../app/store'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { buildExplanation } from './buildExplanation'
import { buildMarkers, type Marker } from './buildMarkers'

const TONE: Record<Marker['tone'], string> = {
  error: 'bg-red-500',
  ignored: 'bg-red-400',
  warning: 'bg-amber-500',
  info: 'bg-slate-400',
}

/** The transport bar: step buttons, play, speed, the scrubber with markers, "k / N" and the explanation line. */
export function Transport() {
  const t = useT()
  const engine = useChunkscope((s) => s.engine)
  const frame = useChunkscope((s) => s.frame)
  const k = useChunkscope((s) => s.k)
  const playing = useChunkscope((s) => s.playing)
  const speed = useChunkscope((s) => s.speed)
  const originalTiming = useChunkscope((s) => s.originalTiming)
  const { seekTo, stepBy, togglePlay, setSpeed, toggleOriginalTiming } = useChunkscope((s) => s.actions)
  // Up to 600 marks: built as elements once per engine, so a step does not re-render each of them.
  const markers = useMemo(() => {
    if (engine === null) return null
    const total = Math.max(1, engine.total)
    return buildMarkers(engine).map((marker) => (
      <span
        key={marker.at}
        className={`absolute h-1.5 w-0.5 ${TONE[marker.tone]}`}
        style={{ left: `${(marker.at / total) * 100}%` }}
      />
    ))
  }, [engine])
  const total = engine?.total ?? 0
  const disabled = engine === null
  const atStart = disabled || k === 0
  const atEnd = disabled || k >= total
  // The buttons, the speed and the timing switch change with the ends, play and the language, not with each step:
  // built as elements when those change, so a step re-renders only the slider, the position and the explanation
  // (a re-rendered <select> has its options walked again by React).
  const controls = useMemo(
    () => (
      <>
        <button
          type="button"
          className="btn"
          disabled={atStart}
          onClick={() => seekTo(0)}
          aria-label={t('transport.first')}
          title={t('transport.firstTitle')}
        >
          |◀
        </button>
        <button
          type="button"
          className="btn"
          disabled={atStart}
          onClick={() => stepBy(-1)}
          aria-label={t('transport.prev')}
          title={t('transport.prevTitle')}
        >
          ◀
        </button>
        <button
          type="button"
          className="btn min-w-16"
          disabled={disabled}
          onClick={togglePlay}
          aria-label={playing ? t('transport.pause') : t('transport.play')}
          title={t('transport.playTitle')}
        >
          {playing ? t('transport.pauseShown') : t('transport.playShown')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={atEnd}
          onClick={() => stepBy(1)}
          aria-label={t('transport.next')}
          title={t('transport.nextTitle')}
        >
          ▶
        </button>
        <button
          type="button"
          className="btn"
          disabled={atEnd}
          onClick={() => seekTo(total)}
          aria-label={t('transport.last')}
          title={t('transport.lastTitle')}
        >
          ▶|
        </button>
        <label className="ml-1 flex items-center gap-1 text-xs text-slate-600 dark:text-slate-300">
          {t('transport.speed')}
          <select
            className="field py-0"
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value))}
            aria-label={t('transport.speedLabel')}
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1 text-xs text-slate-600 dark:text-slate-300">
          <input type="checkbox" checked={originalTiming} onChange={toggleOriginalTiming} />
          {t('transport.originalTiming')}
        </label>
      </>
    ),
    [
      t,
      atStart,
      atEnd,
      disabled,
      playing,
      speed,
      originalTiming,
      total,
      seekTo,
      stepBy,
      togglePlay,
      setSpeed,
      toggleOriginalTiming,
    ],
  )

  // The scrubber's value is set on the element as the cursor moves, not rendered: a re-rendered <input> has its
  // `type` and `name` written again by React, and each write restyles it.
  const slider = useRef<HTMLInputElement>(null)
  useLayoutEffect(() => {
    if (slider.current !== null) slider.current.value = String(k)
  }, [k, total])
  const scrubber = useMemo(
    () => (
      <div className="relative mx-2 min-w-40 flex-1">
        <input
          ref={slider}
          type="range"
          aria-label={t('transport.cursor')}
          className="w-full accent-sky-600"
          min={0}
          max={total}
          defaultValue={0}
          disabled={disabled}
          onChange={(e) => seekTo(Number(e.target.value))}
        />
        <div aria-hidden className="pointer-events-none absolute inset-x-2 -bottom-0.5 h-1.5">
          {markers}
        </div>
      </div>
    ),
    [t, total, disabled, seekTo, markers],
  )

  return (
    <section
      aria-label={t('transport.region')}
      className="border-t border-slate-200 bg-slate-50 px-2 py-1 dark:border-slate-700 dark:bg-slate-950"
    >
      <div className="flex flex-wrap items-center gap-1">
        {controls}
        {scrubber}
        <output
          aria-label={t('transport.position')}
          className="min-w-24 text-right font-mono text-xs tabular-nums"
        >
          {k} / {total}
        </output>
      </div>
      {/* A polite live region (an <output> is a status): screen readers read each step's narration as it plays. */}
      <output
        data-transport-explanation
        aria-live="polite"
        aria-label={t('transport.explanation')}
        className="block truncate px-1 pt-0.5 font-mono text-xs text-slate-700 dark:text-slate-300"
      >
        {engine !== null && frame !== null ? buildExplanation(engine, frame, t) : t('transport.empty')}
      </output>
    </section>
  )
}
