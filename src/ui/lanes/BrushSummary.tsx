import { useMemo } from 'react'
import { useT } from '../i18n/useT'
import type { ReplayEngine } from '../../core/ReplayEngine'
import { formatDuration, formatNumber } from '../metrics/format'
import { summarizeRange } from './summarizeRange'
import type { Brush } from './useLaneControls'

/** The brushed range in figures: chunks, characters, time, tokens per second; by type and by block on demand. */
export function BrushSummary({
  engine,
  brush,
  onClear,
}: {
  readonly engine: ReplayEngine
  readonly brush: Brush
  readonly onClear: () => void
}) {
  const summary = useMemo(() => summarizeRange(engine, brush.from, brush.to), [engine, brush])
  const seqOf = (pos: number) => engine.chunks.at(pos)?.seq ?? pos
  const t = useT()
  return (
    <div className="flex min-w-0 items-center gap-1 text-[11px] text-slate-600 dark:text-slate-300">
      <output
        aria-label={t('lanes.selection')}
        aria-live="polite"
        className="truncate font-mono tabular-nums"
      >
        {t('lanes.brush', {
          from: String(seqOf(summary.from)),
          to: String(seqOf(summary.to - 1)),
          chunks: formatNumber(summary.chunks),
          chars: formatNumber(summary.chars),
        })}{' '}
        · {summary.ms === null ? t('lanes.noTime') : formatDuration(summary.ms)}
        {summary.tokensPerSecond !== null && ` · ${formatNumber(summary.tokensPerSecond)} tok/s`}
      </output>
      <details className="relative shrink-0">
        <summary className="btn cursor-pointer list-none px-1" title={t('lanes.byTypeBlockHint')}>
          {t('lanes.byTypeBlock')}
        </summary>
        <div className="absolute right-0 z-30 mt-1 max-h-64 w-64 overflow-auto rounded border border-slate-200 bg-white p-2 font-mono text-[11px] shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <table className="w-full" aria-label={t('lanes.byType')}>
            <tbody>
              {summary.byType.map((row) => (
                <tr key={row.type}>
                  <th scope="row" className="text-left font-normal">
                    {row.type}
                  </th>
                  <td className="text-right tabular-nums">{formatNumber(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="mt-2 w-full" aria-label={t('lanes.byBlock')}>
            <thead>
              <tr className="text-slate-500 dark:text-slate-400">
                <th scope="col" className="text-left font-normal">
                  {t('lanes.colBlock')}
                </th>
                <th scope="col" className="text-right font-normal">
                  {t('lanes.colChunks')}
                </th>
                <th scope="col" className="text-right font-normal">
                  {t('lanes.colChars')}
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.byBlock.slice(0, 200).map((row) => (
                <tr key={row.index}>
                  <th scope="row" className="text-left font-normal">
                    {row.index} {engine.life(row.index)?.blockType ?? ''}
                  </th>
                  <td className="text-right tabular-nums">{formatNumber(row.count)}</td>
                  <td className="text-right tabular-nums">{formatNumber(row.chars)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {summary.byBlock.length > 200 && (
            <p>{t('lanes.moreBlocks', { count: summary.byBlock.length - 200 })}</p>
          )}
          <p className="mt-2 font-sans text-slate-500 dark:text-slate-400">{t('lanes.tokHint')}</p>
        </div>
      </details>
      <button
        type="button"
        className="btn px-1"
        aria-label={t('lanes.clear')}
        title={t('lanes.clearHint')}
        onClick={onClear}
      >
        ✕
      </button>
    </div>
  )
}
