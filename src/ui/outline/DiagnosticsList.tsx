import { useState } from 'react'
import { useT } from '../i18n/useT'
import type { Diagnostic } from '../../formats/types'
import { SEVERITIES, SEVERITY_ICON } from '../findings/severity'
import { markHiddenChars } from '../hiddenChars'

/** Shown at once; a reader may report thousands of bad lines in a damaged file. */
const SHOWN = 200

/**
 * What the reader noticed about the input (seq gaps, torn tails, citation problems), collapsible at the top of
 * the outline. Open by default when something is an error.
 */
export function DiagnosticsList({ diagnostics }: { readonly diagnostics: readonly Diagnostic[] }) {
  const t = useT()
  const hasError = diagnostics.some((d) => d.severity === 'error')
  const [open, setOpen] = useState(hasError)
  if (diagnostics.length === 0) return null
  const counts = { error: 0, warning: 0, info: 0 }
  for (const d of diagnostics) counts[d.severity] += 1
  // Errors first (a corrupt log says so above its seq gaps), each severity in reading order.
  const sorted = open
    ? SEVERITIES.flatMap((severity) => diagnostics.filter((d) => d.severity === severity))
    : []
  return (
    <section aria-label={t('diagnostics.title')} className="border-b border-slate-200 dark:border-slate-700">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-1.5 px-2 py-1 text-left text-xs font-medium text-slate-700 hover:bg-slate-50 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <span aria-hidden className="w-3 text-slate-600">
          {open ? '▾' : '▸'}
        </span>
        {t('diagnostics.count', { count: diagnostics.length })}
        <span className="ml-auto flex gap-1.5 font-mono text-[11px]">
          {SEVERITIES.map((severity) =>
            counts[severity] === 0 ? null : (
              <span key={severity} className={SEVERITY_ICON[severity].color}>
                <span aria-hidden>{SEVERITY_ICON[severity].icon}</span>
                <span className="sr-only">{t('diagnostics.severity', { severity })}</span> {counts[severity]}
              </span>
            ),
          )}
        </span>
      </button>
      {open && (
        <ul className="max-h-40 overflow-auto pb-1 text-[11px] leading-4">
          {sorted.slice(0, SHOWN).map((diagnostic, position) => (
            <li key={position} className="flex gap-1.5 px-2 py-0.5">
              <span aria-hidden className={`shrink-0 ${SEVERITY_ICON[diagnostic.severity].color}`}>
                {SEVERITY_ICON[diagnostic.severity].icon}
              </span>
              <span className="sr-only">{diagnostic.severity}:</span>
              <span className="min-w-0 break-words text-slate-700 dark:text-slate-300">
                {withLine(diagnostic)}
              </span>
            </li>
          ))}
          {diagnostics.length > SHOWN && (
            <li className="px-2 py-0.5 text-slate-600 dark:text-slate-300">
              … {diagnostics.length - SHOWN} more
            </li>
          )}
        </ul>
      )}
    </section>
  )
}

/** Messages usually name their line already (`line 8: seq gap …`); prefix it when one does not. */
function withLine(diagnostic: Diagnostic): string {
  const { line, message } = diagnostic
  const shown = markHiddenChars(message)
  if (line === undefined || message.startsWith('line ')) return shown
  return `line ${line}: ${shown}`
}
