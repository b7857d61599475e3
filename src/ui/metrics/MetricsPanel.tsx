import { useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react'
import { CHUNK_STYLE, UNKNOWN_BADGE } from '../chunkStyle'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import type { ChunkType } from '../../core/protocol'
import type { ReplayEngine } from '../../core/ReplayEngine'
import type { T } from '../i18n/translate'
import { inIdleSlices, inputPending } from '../idleSlices'
import { buildMetrics, MetricsCounter, type StreamMetrics } from './buildMetrics'
import { formatDuration, formatNumber } from './format'
import { GapChart } from './GapChart'
import { useT } from '../i18n/useT'

/** Stream metrics of the selected stream (docs/protocol.md §11), computed once per engine. */
export function MetricsPanel() {
  const t = useT()
  // Deferred: the workbench is painted and usable first.
  const engine = useDeferredValue(useChunkscope((s) => s.engine))
  const { seekTo } = useChunkscope((s) => s.actions)
  const metrics = useMetrics(engine, t)
  // A stream is selected but its figures are still being counted (deferred, or in idle slices).
  const counting = useChunkscope((s) => s.engine !== null) && metrics === null
  return (
    <Panel title={t('metrics.title')} className="flex-1" focusableScroll busy={counting}>
      {metrics === null ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">
          {t(counting ? 'metrics.counting' : 'metrics.none')}
        </p>
      ) : (
        <MetricsBody metrics={metrics} seekTo={seekTo} />
      )}
    </Panel>
  )
}

/** Streams up to this many chunks are counted in the (deferred) render; longer ones in idle slices after it. */
const SYNC_CHUNKS = 100_000
/** Chunks counted between two looks at the clock. */
const STEP = 1024

type Counted = { readonly engine: ReplayEngine; readonly t: T; readonly metrics: StreamMetrics }

/**
 * The engine's metrics. A million chunks would be one ~100 ms task to count, so a long stream is counted in idle
 * slices (idleSlices.ts); until that is done none are shown (never another stream's).
 */
function useMetrics(engine: ReplayEngine | null, t: T): StreamMetrics | null {
  const sync = engine !== null && engine.chunks.length <= SYNC_CHUNKS
  const now = useMemo(
    () => (engine !== null && sync ? buildMetrics(engine.chunks, t) : null),
    [engine, sync, t],
  )
  const [counted, setCounted] = useState<Counted | null>(null)
  useEffect(() => {
    if (engine === null || sync) return
    const counter = new MetricsCounter(engine.chunks)
    return inIdleSlices((budgetMs) => {
      const started = performance.now()
      do counter.countTo(counter.next + STEP)
      while (!counter.done && performance.now() - started < budgetMs && !inputPending())
      if (counter.done) setCounted({ engine, t, metrics: counter.result(t) })
      return counter.done
    })
  }, [engine, sync, t])
  if (now !== null) return now
  return counted !== null && counted.engine === engine && counted.t === t ? counted.metrics : null
}

