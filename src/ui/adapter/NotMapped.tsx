import { useState } from 'react'
import { useT } from '../i18n/useT'
import type { Diagnostic } from '../../formats/types'
import { SEVERITY_ICON } from '../findings/severity'

const SHOWN = 100

/** What the reader could not map to chunks (its notes and diagnostics), under the pairs, collapsible. */
export function NotMapped({ diagnostics }: { readonly diagnostics: readonly Diagnostic[] }) {
  // Open when something went wrong; notes alone (metadata left out, keep-alives) start folded.
  const t = useT()
  const [open, setOpen] = useState(() => diagnostics.some((d) => d.severity !== 'info'))
  if (diagnostics.length === 0) return null
  return (
    <section
      aria-label={t('adapter.notMapped')}
      className="max-h-[30%] shrink-0 overflow-auto border-t border-slate-200 text-xs dark:border-slate-700"
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="sticky top-0 flex w-full items-center gap-1.5 bg-white px-2 py-0.5 text-left font-medium text-slate-700 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <span aria-hidden className="w-3 text-slate-600">
          {open ? '▾' : '▸'}
        </span>
        {t('adapter.notMappedCount', { count: diagnostics.length })}
      </button>
      {open && (
        <ul className="px-2 pb-1">
          {diagnostics.slice(0, SHOWN).map((d, i) => (
            <li key={i} className="flex gap-1.5 py-px">
              <span aria-hidden className={SEVERITY_ICON[d.severity].color}>
                {SEVERITY_ICON[d.severity].icon}
              </span>
              <span className="min-w-0 break-words text-slate-700 dark:text-slate-300">{d.message}</span>
            </li>
          ))}
          {diagnostics.length > SHOWN && (
            <li className="text-slate-600 dark:text-slate-400">
              {t('adapter.more', { count: diagnostics.length - SHOWN })}
            </li>
          )}
        </ul>
      )}
    </section>
  )
}
