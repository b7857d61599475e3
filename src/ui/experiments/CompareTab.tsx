import { useMemo, useState } from 'react'
import { loadInBackground } from '../../app/open/loadClient'
import { compareStreams } from '../../core/experiments/compareStreams'
import { listStreams, type StreamEntry } from '../../formats/streamRefs'
import type { LoadedSource } from '../../formats/types'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { BlockColumns } from './BlockColumns'
import { ComparisonSummary } from './ComparisonSummary'
import { OverlaidLanes } from './OverlaidLanes'
import { useCurrentStream } from './useCurrentStream'

/**
 * The selected stream (A) against another (B): another stream of the same source, or a stream of a second file
 * read in the loading worker — aligned by block, with overlaid lanes, timing and findings.
 */
export function CompareTab() {
  const t = useT()
  const source = useChunkscope((s) => s.source)
  const current = useCurrentStream()
  const [other, setOther] = useState<{ source: LoadedSource; name: string } | string | null>(null)
  const otherSource = typeof other === 'object' && other !== null ? other.source : null
  const pool = otherSource ?? source
  const streams = useMemo(() => listStreams(pool), [pool])
  const candidates = otherSource !== null ? streams : streams.filter((s) => s.key !== current?.key)
  const [otherKey, setOtherKey] = useState<string | null>(null)
  const chosen: StreamEntry | null = candidates.find((s) => s.key === otherKey) ?? candidates[0] ?? null
  const a = current?.attempt ?? null
  const b = chosen?.attempt ?? null
  // Re-rendered only when the source or the selection changes (never per cursor step).
  const comparison = a !== null && b !== null ? compareStreams(a.chunks, b.chunks) : null
  const pickFile = async (file: File) => {
    setOther(`reading ${file.name}…`)
    try {
      const loaded = await loadInBackground({ file, name: file.name }, () => {})
      setOtherKey(null)
      setOther(
        listStreams(loaded).length > 0
          ? { source: loaded, name: file.name }
          : `${file.name}: no stream in it`,
      )
    } catch (error) {
      setOther(`${file.name}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  if (current === null)
    return <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('compare.empty')}</p>
  const timing = (of: NonNullable<typeof comparison>['a']['timing']) =>
    t('compare.timing', {
      chunks: of.chunks,
      deltas: of.deltas,
      ttft: of.ttftMs === null ? '–' : `${Math.round(of.ttftMs)} ms`,
      gap: of.medianGapMs === null ? '–' : `${Math.round(of.medianGapMs)} ms`,
      rate: of.charsPerSecond === null ? '–' : of.charsPerSecond.toFixed(0),
    })
  return (
    <div className="flex flex-col gap-2 p-2 text-xs">
      <div className="flex flex-wrap items-center gap-1">
        <span>{t('compare.with', { key: current.key })}</span>
        {candidates.length > 0 && (
          <select
            aria-label={t('compare.streamB')}
            value={chosen?.key ?? ''}
            onChange={(e) => setOtherKey(e.target.value)}
            className="rounded border border-slate-300 dark:border-slate-600 dark:bg-slate-800"
          >
            {candidates.map((s) => (
              <option key={s.key} value={s.key}>
                {otherSource !== null && typeof other === 'object' && other !== null ? `${other.name} ` : ''}
                {s.key}
              </option>
            ))}
          </select>
        )}
        <label className="cursor-pointer rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
          {t('compare.anotherFile')}
          <input
            type="file"
            aria-label={t('compare.withFile')}
            className="sr-only"
            onChange={(e) => e.target.files?.[0] && void pickFile(e.target.files[0])}
          />
        </label>
        {otherSource !== null && (
          <button type="button" className="underline" onClick={() => setOther(null)}>
            {t('compare.back')}
          </button>
        )}
      </div>
      {typeof other === 'string' && <output className="block">{other}</output>}
      {comparison === null || b === null ? (
        <p className="text-slate-600 dark:text-slate-300">{t('compare.choose')}</p>
      ) : (
        <>
          <p>A: {timing(comparison.a.timing)}</p>
          <p>B: {timing(comparison.b.timing)}</p>
          <OverlaidLanes a={a!.chunks} b={b.chunks} />
          <ComparisonSummary comparison={comparison} before="A" after="B" />
          <BlockColumns blocks={comparison.blocks} before="A" after="B" />
        </>
      )}
    </div>
  )
}
