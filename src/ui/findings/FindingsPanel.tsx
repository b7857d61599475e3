import { useMemo, useState } from 'react'
import type { Severity } from '../../core/checks'
import { chunksOf } from '../../core/chunkList'
import { wireSequenceFindings } from '../../core/wireSequence'
import { findStream } from '../../formats/streamRefs'
import { Panel } from '../layout/Panel'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { countBySeverity, findingList, recordedMismatch, visiblePositions } from './buildFindings'
import { FindingsList } from './FindingsList'
import { SEVERITIES, SEVERITY_ICON } from './severity'

/**
 * The checks of docs/protocol.md §5 for the selected stream, plus `recorded-mismatch` when the attempt's re-assembly
 * differs from its stored message. Findings the cursor has not reached yet are dimmed; a click seeks to the chunk.
 */
export function FindingsPanel() {
  const t = useT()
  // A long stream's first show renders the findings in a task of their own (the store's `showing`).
  const pending = useChunkscope((s) => s.showing === 'stream')
  const engine = useChunkscope((s) => (s.showing === 'stream' ? null : s.engine))
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  const results = useChunkscope((s) => s.results)
  const [hidden, setHidden] = useState<ReadonlySet<Severity>>(new Set())

  const attempt = useMemo(() => findStream(source, streamKey)?.attempt ?? null, [source, streamKey])
  const list = useMemo(() => {
    if (engine === null) return null
    const mismatch =
      attempt !== null && chunksOf(attempt) === engine.chunks
        ? recordedMismatch(attempt, results.comparison(attempt))
        : null
    const wire = attempt !== null && chunksOf(attempt) === engine.chunks ? wireSequenceFindings(attempt) : []
    return findingList(engine.findings, mismatch, wire)
  }, [engine, attempt, results])
  const counts = useMemo(() => (list === null ? null : countBySeverity(list)), [list])
  const positions = useMemo(() => (list === null ? null : visiblePositions(list, hidden)), [list, hidden])

  const toggle = (severity: Severity) => {
    const next = new Set(hidden)
    if (next.has(severity)) next.delete(severity)
    else next.add(severity)
    setHidden(next)
  }

  return (
    <Panel
      title={t('findings.title')}
      className="flex-[2]"
      busy={pending}
      actions={
        counts !== null && (
          <fieldset className="flex gap-0.5">
            <legend className="sr-only">{t('findings.severityFilter')}</legend>
            {SEVERITIES.map((severity) => (
              <button
                key={severity}
                type="button"
                aria-pressed={!hidden.has(severity)}
                title={t(hidden.has(severity) ? 'findings.show' : 'findings.hide', { severity })}
                onClick={() => toggle(severity)}
                className="flex h-5 items-center gap-0.5 rounded px-1 font-mono text-[11px] tabular-nums hover:bg-slate-100 aria-[pressed=false]:line-through dark:hover:bg-slate-800"
              >
                <span aria-hidden className={SEVERITY_ICON[severity].color}>
                  {SEVERITY_ICON[severity].icon}
                </span>
                {/* The name is the visible count plus words for screen readers ("0 infos"), never a different label. */}
                <span className="text-slate-700 dark:text-slate-300">{counts[severity]}</span>
                <span className="sr-only">
                  {' '}
                  {t('findings.severityNoun', { severity, count: counts[severity] })}
                </span>
              </button>
            ))}
          </fieldset>
        )
      }
    >
      {list === null ? (
        !pending && <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('findings.none')}</p>
      ) : list.length === 0 ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('findings.clean')}</p>
      ) : positions !== null && positions.length === 0 ? (
        <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('findings.allHidden')}</p>
      ) : (
        <FindingsList list={list} positions={positions} />
      )}
    </Panel>
  )
}