function MetricsBody({
  metrics,
  seekTo,
}: {
  readonly metrics: StreamMetrics
  readonly seekTo: (k: number) => void
}) {
  const t = useT()
  const { timing, usage } = metrics
  const none = '—'
  return (
    // Four figures a row where the panel has room, two where it has not (a phone gives it ~11rem): the labels wrap
    // rather than end in an ellipsis ("Time to first token" did even at full width).
    <div className="@container space-y-2 p-2 text-xs">
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1.5 @[18rem]:grid-cols-4">
        <Stat label={t('metrics.chunks')}>{formatNumber(metrics.chunks)}</Stat>
        <Stat label={t('metrics.toolCalls')}>{metrics.toolCalls}</Stat>
        <Stat label={t('metrics.ttft')} hint={timing.usable ? timing.ttftNote : null}>
          {timing.usable && timing.ttftMs !== null ? formatDuration(timing.ttftMs) : none}
        </Stat>
        <Stat
          label={t('metrics.duration')}
          hint={timing.usable && timing.excluded !== null ? t('metrics.durationHint') : null}
        >
          {timing.usable
            ? `${timing.excluded !== null ? '≈ ' : ''}${formatDuration(timing.durationMs)}`
            : none}
        </Stat>
        <Stat label={t('metrics.tokensPerSecond')} hint={usage === null ? t('metrics.noUsage') : null}>
          {timing.usable && timing.tokensPerSecond !== null ? formatNumber(timing.tokensPerSecond) : none}
        </Stat>
        <Stat label={t('metrics.charsPerSecond')}>
          {timing.usable && timing.charsPerSecond !== null ? formatNumber(timing.charsPerSecond) : none}
        </Stat>
        <Stat label={t('metrics.maxGap')}>
          {timing.usable ? (
            <button
              type="button"
              className="underline decoration-dotted underline-offset-2 hover:text-sky-700 dark:hover:text-sky-300"
              title={t('metrics.goTo', { seq: timing.maxGap.seq })}
              onClick={() => seekTo(timing.maxGap.pos + 1)}
            >
              {formatDuration(timing.maxGap.ms)}
            </button>
          ) : (
            none
          )}
        </Stat>
        <Stat label={t('metrics.medianGap')}>
          {timing.usable ? formatDuration(timing.medianGapMs) : none}
        </Stat>
      </dl>
      {!timing.usable ? (
        <p className="text-amber-700 dark:text-amber-400">{timing.reason}</p>
      ) : (
        timing.excluded !== null && <p className="text-amber-700 dark:text-amber-400">{timing.excluded}</p>
      )}
      <p className="font-mono text-[11px] text-slate-700 dark:text-slate-300">
        {usage === null ? (
          <span className="text-slate-600 dark:text-slate-300">{t('metrics.noUsage')}</span>
        ) : (
          <>
            {t('usage.inOut', {
              input: formatNumber(usage.inputTokens),
              output: formatNumber(usage.outputTokens),
            })}
            {usage.cacheReadTokens !== undefined &&
              ` · ${t('usage.cacheRead', { n: formatNumber(usage.cacheReadTokens) })}`}
            {usage.cacheWriteTokens !== undefined &&
              ` · ${t('usage.cacheWrite', { n: formatNumber(usage.cacheWriteTokens) })}`}
            {usage.reasoningTokens !== undefined &&
              ` · ${t('usage.reasoning', { n: formatNumber(usage.reasoningTokens) })}`}
            {(usage.cacheReadTokens !== undefined || usage.cacheWriteTokens !== undefined) &&
              ` · ${t('usage.billed', { n: formatNumber(usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0)) })}`}
          </>
        )}
      </p>
      <ul aria-label={t('metrics.byType')} className="flex flex-wrap gap-1">
        {metrics.byType
          .filter((entry) => entry.count > 0)
          .map((entry) => (
            <li
              key={entry.type}
              className={`rounded px-1.5 py-px font-mono text-[11px] ${
                entry.known ? CHUNK_STYLE[entry.type as ChunkType].badge : UNKNOWN_BADGE
              }`}
            >
              {entry.type} {formatNumber(entry.count)}
            </li>
          ))}
      </ul>
      {timing.usable && <GapChart buckets={timing.buckets} total={metrics.chunks} />}
    </div>
  )
}

function Stat({
  label,
  hint,
  children,
}: {
  readonly label: string
  readonly hint?: string | null
  readonly children: ReactNode
}) {
  return (
    <div className="min-w-0" title={hint ?? undefined}>
      <dt className="text-[10px] leading-tight tracking-wide break-words text-slate-600 uppercase dark:text-slate-300">
        {label}
      </dt>
      <dd className="font-mono text-sm tabular-nums">{children}</dd>
      {hint && <dd className="truncate text-[10px] text-slate-600 dark:text-slate-300">{hint}</dd>}
    </div>
  )
}
