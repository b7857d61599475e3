import { useMemo } from 'react'
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
  const seqOf = (pos: number) => engine.chunks[pos]?.seq ?? pos
  return (
    <div className="flex min-w-0 items-center gap-1 text-[11px] text-slate-600 dark:text-slate-300">
      <output aria-label="Selection" aria-live="polite" className="truncate font-mono tabular-nums">
        seq {seqOf(summary.from)}–{seqOf(summary.to - 1)} · {formatNumber(summary.chunks)} chunks ·{' '}
        {formatNumber(summary.chars)} chars · {summary.ms === null ? 'no time' : formatDuration(summary.ms)}
        {summary.tokensPerSecond !== null && ` · ${formatNumber(summary.tokensPerSecond)} tok/s`}
      </output>
      <details className="relative shrink-0">
        <summary className="btn cursor-pointer list-none px-1" title="By type and by block">
          by type, block
        </summary>
        <div className="absolute right-0 z-30 mt-1 max-h-64 w-64 overflow-auto rounded border border-slate-200 bg-white p-2 font-mono text-[11px] shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <table className="w-full" aria-label="Selection by type">
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
          <table className="mt-2 w-full" aria-label="Selection by block">
            <thead>
              <tr className="text-slate-500 dark:text-slate-400">
                <th scope="col" className="text-left font-normal">
                  block
                </th>
                <th scope="col" className="text-right font-normal">
                  chunks
                </th>
                <th scope="col" className="text-right font-normal">
                  chars
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
          {summary.byBlock.length > 200 && <p>… and {summary.byBlock.length - 200} more blocks</p>}
          <p className="mt-2 font-sans text-slate-500 dark:text-slate-400">
            tok/s counts deltas that carry text or arguments: these streams send about one token per delta.
          </p>
        </div>
      </details>
      <button
        type="button"
        className="btn px-1"
        aria-label="Clear selection"
        title="Clear selection (Esc)"
        onClick={onClear}
      >
        ✕
      </button>
    </div>
  )
}
