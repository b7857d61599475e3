import { useMemo, useState } from 'react'
import { compareStreams } from '../../core/experiments/compareStreams'
import { listStreams } from '../../formats/streamRefs'
import { useChunkscope } from '../StoreContext'
import { ComparisonSummary } from './ComparisonSummary'
import { OverlaidLanes } from './OverlaidLanes'
import { useCurrentStream } from './useCurrentStream'

/** The selected stream against another stream of the same source, aligned by block, with overlaid lanes. */
export function CompareTab() {
  const source = useChunkscope((s) => s.source)
  const current = useCurrentStream()
  const streams = useMemo(() => listStreams(source), [source])
  const others = streams.filter((s) => s.key !== current?.key)
  const [otherKey, setOtherKey] = useState<string | null>(null)
  const other = others.find((s) => s.key === otherKey) ?? others[0] ?? null
  const a = current?.attempt ?? null
  const b = other?.attempt ?? null
  // Re-rendered only when the source or the selection changes (never per cursor step).
  const comparison = a !== null && b !== null ? compareStreams(a.chunks, b.chunks) : null
  if (current === null || other === null || comparison === null)
    return (
      <p className="p-2 text-xs text-slate-500">
        Compare needs two streams in one source: two attempts of a log, or a file with several streams.
      </p>
    )
  const timing = (t: (typeof comparison)['a']['timing']) =>
    `${t.chunks} chunks · ${t.deltas} deltas · ttft ${t.ttftMs === null ? '–' : `${Math.round(t.ttftMs)} ms`} · median gap ${t.medianGapMs === null ? '–' : `${Math.round(t.medianGapMs)} ms`} · ${t.charsPerSecond === null ? '–' : `${t.charsPerSecond.toFixed(0)} chars/s`}`
  return (
    <div className="flex flex-col gap-2 p-2 text-xs">
      <label className="flex items-center gap-1">
        Compare <b>{current.key}</b> (A) with
        <select
          aria-label="Stream B"
          value={other.key}
          onChange={(e) => setOtherKey(e.target.value)}
          className="rounded border border-slate-300 dark:border-slate-600 dark:bg-slate-800"
        >
          {others.map((s) => (
            <option key={s.key} value={s.key}>
              {s.key}
            </option>
          ))}
        </select>
      </label>
      <p>A: {timing(comparison.a.timing)}</p>
      <p>B: {timing(comparison.b.timing)}</p>
      <OverlaidLanes a={current.attempt.chunks} b={other.attempt.chunks} />
      <ComparisonSummary comparison={comparison} before="A" after="B" />
    </div>
  )
}
